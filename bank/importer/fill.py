"""Fill-in keys: one answer per blank, each with its accepted alternatives."""

from __future__ import annotations

import re

from bank.import_notes import note
from bank.importer.raw import Ctx
from bank.text.clean import tidy

_BLANK = re.compile(r"_{2,}|＿{2,}")


def fill_key(ctx: Ctx, where: str, stem: str, text: str | None) -> list[list[str]]:
    """The key split across the stem's blanks when its parts match them, else one blank."""
    if text is None:
        return []
    answer = " ".join(tidy(text).split("\n")).strip().rstrip("。；;")
    if not answer:
        return []
    blanks = len(_BLANK.findall(stem)) or 1
    if blanks > 1 and not answer.startswith("$"):
        parts = [p.strip() for p in re.split(r"[、；;，,]", answer) if p.strip()]
        if len(parts) == blanks:
            return [_alternatives(p) for p in parts]
        ctx.notes.append(note("fill_parts", where, blanks=blanks, parts=len(parts)))
    return [_alternatives(answer)]


def _alternatives(answer: str) -> list[str]:
    """"X（或Y）" -> [X, Y]; "X（Y）" -> [X（Y）, X, Y]; LaTeX is never split."""
    if answer.startswith("$"):
        return [answer]
    m = re.fullmatch(r"(.+?)\s*[（(]\s*或\s*(.+?)\s*[)）]", answer)
    if m:
        return [m.group(1), m.group(2)]
    m = re.fullmatch(r"(.+?)\s*（\s*(.+?)\s*）", answer)
    if m:
        return [answer, m.group(1), m.group(2)]
    return [answer]
