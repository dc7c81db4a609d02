"""Matching questions: each left item paired with one right item, scored per pair."""

from __future__ import annotations

from bank.grading.normalize import normalize_for_match
from bank.grading.result import Grade, Verdict, scaled
from bank.kinds import MultiPolicy
from bank.models import Question


def pairs_of(question: Question) -> list[tuple[str, str]]:
    """The (left, right) pairs to match; pairs with a blank left are distractors, not asked."""
    answer = question.answer if isinstance(question.answer, list) else []
    return [(p[0], p[1]) for p in answer if isinstance(p, list) and len(p) == 2 and str(p[0]).strip()]


def grade_matching(question: Question, response: object, policy: MultiPolicy = MultiPolicy.partial) -> Grade:
    """`response`: the right items chosen, in the order of the left items, or a {left: right} dict.

    all-or-nothing: every pair right or nothing; partial and weighted: the share of pairs right.
    """
    pairs = pairs_of(question)
    if not pairs:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                     expected=str(question.answer), detail="answer key unreadable")
    expected = "; ".join(f"{left} → {right}" for left, right in pairs)
    if isinstance(response, dict):
        chosen = [response.get(left) for left, _ in pairs]
    elif isinstance(response, list | tuple):
        chosen = list(response) + [None] * (len(pairs) - len(response))
    else:
        return scaled(0.0, question.points, expected, "answer not recognised")
    right = sum(1 for (_, r), c in zip(pairs, chosen, strict=False)
                if isinstance(c, str) and normalize_for_match(c) == normalize_for_match(r))
    if MultiPolicy(policy) == MultiPolicy.all_or_nothing:
        fraction = 1.0 if right == len(pairs) else 0.0
    else:
        fraction = right / len(pairs)
    return scaled(fraction, question.points, expected, f"{right}/{len(pairs)} pairs right")
