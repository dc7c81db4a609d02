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
    if (pair := _bracketed(answer, _OR_OPEN, ")）")) is not None:
        return list(pair)
    if (pair := _bracketed(answer, _OPEN, "）")) is not None:
        return [answer, *pair]
    return [answer]


_OR_OPEN = re.compile(r"[（(]\s*或\s*")
_OPEN = re.compile(r"（\s*")


def _bracketed(answer: str, opening: re.Pattern[str], closing: str) -> tuple[str, str] | None:
    r"""("X", "Y") from "X <opening> Y <closing>", split at the first opening after some text.

    A scan: the regex this was, (.+?)\s*（\s*(.+?)\s*）, backtracked over every space of a long answer.
    """
    if not answer.endswith(tuple(closing)):
        return None
    for m in opening.finditer(answer):
        head, tail = answer[:m.start()].rstrip(), answer[m.end():-1].rstrip()
        if head:
            return (head, tail) if tail and "\n" not in head + tail else None
    return None
