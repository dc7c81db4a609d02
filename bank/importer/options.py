"""Choice questions: options glued "A.xxxB.yyy" or one per line, and the letter key, inline or given."""

from __future__ import annotations

import re

from bank.importer.numbering import line_start
from bank.option_order import LETTERS
from bank.text.clean import tidy

_CHOICE_INLINE = re.compile(r"[（(]\s*([A-Za-z]{1,26})\s*[)）]")


def split_options(text: str, letters: str = LETTERS) -> tuple[str, list[str]]:
    """Stem and option texts: "A.…B.…" glued or one per line, possibly split over lines."""
    marks: list[re.Match[str]] = []
    for letter in letters:
        pattern = re.compile(rf"{letter}\s*[.．、]")
        start = marks[-1].end() + 1 if marks else 0
        hits = list(pattern.finditer(text, start))
        if not marks:
            at_line = [h for h in hits if line_start(text, h.start())]
            hits = at_line or hits
        if not hits:
            break
        marks.append(hits[0])
    if len(marks) < 2:
        return text, []
    options = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        options.append(" ".join(tidy(text[m.end(): end]).split("\n")))
    return text[: marks[0].start()], options


def inline_key(stem: str, n_options: int) -> tuple[str, str | None]:
    """A key written into the stem's brackets, "…（B）…": the stem with them emptied, and the key.
    Only letters naming one of the `n_options` options count ("（CPU）" is not a key)."""
    allowed = set(LETTERS[:n_options])
    inline = [m for m in _CHOICE_INLINE.finditer(stem) if set(m.group(1).upper()) <= allowed]
    if not inline:
        return stem, None
    return stem[: inline[-1].start()] + "（）" + stem[inline[-1].end():], inline[-1].group(1)


def choice_key(text: str | None) -> str:
    """The key's letters, upper case, sorted and deduplicated; "" when there is none."""
    if text is None:
        return ""
    t = re.sub(r"[\s,，、]", "", tidy(text))
    m = re.match(r"[A-Za-z]+", t)
    return "".join(sorted(set(m.group(0).upper()))) if m else ""
