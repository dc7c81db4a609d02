"""Questions read on the database thread, for the answer path (exams and daily quizzes alike).

A question is read on every step; building it (JSON fields, pydantic validation) is most of a
step's own CPU. Keyed by the whole row, so an edited question (a key fix, a retirement) is a new
entry; the answer path never changes a Question it is handed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from functools import lru_cache

from bank.models import Question
from bank.question_rows import QUESTION_SELECT, question_from_row

_question = lru_cache(maxsize=2048)(question_from_row)


def questions_in(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, Question]:
    """The questions with these ids (those that exist), built once per stored row."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = conn.execute(f"{QUESTION_SELECT} WHERE q.id IN ({','.join('?' * len(wanted))})", wanted).fetchall()
    return {r["id"]: _question(r) for r in rows}
