"""Who is listed by name on their groups' rating boards: only those who chose it (/rating public), until
they take it back (/rating private). Everyone else sees their own place privately (docs/ratings.md)."""

from __future__ import annotations

import sqlite3

from proctor.storage.db import Database

LISTED = "SELECT user_id FROM rating_listed"  # SQL: the user ids listed by name


async def set_listed(db: Database, user_id: int, listed: bool, now: float) -> bool:
    """Record the person's choice; returns whether it changed anything."""

    def transaction(conn: sqlite3.Connection) -> bool:
        if listed:
            return conn.execute("INSERT INTO rating_listed (user_id, since) VALUES (?, ?) ON CONFLICT DO NOTHING",
                                (user_id, now)).rowcount > 0
        return conn.execute("DELETE FROM rating_listed WHERE user_id = ?", (user_id,)).rowcount > 0

    return await db.run_write(transaction)


async def is_listed(db: Database, user_id: int) -> bool:
    """Whether the person chose to be listed by name."""
    return bool(await db.scalar("SELECT 1 FROM rating_listed WHERE user_id = ?", (user_id,)))
