"""Telegram delivers updates at least once: each (bot, update_id) is handled to the end once.

An update is *claimed* before its handler runs (so a duplicate delivered meanwhile is dropped) and
marked *done* after it returns. A claim whose process stopped in between (a crash, a kill) is not a
duplicate: when Telegram delivers the update again, the new run claims it and handles it. The
effects are idempotent (answers keyed by attempt and position, one attempt per start...), so an
update whose effect was committed just before the crash still counts once.

The bot does not spend a round trip on either (bot/core.py): the claim is carried by the handler's
first round trip (`claim_carried`, run by `Database.carry` before the handler's own statements, or
on its own before the handler reads or talks to Telegram), and the done mark waits for the next
round trip anybody makes (`Database.later`), or for nothing to be in flight. A kill before the mark
is written leaves the update claimed, so a delivery again is handled again, and still counts once.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Collection
from enum import StrEnum
from typing import TypeVar

from proctor.storage.db import Database

T = TypeVar("T")

MEMORY_SECONDS = 7 * 24 * 3600  # Telegram keeps undelivered updates for 24 hours


class Repeated(Exception):
    """This update was handled before (or is being handled): its handler stops where it is."""


class UpdateState(StrEnum):
    """`processed_updates.state`: a handler is running (or its run stopped), or it returned."""

    claimed = "claimed"
    done = "done"


_CLAIM = f"""INSERT INTO processed_updates (bot_id, update_id, at, state, run) VALUES (?, ?, ?, '{UpdateState.claimed}', ?)
               ON CONFLICT (bot_id, update_id) DO UPDATE SET run = excluded.run, at = excluded.at
               WHERE processed_updates.state = '{UpdateState.claimed}' AND processed_updates.run IS NOT excluded.run"""
_DONE_MANY = f"UPDATE processed_updates SET state = '{UpdateState.done}' WHERE bot_id = ? AND run IS ? AND update_id IN"


def new_run() -> str:
    """A token naming this process's run: its claims are in flight, older runs' claims were cut off."""
    return secrets.token_hex(8)


def _claim_in(conn: sqlite3.Connection, bot_id: int, update_id: int, now: float, run: str) -> bool:
    return conn.execute(_CLAIM, (bot_id, update_id, now, run)).rowcount == 1


async def claim(db: Database, bot_id: int, update_id: int, now: float, run: str = "") -> bool:
    """True if this run should handle the update: the first delivery, or a delivery again of one a
    previous run claimed and never finished. False for a repeat that was handled (or is being
    handled by this run). `claim_reading` reading nothing: one home for the claim's round trip."""
    claimed, _ = await claim_reading(db, bot_id, update_id, now, run, lambda conn: None)
    return claimed


async def claim_reading(db: Database, bot_id: int, update_id: int, now: float, run: str,
                        read: Callable[[sqlite3.Connection], T]) -> tuple[bool, T | None]:
    """`claim_carried` in a round trip of its own: (True, what `read` gave) for a claimed update,
    (False, None) for a repeat."""
    def both(conn: sqlite3.Connection) -> tuple[bool, T | None]:
        try:
            return True, claim_carried(conn, bot_id, update_id, now, run, read)
        except Repeated:
            return False, None

    return await db.run_each(both)


def claim_carried(conn: sqlite3.Connection, bot_id: int, update_id: int, now: float, run: str,
                  read: Callable[[sqlite3.Connection], T]) -> T:
    """The claim a handler's first round trip carries (`Database.carry`), and `read(conn)` after it
    (what every handler needs first: the user's record, written on first sight). Raises Repeated
    for a repeat (nothing is read or written then)."""
    if not _claim_in(conn, bot_id, update_id, now, run):
        raise Repeated(update_id)
    return read(conn)


def done_later(db: Database, bot_id: int, pending: set[int], update_id: int, run: str) -> None:
    """Mark the update done in the next round trip anybody makes. `pending`: this run's updates
    waiting for their mark; the first trip to come marks all of them in one statement (the others
    find the set empty and write nothing)."""
    pending.add(update_id)
    db.later(lambda conn: _done_in(conn, bot_id, _drain(pending), run))


def _drain(pending: set[int]) -> list[int]:
    """Empty `pending` on the database thread while the event loop may add to it (set.pop is atomic):
    an id added meanwhile is taken here or by its own `later`."""
    ids = []
    while pending:
        ids.append(pending.pop())
    return ids


def _done_in(conn: sqlite3.Connection, bot_id: int, update_ids: Collection[int], run: str) -> None:
    """One statement for them all (in the transaction of the trip it rides on, or on its own)."""
    if update_ids:
        ids = list(update_ids)
        conn.execute(f"{_DONE_MANY} ({','.join('?' * len(ids))})", (bot_id, run, *ids))


async def done(db: Database, bot_id: int, update_id: int, run: str = "") -> None:
    """The handler of an update this run claimed has returned (whatever it did): marked now, in a
    round trip of its own (the bot uses `done_later`)."""
    await db.run_each(lambda conn: _done_in(conn, bot_id, [update_id], run))


async def is_done(db: Database, bot_id: int, update_id: int) -> bool:
    row = await db.fetchone("SELECT state FROM processed_updates WHERE bot_id = ? AND update_id = ?",
                            (bot_id, update_id))
    return row is not None and row[0] == UpdateState.done


async def unfinished(db: Database, bot_id: int) -> list[int]:
    """The bot's updates claimed and not done: being handled now, or cut off with their run."""
    rows = await db.fetchall(f"SELECT update_id FROM processed_updates WHERE bot_id = ? AND state = "
                             f"'{UpdateState.claimed}' ORDER BY update_id", (bot_id,))
    return [int(r[0]) for r in rows]


async def next_update_id(db: Database) -> int:
    """Above every update id this database has seen (Telegram's ids keep growing)."""
    return int(await db.scalar("SELECT COALESCE(MAX(update_id), 0) FROM processed_updates")) + 1


async def forget_old(db: Database, now: float) -> None:
    """Keep the table small: a week is far longer than Telegram redelivers."""
    async with db.write() as conn:
        await conn.execute("DELETE FROM processed_updates WHERE at < ?", (now - MEMORY_SECONDS,))
