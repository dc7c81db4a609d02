"""/forgetme: delete everything the bot holds about one user, in one transaction."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bank.store import one_row
from proctor.ratings import events as ratings
from proctor.storage import updates
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Forgotten:
    attempts: int
    daily_answers: int
    disputes: int


async def forget_user(db: Database, user_id: int) -> Forgotten:
    """Delete the user, their attempts and answers, daily answers, memberships, review cards,
    disputes and their private chat's quiz; clear them as the subject of audit entries, and clear
    the stored bodies of unfinished updates they appear in.

    Entries a lead wrote as actor stay: they are the team's record of who changed what.
    Deleting the user row cascades to everything that references it.
    """

    def transaction(conn: sqlite3.Connection) -> Forgotten:
        counts = []
        for sql in ("SELECT COUNT(*) FROM attempts WHERE user_id=?",
                    "SELECT COUNT(*) FROM daily_answers WHERE user_id=?",
                    "SELECT COUNT(*) FROM disputes WHERE user_id=?"):
            cur = conn.execute(sql, (user_id,))
            counts.append(one_row(cur.fetchone())[0])
        ratings.forgotten_in(conn, user_id)  # before the cascade: the ratings are folded again without them
        # answers reference attempt_items, which cascade from attempts, which cascade from users
        conn.execute("DELETE FROM users WHERE id=?", (user_id,))
        # the private chat (id == user id) and its own daily quiz
        conn.execute("DELETE FROM chats WHERE id=? AND type='private'", (user_id,))
        conn.execute("UPDATE audit_log SET target_user=NULL WHERE target_user=?", (user_id,))
        conn.execute("DELETE FROM authoring_sessions WHERE user_id=?", (user_id,))  # an unfinished /editq
        # a lead's unsaved /newquestion draft and uploads waiting for Import (no foreign key to users)
        conn.execute("DELETE FROM question_drafts WHERE user_id=?", (user_id,))
        conn.execute("DELETE FROM pending_uploads WHERE user_id=?", (user_id,))
        updates.forget_bodies_in(conn, user_id)
        return Forgotten(*counts)

    return await db.run_write(transaction)
