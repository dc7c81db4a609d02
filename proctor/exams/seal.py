"""Sealed keys: while a candidate's exam runs, no key or explanation of its questions reaches them.

A paper exam seals the whole paper: every question of it (also any left out of the attempt), so
nothing of that paper's keys is shown anywhere. A random mock paper (`/exam random`) draws a few
questions from every practice paper; it seals exactly the questions on its sheet, not all of their
source papers: sealing those would seal nearly the whole bank (no daily quiz, a blind lead), while
the key of a question that is not on the sheet tells the candidate nothing about the exam.

Practice attempts seal nothing: practice shows its own keys after each answer anyway.
Every place that can show a key or an explanation to a user asks the read rule (proctor/exams/visibility.py),
which reads the seal.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Seal:
    questions: frozenset[int] = frozenset()  # question ids whose key must not be shown
    papers: frozenset[int] = frozenset()  # papers any sealed question belongs to

    def __bool__(self) -> bool:
        return bool(self.questions)

    def covers(self, question_id: int | None) -> bool:
        return question_id in self.questions

    def touches_paper(self, paper_id: int | None) -> bool:
        return paper_id in self.papers


NOTHING = Seal()

# running exams -> the questions they seal: the sheet's own, and every question of a paper exam's paper
_SEALED = f"""
    WITH running AS (SELECT id, paper_id FROM attempts
                     WHERE status = '{AttemptStatus.running}' AND mode = '{AttemptMode.exam}' {{who}})
    SELECT q.id, q.paper_id FROM running r JOIN attempt_items i ON i.attempt_id = r.id
         JOIN questions q ON q.id = i.question_id
    UNION SELECT q.id, q.paper_id FROM running r JOIN questions q ON q.paper_id = r.paper_id"""


# the questions sealed for the user :user; for any known member of the group :chat (its recorded
# members and its roster, whatever their standing): rows of (id, paper_id), to embed in a statement
SEALED_FOR_USER = _SEALED.format(who="AND user_id = :user")
SEALED_FOR_GROUP = _SEALED.format(
    who="AND user_id IN (SELECT user_id FROM chat_members WHERE chat_id = :chat "
        "UNION SELECT user_id FROM team_roster WHERE chat_id = :chat)")


async def sealed_for(db: Database, user_id: int) -> Seal:
    """The questions whose keys are sealed for this user now: those of their running exam."""
    return _seal(await db.fetchall(SEALED_FOR_USER, {"user": user_id}))


def sealed_in(conn: sqlite3.Connection, user_id: int) -> Seal:
    """`sealed_for` on the database thread (a plain sqlite3 connection), inside a batched step."""
    return _seal(conn.execute(SEALED_FOR_USER, {"user": user_id}).fetchall())


def sealed_for_group_in(conn: sqlite3.Connection, chat_id: int) -> Seal:
    """The questions sealed for anyone the group is known to hold (who wrote or answered there, and
    its roster): what a message the whole group reads must not show."""
    return _seal(conn.execute(SEALED_FOR_GROUP, {"chat": chat_id}).fetchall())


async def sealed_anywhere(db: Database) -> Seal:
    """The questions sealed for someone: what a message everyone in a group reads must not show."""
    return _seal(await db.fetchall(_SEALED.format(who="")))


# the running exams that seal one question (the same rule as _SEALED, seen from the question)
_SEALING = f"""
    SELECT r.user_id, r.id FROM attempts r
    WHERE r.status = '{AttemptStatus.running}' AND r.mode = '{AttemptMode.exam}'
      AND (r.paper_id = (SELECT paper_id FROM questions WHERE id = :q)
           OR EXISTS (SELECT 1 FROM attempt_items i WHERE i.attempt_id = r.id AND i.question_id = :q))"""


def sealing_in(conn: sqlite3.Connection, question_id: int) -> dict[int, int]:
    """Whose running exam seals the question now: user id -> their running attempt's id. Call inside
    the write transaction that changes the question's key (a fix waits for these hand-ins)."""
    cur = conn.execute(_SEALING, {"q": question_id})
    return {r[0]: r[1] for r in cur.fetchall()}


def _seal(rows: Sequence[sqlite3.Row]) -> Seal:
    if not rows:
        return NOTHING
    return Seal(frozenset(r[0] for r in rows), frozenset(r[1] for r in rows))
