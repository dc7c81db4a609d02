"""Case analysis sections: cutting at "案例1." and parting each scenario from its reference answer."""

from __future__ import annotations

import re

from bank.importer.answers import ANSWER
from bank.importer.numbering import line_start, marker
from bank.importer.raw import Raw

_CASE_MARK = re.compile(r"案例\s*(\d+)\s*[.．、:：]?")


def has_case_marks(body: str) -> bool:
    """Whether the section numbers its cases "案例1.", "案例2."…"""
    return _CASE_MARK.search(body) is not None


def cut_cases(body: str) -> list[Raw]:
    """One raw question per "案例n", numbered in order of appearance."""
    marks = list(_CASE_MARK.finditer(body))
    raws: list[Raw] = []
    for i, m in enumerate(marks):
        chunk = body[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(body)]
        raws.append(_split_case(len(raws) + 1, chunk))
    return raws


def _split_case(number: int, chunk: str) -> Raw:
    """Scenario and sub-questions, then the reference answer: after "參考答案：" if labelled,
    else where the numbering of the sub-questions starts again at 1."""
    a = ANSWER.search(chunk)
    if a:
        return Raw(number, chunk[: a.start()], chunk[a.end():])
    q = re.search(r"問題\s*[：:]|问题\s*[：:]", chunk)
    start = q.end() if q else 0
    ones = [h for h in marker(1).finditer(chunk, start)
            if line_start(chunk, h.start()) or "\n" not in chunk.strip()]
    if len(ones) >= 2:
        return Raw(number, chunk[: ones[1].start()], chunk[ones[1].start():])
    return Raw(number, chunk)
