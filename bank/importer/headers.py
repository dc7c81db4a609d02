"""Seed paper headers: the title, section headers in order, their kind and points per question."""

from __future__ import annotations

import re

from bank.kinds import Kind
from bank.script import converter
from bank.text.clean import tidy

DEFAULT_POINTS = {
    Kind.fill: 1.0, Kind.single: 2.0, Kind.multi: 2.0, Kind.truefalse: 2.0,
    Kind.short: 5.0, Kind.discussion: 10.0, Kind.case: 10.0,
}
# Matched against the Simplified form of a header's name; order matters (多项选择 before 选择).
_KIND_WORDS = [
    ("案例", Kind.case), ("填空", Kind.fill), ("多项选择", Kind.multi), ("多选", Kind.multi),
    ("单项选择", Kind.single), ("单选", Kind.single), ("选择", Kind.single),
    ("判断", Kind.truefalse), ("是非", Kind.truefalse), ("简答", Kind.short), ("问答", Kind.short),
    ("讨论", Kind.discussion), ("论述", Kind.discussion),
]
_NUMERALS = "一二三四五六七八九十"
_HEADER = re.compile(
    r"(?P<num>十?[一二三四五六七八九十])\s*[、.．]\s*(?P<name>[^\s、，。：:（()）\d]{1,14}?[题題])"
    r"\s*(?:[（(](?P<meta>[^）)\n]{0,40})[）)])?"
)



def find_headers(text: str) -> list[tuple[re.Match[str], Kind]]:
    """Section headers in order; numerals must run 一, 二, 三... so stray matches are skipped."""
    found: list[tuple[re.Match[str], Kind]] = []
    for m in _HEADER.finditer(text):
        kind = _kind_of(m.group("name"))
        if kind is None or _numeral_value(m.group("num")) != len(found) + 1:
            continue
        found.append((m, kind))
    return found


def _kind_of(name: str) -> Kind | None:
    simple = converter("t2s").convert(name)
    for word, kind in _KIND_WORDS:
        if word in simple:
            return kind
    return None


def _numeral_value(num: str) -> int:
    if num.startswith("十"):
        return 10 + (_NUMERALS.index(num[1]) + 1 if len(num) > 1 else 0)
    return _NUMERALS.index(num) + 1


def title_of(head: str) -> str:
    """The paper's title: the first non-empty line before the first section header."""
    lines = [line for line in tidy(head).split("\n") if line]
    return lines[0] if lines else ""


def header_meta(meta: str | None) -> tuple[float | None, int | None]:
    """Points per question and declared question count from "（每题2分，共20分）", when given."""
    if not meta:
        return None, None
    each = re.search(r"每[题題小]*\s*(\d+(?:\.\d+)?)\s*分", meta)
    count = re.search(r"共\s*(\d+)\s*[题題道小]", meta)
    total = re.search(r"共\s*(\d+(?:\.\d+)?)\s*分", meta)
    points = float(each.group(1)) if each else None
    declared = int(count.group(1)) if count else None
    if declared is None and points and total:
        n = float(total.group(1)) / points
        declared = int(n) if n == int(n) else None
    return points, declared
