"""A lint finding (bank/lint.py), an upload's warning or a key in doubt as a chat shows them: in the
reader's language (bot/catalogue/lint.py), placed by the paper's title, the section's name and the
question's number."""

from __future__ import annotations

from collections.abc import Mapping

from bank.kinds import Kind
from bank.lint import LintItem
from bank.lint_messages import place_shape
from bot.i18n import CATALOGUE, joined, kind_name, t
from bot.section_names import short_section

_KINDS = {k.value for k in Kind}


def lint_message(key: str, params: Mapping[str, object], lang: str) -> str:
    """What the message `key` says with `params`; an unknown key (a flag added later) reads as itself. A
    reader's note says its place ("第 12 行") and a question's kind in `lang` too."""
    name = f"lint_{key}"
    if name not in CATALOGUE:
        return key
    said = dict(params)
    if (shape := place_shape(params)) is not None:
        said["place"] = t(f"lint_place_{shape}", lang, **params)
    if key == "options_ignored" and params.get("kind") in _KINDS:
        said["kind"] = kind_name(Kind(str(params["kind"])), lang)
    if key == "explanation_vs_key" and isinstance(params.get("spoken"), str):  # letters stored as "B, C"
        said["spoken"] = joined(str(params["spoken"]).split(", "), lang)
    return t(name, lang, **said)


def where(paper: str, section: str, number: int | None, lang: str) -> str:
    """"Title · 填空题 · Q3" ("第3题" in Chinese); without a number, the section alone."""
    if number is None:
        return t("where_section", lang, paper=paper, section=short_section(section))
    return t("where_question", lang, paper=paper, section=short_section(section), number=number)


def lint_line(item: LintItem, lang: str) -> str:
    """"Title · 填空题 · Q3: <what>", in `lang`."""
    params = dict(item.params)
    if "other_section" in params:
        params["other_section"] = short_section(str(params["other_section"]))
    message = lint_message(item.text_key, params, lang)
    if item.section is None:
        return f"{item.title or item.paper}: {message}"
    return f"{where(item.title or item.paper, item.section_title, item.number, lang)}: {message}"
