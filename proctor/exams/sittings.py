"""A candidate's exam sittings of a paper against its limit: the one count /exam's rules card, the
start of an attempt and an invite's link all read (a hiring paper's /exam and invited sittings share it)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from proctor import hiring
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Sittings:
    """A candidate's exam sittings of a paper that count toward its limit."""

    used: int
    allowed: int | None  # None: no limit
    hiring: bool  # a hiring paper: its /exam and invited sittings share the one count

    @property
    def left(self) -> int | None:
        """How many more sittings the limit allows (None: no limit)."""
        return None if self.allowed is None else max(0, self.allowed - self.used)


_SITTINGS = f"SELECT COUNT(*) FROM attempts WHERE user_id=? AND paper_id=? AND mode='{AttemptMode.exam}'"
_ENDED = f" AND status IN ('{AttemptStatus.finished}', '{AttemptStatus.cancelled}')"


def sittings_in(conn: sqlite3.Connection, user_id: int, paper_id: int) -> Sittings:
    """The user's sittings of the paper against its limit. A hiring paper counts every exam sitting,
    through /exam and through invites, running, finished or cancelled, against its own limit, one when it
    sets none (each sitting's score says something about its keys); another paper counts finished and
    cancelled exams (the paper was seen) against its limit, if it sets one."""
    paper = hiring.hiring_paper_in(conn, paper_id)
    if paper is not None:
        return Sittings(conn.execute(_SITTINGS, (user_id, paper_id)).fetchone()[0], paper.cap, True)
    row = conn.execute(f"SELECT attempts_allowed, ({_SITTINGS}{_ENDED}) FROM papers WHERE id=?",
                       (user_id, paper_id, paper_id)).fetchone()
    return Sittings(0 if row is None else row[1], None if row is None else row[0], False)


async def sittings(db: Database, user_id: int, paper_id: int) -> Sittings:
    """`sittings_in` in one read: what a paper's rules card says of the attempts left."""
    return await db.run(lambda conn: sittings_in(conn, user_id, paper_id))
