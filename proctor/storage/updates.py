"""Telegram delivers updates at least once: each (bot, update_id) is handled to the end once.

An update is *claimed* before it is confirmed to Telegram (bot/intake.py: a batch of updates in one
transaction, before the next getUpdates or the webhook's 200) and marked *done* after its handlers
return. Its body is stored with its claim and cleared by the done mark: a claim whose process
stopped in between (a crash, a kill) is not a duplicate. The next run handles it from its stored
body at start-up (`unfinished`), or, for a claim without a body (written before bodies were
stored, or forgotten by /forgetme), when Telegram delivers it again. The effects are idempotent
(answers keyed by attempt and position, one attempt per start...), so an update whose effect was
committed just before the crash still counts once.

The claim also reads, for each claimed update, what its handlers need first (the user's record,
bot/userctx.py `seen_in`), in the same transaction; the done mark is a round trip of its own after
the handlers (bot/core.py `ProctorApplication`).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from bank.store import engine_of, json_holds_id
from proctor.storage.db import Database

T = TypeVar("T")

TELEGRAM_KEEPS = 24 * 3600  # seconds Telegram keeps an update it was not told was taken
MEMORY_SECONDS = 7 * TELEGRAM_KEEPS  # far longer than Telegram redelivers


class UpdateState(StrEnum):
    """`processed_updates.state`: a handler is running (or its run stopped), or it returned."""

    claimed = "claimed"
    done = "done"


_CLAIM = f"""INSERT INTO processed_updates (bot_id, update_id, at, state, run, body)
               VALUES (?, ?, ?, '{UpdateState.claimed}', ?, ?)
               ON CONFLICT (bot_id, update_id) DO UPDATE SET run = excluded.run, at = excluded.at, body = excluded.body
               WHERE processed_updates.state = '{UpdateState.claimed}' AND processed_updates.run IS DISTINCT FROM excluded.run"""
_DONE = (f"UPDATE processed_updates SET state = '{UpdateState.done}', body = NULL "
         "WHERE bot_id = ? AND run IS NOT DISTINCT FROM ? AND update_id = ?")


def new_run() -> str:
    """A token naming this process's run: its claims are in flight, older runs' claims were cut off."""
    return secrets.token_hex(8)


@dataclass(frozen=True, slots=True)
class Incoming(Generic[T]):
    """An update to claim: its id, its body (the update as JSON, kept until it is done) and what to
    read in the claim's transaction once it is claimed."""

    update_id: int
    body: str
    read: Callable[[sqlite3.Connection], T]


async def claim(db: Database, bot_id: int, batch: Sequence[Incoming[T]], now: float, run: str) -> dict[int, T]:
    """Claim a batch of updates in one transaction, each with its body, reading after each claim what
    its `read` reads: {update_id: what `read` gave} for the claimed ones, in the batch's order.
    Claimed: a first delivery, or a delivery again of one a previous run claimed and never finished.
    Left out (nothing read or written): a repeat, handled or being handled by this run (an id twice
    in a batch is claimed once)."""

    def transaction(conn: sqlite3.Connection) -> dict[int, T]:
        claimed: dict[int, T] = {}
        for incoming in batch:
            if conn.execute(_CLAIM, (bot_id, incoming.update_id, now, run, incoming.body)).rowcount == 1:
                claimed[incoming.update_id] = incoming.read(conn)
        return claimed

    return await db.run_write(transaction)


async def done(db: Database, bot_id: int, update_id: int, run: str = "") -> None:
    """The handlers of an update this run claimed have returned (whatever they did), or it was
    dropped unhandled (bot/ordering.py): one trip; its body is cleared."""
    await db.run_write(lambda conn: conn.execute(_DONE, (bot_id, run, update_id)))


async def unfinished(db: Database, bot_id: int, run: str, now: float) -> list[tuple[int, str]]:
    """(update_id, body) of the updates earlier runs claimed and never finished, with a body, in order:
    those claimed within the time Telegram would have kept them unconfirmed (older ones, say in a
    backup restored days later, are left claimed)."""
    rows = await db.fetchall(
        f"SELECT update_id, body FROM processed_updates WHERE bot_id = ? AND state = '{UpdateState.claimed}' "
        "AND run IS DISTINCT FROM ? AND body IS NOT NULL AND at >= ? ORDER BY update_id", (bot_id, run, now - TELEGRAM_KEEPS))
    return [(int(r[0]), str(r[1])) for r in rows]


def forget_bodies_in(conn: sqlite3.Connection, user_id: int) -> None:
    """/forgetme: the stored bodies of unfinished updates in which the user appears (as a sender, a
    voter, a private chat, the author of a message replied to) are cleared; their claims stay."""
    conn.execute(f"UPDATE processed_updates SET body = NULL WHERE state = '{UpdateState.claimed}' "
                 f"AND {json_holds_id(engine_of(conn), 'processed_updates.body')}", (user_id,))


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
