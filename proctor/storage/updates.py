"""Telegram delivers updates at least once: each (bot, update_id) is handled to the end once.

An update is *claimed* before its handler runs (so a duplicate delivered meanwhile is dropped) and
marked *done* after it returns. A claim whose process stopped in between (a crash, a kill) is not a
duplicate: when Telegram delivers the update again, the new run claims it and handles it. The
effects are idempotent (answers keyed by attempt and position, one attempt per start...), so an
update whose effect was committed just before the crash still counts once.
"""

from __future__ import annotations

import secrets
import sqlite3
from enum import StrEnum

from proctor.storage.db import Database

MEMORY_SECONDS = 7 * 24 * 3600  # Telegram keeps undelivered updates for 24 hours


class UpdateState(StrEnum):
    """`processed_updates.state`: a handler is running (or its run stopped), or it returned."""

    claimed = "claimed"
    done = "done"


_CLAIM = f"""INSERT INTO processed_updates (bot_id, update_id, at, state, run) VALUES (?, ?, ?, '{UpdateState.claimed}', ?)
               ON CONFLICT (bot_id, update_id) DO UPDATE SET run = excluded.run, at = excluded.at
               WHERE processed_updates.state = '{UpdateState.claimed}' AND processed_updates.run IS NOT excluded.run"""
_DONE = f"UPDATE processed_updates SET state = '{UpdateState.done}' WHERE bot_id = ? AND update_id = ? AND run IS ?"


def new_run() -> str:
    """A token naming this process's run: its claims are in flight, older runs' claims were cut off."""
    return secrets.token_hex(8)


async def claim(db: Database, bot_id: int, update_id: int, now: float, run: str = "") -> bool:
    """True if this run should handle the update: the first delivery, or a delivery again of one a
    previous run claimed and never finished. False for a repeat that was handled (or is being
    handled by this run)."""
    def claim_in(conn: sqlite3.Connection) -> bool:  # one round trip: claims cost every update
        return conn.execute(_CLAIM, (bot_id, update_id, now, run)).rowcount == 1

    return await db.run_write(claim_in)


async def done(db: Database, bot_id: int, update_id: int, run: str = "") -> None:
    """The handler of an update this run claimed has returned (whatever it did)."""
    await db.run_write(lambda conn: conn.execute(_DONE, (bot_id, update_id, run)))


async def is_done(db: Database, bot_id: int, update_id: int) -> bool:
    row = await db.fetchone("SELECT state FROM processed_updates WHERE bot_id = ? AND update_id = ?",
                            (bot_id, update_id))
    return row is not None and row[0] == UpdateState.done


async def next_update_id(db: Database) -> int:
    """Above every update id this database has seen (Telegram's ids keep growing)."""
    return int(await db.scalar("SELECT COALESCE(MAX(update_id), 0) FROM processed_updates")) + 1


async def forget_old(db: Database, now: float) -> None:
    """Keep the table small: a week is far longer than Telegram redelivers."""
    async with db.write() as conn:
        await conn.execute("DELETE FROM processed_updates WHERE at < ?", (now - MEMORY_SECONDS,))
