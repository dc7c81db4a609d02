"""The bank's words: question kinds, flags, paper policies, section titles and a question's
fingerprint. bank/models.py builds its pydantic classes on them."""

from __future__ import annotations

import hashlib
from enum import StrEnum


class Kind(StrEnum):
    fill = "fill"
    single = "single"
    multi = "multi"
    truefalse = "truefalse"
    short = "short"
    discussion = "discussion"
    case = "case"
    numerical = "numerical"  # a number within a tolerance; answer [[value, tolerance], ...]
    matching = "matching"  # pairs; answer [[left, right], ...], a blank left is a distractor


OBJECTIVE = frozenset({Kind.fill, Kind.single, Kind.multi, Kind.truefalse, Kind.numerical, Kind.matching})
SUBJECTIVE = frozenset({Kind.short, Kind.discussion, Kind.case})
CHOICE = frozenset({Kind.single, Kind.multi})


class Flag(StrEnum):
    truncated = "truncated"  # cut off at the end of the file: never asked
    corrupted = "corrupted"  # garbled characters that could not be repaired: never asked
    repaired = "repaired"  # garbled characters were repaired with certainty
    no_answer = "no_answer"  # the key is missing
    no_explanation = "no_explanation"


UNASKABLE = frozenset({Flag.truncated, Flag.corrupted, Flag.no_answer})


# the usual Chinese exam-paper title of a section of each kind (imports, composed and mock papers)
SECTION_TITLES: dict[Kind, str] = {
    Kind.single: "单项选择题", Kind.multi: "多项选择题", Kind.truefalse: "判断题", Kind.fill: "填空题",
    Kind.numerical: "数值题", Kind.matching: "匹配题", Kind.short: "简答题", Kind.discussion: "讨论题",
    Kind.case: "案例分析题",
}


class MultiPolicy(StrEnum):
    all_or_nothing = "all-or-nothing"
    partial = "partial"
    weighted = "weighted"


class GradingMethod(StrEnum):
    """Which of a user's finished attempts on a paper counts."""

    best = "best"
    last = "last"


class ReviewOption(StrEnum):
    score = "score"  # the total only
    sections = "sections"  # the total and the score by section
    full = "full"  # and every answer with its key
    none = "none"  # "your answers were sent to the team"


def review_option(hiring: bool, review: str | None) -> ReviewOption:
    """What a candidate sees at the end (and in practice feedback) on a paper: its `review` setting,
    else `score` for a hiring paper (exam-only or invite-only) and `full` for any other."""
    if review:
        return ReviewOption(review)
    return ReviewOption.score if hiring else ReviewOption.full


# answer by kind: single "C"; multi "ABD"; truefalse bool; fill [[alt, ...], ...]; subjective text;
# numerical [[value, tolerance], ...] as decimal strings; matching [[left, right], ...]
Answer = bool | str | list[list[str]]


def fingerprint(paper_slug: str, section: int, number: int) -> str:
    """Stable identity of a question: where it stands, so re-importing a fixed text updates it."""
    raw = f"{paper_slug}|{section}|{number}".encode()
    return hashlib.sha1(raw).hexdigest()[:16]
