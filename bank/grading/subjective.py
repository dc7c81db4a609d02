"""Short, discussion and case answers: a provisional score from key-term coverage, for review."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bank.grading.result import Grade, Verdict
from bank.grading.terms import flat, key_terms
from bank.models import Question

# Candidates rarely reuse every term of a long reference answer, so covering FULL_COVERAGE of
# them earns the full provisional score; below that the score grows linearly with coverage.
FULL_COVERAGE = 0.7


def provisional_score(coverage: float, points: float) -> float:
    """points × min(1, coverage / FULL_COVERAGE), rounded down to a half point."""
    raw = points * min(1.0, coverage / FULL_COVERAGE)
    return min(points, math.floor(raw * 2 + 1e-9) / 2)


def term_coverage(terms: Sequence[str], response: str) -> tuple[list[str], list[str]]:
    """(found, missing): which of the stored key terms `response` covers, as the provisional score
    counts them (folded, spaces and punctuation removed)."""
    flat_typed = flat(response)
    found = [t for t in terms if t in flat_typed]
    return found, [t for t in terms if t not in flat_typed]


def grade_subjective(question: Question, response: object) -> Grade:
    """Provisional grade; always needs_review, except that an empty answer is simply wrong.

    Uses the key terms stored with the question; only a question that has none stored (built in
    code, not read from the bank) segments its reference here.
    """
    reference = question.answer if isinstance(question.answer, str) else ""
    typed = response if isinstance(response, str) else ""
    flat_typed = flat(typed)
    if not flat_typed:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.wrong,
                     expected=reference, detail="no answer")
    terms: Sequence[str]
    if question.key_terms is not None:
        terms = question.key_terms
    else:
        terms = key_terms(reference) if reference.strip() else ()
    if not terms:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                     expected=reference, detail="no reference answer to compare with")
    covered = len(term_coverage(terms, typed)[0])
    score = provisional_score(covered / len(terms), question.points)
    return Grade(score=score, max_score=question.points, verdict=Verdict.needs_review,
                 expected=reference, detail=f"provisional: {covered}/{len(terms)} key terms")
