"""What grading an answer yields."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Verdict(StrEnum):
    correct = "correct"
    partial = "partial"
    wrong = "wrong"
    needs_review = "needs_review"  # subjective: the score is provisional until a person marks it


@dataclass(frozen=True, slots=True)
class Grade:
    """One answer's grade, a value the domain reads: a frozen dataclass, not a pydantic model, since it is
    never validated, stored whole or sent."""

    score: float
    max_score: float
    verdict: Verdict
    expected: str  # the answer to show the candidate, human readable
    detail: str = ""


def scaled(fraction: float, points: float, expected: str, detail: str = "") -> Grade:
    """An objective grade worth `fraction` (0..1) of `points`; the verdict follows the fraction."""
    fraction = min(1.0, max(0.0, fraction))
    if fraction >= 1.0:
        verdict = Verdict.correct
    elif fraction <= 0.0:
        verdict = Verdict.wrong
    else:
        verdict = Verdict.partial
    score = points if fraction >= 1.0 else min(points, round(points * fraction, 4))
    return Grade(score=score, max_score=points, verdict=verdict, expected=expected, detail=detail)
