"""The ratings rebuilt from the record (`proctor ratings recompute`, and start-up on a database without
them): every answer that counts and has no event yet gets one, in the order the answers counted (an
upgraded database: all of them); every event takes how right its answer is now; then the rule is
folded over the events by sequence number. Beside ratings/, since it reads every source's answers
(exams, daily quizzes, live rounds), which call into ratings/ as they are answered."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from proctor.daily import rated as daily_rated
from proctor.exams import rated as exam_rated
from proctor.live import rated as live_rated
from proctor.ratings import events, rule
from proctor.storage.db import Database

SOURCES = (exam_rated.EXAM, exam_rated.PRACTICE, exam_rated.REVIEW, daily_rated.PRIVATE, daily_rated.GROUP,
           live_rated.LIVE)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    added: int  # answers that had no event (an upgraded database: every one that counts)
    regraded: int  # events whose answer's score had changed
    events: int
    people: int
    questions: int


def backfill_in(conn: sqlite3.Connection) -> int:
    """An event for every answer that counts and has none, in the order they counted; returns how many."""
    union = " UNION ALL ".join(f"SELECT '{c.source}' AS source, counting.* FROM ({c.sql}) counting" for c in SOURCES)
    return conn.execute(
        "INSERT INTO rating_events (user_id, question_id, correct, at, source, ref_id, ref_pos) "
        f"SELECT user_id, question_id, correct, at, source, ref_id, ref_pos FROM ({union}) every_source "
        f"WHERE true ORDER BY {events.ORDER}, source ON CONFLICT (user_id, question_id) DO NOTHING").rowcount


def recompute_in(conn: sqlite3.Connection, now: float) -> Rebuilt:
    """Rebuild the ratings from the record in one transaction, and note the rule they follow."""
    added = backfill_in(conn)
    regraded = events.resync_in(conn)
    folded = events.refold_in(conn)
    conn.execute("DELETE FROM rating_builds")
    conn.execute("INSERT INTO rating_builds (rule, built_at) VALUES (?, ?)", (rule.RULE, now))
    n = conn.execute("SELECT COUNT(*) FROM rating_events").fetchone()[0]
    return Rebuilt(added, regraded, n, len(folded.people), len(folded.questions))


async def recompute(db: Database, now: float) -> Rebuilt:
    """`recompute_in` in its own transaction."""
    return await db.run_write(lambda conn: recompute_in(conn, now))


async def ensure_built(db: Database, now: float) -> Rebuilt | None:
    """At start-up: rebuild the ratings if the database has none (an upgrade) or they follow another
    rule; None when they are current."""
    if await db.scalar("SELECT 1 FROM rating_builds WHERE rule=?", (rule.RULE,)):
        return None
    return await recompute(db, now)
