"""Which exam and practice answers count for ratings, and when (docs/ratings.md): an exam's final
answers at its hand-in (nothing moves while it runs: a rating that moved would tell the candidate
whether they were right), a practice answer at once, a written answer at its review. An invited
(hiring) attempt never counts: a candidate's answers move no question."""

from __future__ import annotations

import sqlite3

from proctor.exams.model import Attempt
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.ratings.events import Counting, Source, correct_sql, count_in

_ANSWERS = (f"SELECT t.user_id, x.question_id, {correct_sql('x')} AS correct, {{at}} AS at, x.attempt_id AS ref_id, "
            "x.pos AS ref_pos FROM answers x JOIN attempts t ON t.id = x.attempt_id WHERE t.invite_id IS NULL "
            "AND x.final = 1 AND ")

EXAM = Counting(Source.exam, _ANSWERS.format(at="t.finished_at") + (
    f"x.reviewed_by IS NULL AND t.mode = '{AttemptMode.exam}' AND t.status = '{AttemptStatus.finished}'"))
# a practice answer changed after its first counts as first given; one changed before ratings were
# kept (an upgraded database) counts as it stands, the first being gone
PRACTICE = Counting(Source.practice, _ANSWERS.format(at="x.answered_at") + (
    f"x.reviewed_by IS NULL AND t.mode = '{AttemptMode.practice}'"))
REVIEW = Counting(Source.review, _ANSWERS.format(at="x.reviewed_at") + "x.reviewed_by IS NOT NULL")


def handed_in_in(conn: sqlite3.Connection, attempt_id: int) -> None:
    """At a hand-in, inside its transaction: an exam's final answers count; a practice's counted as they
    were given, but for ticks never submitted, which the hand-in counts as answers."""
    count_in(conn, EXAM, "x.attempt_id = ?", (attempt_id,))
    count_in(conn, PRACTICE, "x.attempt_id = ?", (attempt_id,))


def practised_in(conn: sqlite3.Connection, attempt: Attempt, pos: int) -> None:
    """A practice answer just stored, inside its step's transaction: it counts if it is the person's first
    to the question (an exam's answers wait for the hand-in)."""
    if attempt.mode == AttemptMode.practice:
        count_in(conn, PRACTICE, "x.attempt_id = ? AND x.pos = ?", (attempt.id, pos))


def reviewed_in(conn: sqlite3.Connection, attempt_id: int, pos: int) -> None:
    """A written answer just given its final score, inside the review's transaction: it counts now."""
    count_in(conn, REVIEW, "x.attempt_id = ? AND x.pos = ?", (attempt_id, pos))
