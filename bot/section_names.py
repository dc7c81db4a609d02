"""A section's name as a reader sees it. A heading imported from a file is data, shown as imported
(without its number and note: "一、填空题（每题1分，共10分）" → "填空题") in the reader's script; a name
the bot generated (bank.kinds.SECTION_TITLES: the section of a file without sections, a question
added to a new section, a mock paper's parts) is the kind's name in the reader's language."""

from __future__ import annotations

from bank.kinds import SECTION_TITLES, Kind
from bank.script import to_script
from bank.section_names import short_section
from bot.i18n import kind_name

_GENERATED: dict[str, Kind] = {title: kind for kind, title in SECTION_TITLES.items()}


def generated_kind(title: str) -> Kind | None:
    """The kind whose generated name `title` is, stored as written by the bot; None for an imported heading."""
    return _GENERATED.get(title)


def section_name(title: str, lang: str, script: str = "orig") -> str:
    """A stored section title for a reader in `lang` (a `bot.i18n.t` language) and `script`."""
    kind = generated_kind(title)
    if kind is not None:
        return kind_name(kind, lang)
    return to_script(short_section(title), script)
