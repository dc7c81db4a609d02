"""Telegram delivers updates at least once: each (bot, update_id) is claimed once."""

from __future__ import annotations

from proctor.storage.db import Database

MEMORY_SECONDS = 7 * 24 * 3600  # Telegram keeps undelivered updates for 24 hours


async def claim(db: Database, bot_id: int, update_id: int, now: float) -> bool:
    """True the first time this bot sees this update id; False for a repeat."""
    async with db.write() as conn:
        cur = await conn.execute(
            "INSERT OR IGNORE INTO processed_updates (bot_id, update_id, at) VALUES (?, ?, ?)",
            (bot_id, update_id, now))
        return cur.rowcount == 1


async def forget_old(db: Database, now: float) -> None:
    """Keep the table small: a week is far longer than Telegram redelivers."""
    async with db.write() as conn:
        await conn.execute("DELETE FROM processed_updates WHERE at < ?", (now - MEMORY_SECONDS,))
