"""Telegram delivers updates at least once: each (bot, update_id) is handled to the end once.

An update is *claimed* before its handler runs (so a duplicate delivered meanwhile is dropped) and
marked *done* after it returns. A claim whose process stopped in between (a crash, a kill) is not a
duplicate: when Telegram delivers the update again, the new run claims it and handles it. The
effects are idempotent (answers keyed by attempt and position, one attempt per start...), so an
update whose effect was committed just before the crash still counts once.

The bot claims in a round trip of its own before any handler runs (bot/core.py
`ProctorApplication.process_update`: `claim_reading` also reads the user's record, which every
handler needs first), and marks the update done in another after they return (`done`). A kill
before the mark leaves the update claimed, so a delivery again is handled again, and still counts once.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

from proctor.storage.db import Database

T = TypeVar("T")

MEMORY_SECONDS = 7 * 24 * 3600  # Telegram keeps undelivered updates for 24 hours


class UpdateState(StrEnum):
    """`processed_updates.state`: a handler is running (or its run stopped), or it returned."""

    claimed = "claimed"
    done = "done"


_CLAIM = f"""INSERT INTO processed_updates (bot_id, update_id, at, state, run) VALUES (?, ?, ?, '{UpdateState.claimed}', ?)
               ON CONFLICT (bot_id, update_id) DO UPDATE SET run = excluded.run, at = excluded.at
               WHERE processed_updates.state = '{UpdateState.claimed}' AND processed_updates.run IS NOT excluded.run"""
_DONE = f"UPDATE processed_updates SET state = '{UpdateState.done}' WHERE bot_id = ? AND run IS ? AND update_id = ?"


def new_run() -> str:
    """A token naming this process's run: its claims are in flight, older runs' claims were cut off."""
    return secrets.token_hex(8)


def _claim_in(conn: sqlite3.Connection, bot_id: int, update_id: int, now: float, run: str) -> bool:
    return conn.execute(_CLAIM, (bot_id, update_id, now, run)).rowcount == 1


async def claim_reading(db: Database, bot_id: int, update_id: int, now: float, run: str,
                        read: Callable[[sqlite3.Connection], T]) -> tuple[bool, T | None]:
    """Claim in one transaction of its own, and `read(conn)` after the claim (what every handler
    needs first: the user's record, written on first sight): (True, what `read` gave) for a claimed
    update, (False, None) for a repeat (nothing is read or written then). Claimed: the first
    delivery, or a delivery again of one a previous run claimed and never finished; a repeat: one
    that was handled, or is being handled by this run."""
    def both(conn: sqlite3.Connection) -> tuple[bool, T | None]:
        if not _claim_in(conn, bot_id, update_id, now, run):
            return False, None
        return True, read(conn)

    return await db.run_write(both)


async def done(db: Database, bot_id: int, update_id: int, run: str = "") -> None:
    """The handlers of an update this run claimed have returned (whatever they did): one trip."""
    await db.run_write(lambda conn: conn.execute(_DONE, (bot_id, run, update_id)))


async def is_done(db: Database, bot_id: int, update_id: int) -> bool:
    row = await db.fetchone("SELECT state FROM processed_updates WHERE bot_id = ? AND update_id = ?",
                            (bot_id, update_id))
    return row is not None and row[0] == UpdateState.done


async def next_update_id(db: Database) -> int:
    """Above every update id this database has seen (Telegram's ids keep growing)."""
    return int(await db.scalar("SELECT COALESCE(MAX(update_id), 0) FROM processed_updates")) + 1


async def forget_old(db: Database, now: float) -> None:
    """Keep the table small: a week is far longer than Telegram redelivers."""
    await db.run_write(lambda conn: conn.execute("DELETE FROM processed_updates WHERE at < ?", (now - MEMORY_SECONDS,)))
