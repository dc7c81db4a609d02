"""How an exam answer is scored and an attempt totalled: one formula each. The answer's for answering,
counting a draft at the hand-in and a regrade (an unchanged key gives back exactly the stored score);
the total's for the hand-in, a reviewer's final score and a regrade."""

from __future__ import annotations

from bank.grading.result import Grade


def item_score(g: Grade, points: float) -> float:
    """The answer's score on a sheet item worth `points` (a paper may weigh a question differently
    from the bank): the grade's share of them, to 2 decimals."""
    return round(g.score / g.max_score * points, 2) if g.max_score else 0.0


# An attempt's score: its answers' scores summed, to 2 decimals. A scalar subquery taking the attempt
# id as its one parameter: `UPDATE attempts SET score={ATTEMPT_TOTAL} WHERE id=?`.
ATTEMPT_TOTAL = "(SELECT ROUND(CAST(COALESCE(SUM(score), 0) AS NUMERIC), 2) FROM answers WHERE attempt_id=?)"
