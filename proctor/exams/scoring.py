"""How an exam answer is scored: one formula for answering, counting a draft at the hand-in and a
regrade, so a regrade with an unchanged key gives back exactly the stored score."""

from __future__ import annotations

from bank.grading.result import Grade


def item_score(g: Grade, points: float) -> float:
    """The answer's score on a sheet item worth `points` (a paper may weigh a question differently
    from the bank): the grade's share of them, to 2 decimals."""
    return round(g.score / g.max_score * points, 2) if g.max_score else 0.0
