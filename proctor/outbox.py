"""Messages that must be delivered: kept in SQLite until sent, or until found undeliverable.

A row says what to send (its `Kind`, which the bot knows how to render, and the data it needs), to
whom, how often it was tried and when to try next. Only pending rows change state, and only through
the named transitions below; a transient failure pushes `next_try` back with exponential backoff.
A row of a kind this code does not know (another version wrote it) is never read as a message:
`set_aside_unknown` marks it undeliverable.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bank.store import ids_in
from proctor.storage.db import Database

FIRST_RETRY = 5.0  # seconds after the first failure
MAX_RETRY = 30 * 60.0  # backoff stops growing here; a pending message is tried until it goes



class Kind(StrEnum):
    """What a message is: the bot has one sender per kind. The values are what `outbox.kind` stores."""

    result = "result"  # the candidate's result card; ref: the attempt id (proctor/exams/service.py)
    # an invited attempt's card, which takes the exam message's place (an edit, not one of Telegram's
    # 30 messages a second: a hiring round's deadline minute hands in a thousand); ref: the attempt id
    result_in_place = "result_in_place"
    # the inviting lead's card (proctor/invites/attempts.py); ref: the attempt id (a regrade's: with the question)
    lead_card = "invite_result"
    team_note = "invite_note"  # the team group's one-line note on an invite (proctor/invites/attempts.py); ref: the attempt id
    review_notice = "review"  # the candidate's "your answer was reviewed" (proctor/teams/review.py)
    # "a question you answered was regraded" (proctor/teams/question_edit.py, proctor/exams/held.py)
    key_fix_notice = "key_fix"


class Delivery(StrEnum):
    pending = "pending"
    delivered = "delivered"
    undeliverable = "undeliverable"


@dataclass(frozen=True, slots=True)
class Outgoing:
    id: int
    kind: Kind
    ref: str
    chat_id: int
    user_id: int | None
    payload: dict[str, Any]  # what the kind's renderer needs, as JSON gave it back
    tries: int


def backoff(tries: int, retry_after: float | None = None) -> float:
    """Seconds to wait after the `tries`-th failure: doubling from FIRST_RETRY up to MAX_RETRY, and
    never sooner than the server asked (retry_after)."""
    wait: float = min(MAX_RETRY, FIRST_RETRY * 2 ** max(0, tries - 1))
    return max(wait, retry_after or 0.0)


_ENQUEUE = ("INSERT INTO outbox (kind, ref, chat_id, user_id, payload, next_try, created_at, held_by) "
            "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(kind, ref) DO NOTHING")


def _row(kind: Kind, ref: str, chat_id: int, user_id: int | None, payload: dict[str, Any] | None,
         now: float, held_by: int | None = None) -> tuple[object, ...]:
    return kind, ref, chat_id, user_id, json.dumps(payload or {}, ensure_ascii=False), now, now, held_by


def enqueue_in(conn: sqlite3.Connection, *, kind: Kind, ref: str, chat_id: int, now: float,
               user_id: int | None = None, payload: dict[str, Any] | None = None, held_by: int | None = None) -> None:
    """Add a message inside the caller's write transaction (once per kind and ref), due now; or, with
    `held_by` (a running attempt's id), due once that attempt is handed in (`release_on`)."""
    conn.execute(_ENQUEUE, _row(kind, ref, chat_id, user_id, payload, now, held_by))


def release_on(conn: sqlite3.Connection, attempt_id: int, now: float) -> int:
    """The messages held for this attempt's hand-in are due now; call inside the transaction that
    closes it. Returns how many."""
    return conn.execute("UPDATE outbox SET held_by=NULL, next_try=? WHERE held_by=?", (now, attempt_id)).rowcount


_KNOWN = ", ".join(f"'{kind}'" for kind in Kind)  # SQL: the kinds this code reads (set_aside_unknown: the others)
_PENDING = f"state='{Delivery.pending}' AND held_by IS NULL AND kind IN ({_KNOWN})"
_SELECT = f"SELECT id, kind, ref, chat_id, user_id, payload, tries FROM outbox WHERE {_PENDING} AND next_try<=?"


def _outgoing(r: sqlite3.Row) -> Outgoing:
    return Outgoing(r["id"], Kind(r["kind"]), r["ref"], r["chat_id"], r["user_id"], json.loads(r["payload"]),
                    r["tries"])


@dataclass(frozen=True, slots=True)
class Unknown:
    """A pending row of a kind this code does not know (`set_aside_unknown`)."""

    id: int
    kind: str
    chat_id: int


async def set_aside_unknown(db: Database, now: float) -> list[Unknown]:
    """Mark every pending message of a kind this code does not know undeliverable (no sender could
    render it; the reads above never return it). Returns them, for the log."""

    def transaction(conn: sqlite3.Connection) -> list[Unknown]:
        rows = conn.execute(
            f"UPDATE outbox SET state='{Delivery.undeliverable}', done_at=?, last_error='unknown kind: ' || kind "
            f"WHERE state='{Delivery.pending}' AND kind NOT IN ({_KNOWN}) RETURNING id, kind, chat_id", (now,))
        return [Unknown(*row) for row in rows.fetchall()]

    return await db.run_write(transaction)


async def next_try(db: Database, *, after: float | None = None) -> float | None:
    """When the earliest pending message is due (of those due later than `after`, if given); None
    if nothing is pending (or all are held)."""
    at: float | None = await db.scalar(
        f"SELECT MIN(next_try) FROM outbox WHERE {_PENDING} AND next_try>?",
        (-math.inf if after is None else after,))
    return at


async def due_heads(db: Database, now: float, *, skip: Collection[int] = (), limit: int = 200) -> list[Outgoing]:
    """The oldest due message of each chat not in `skip` (chats whose messages are being sent), the
    chats ordered by that message's due time; at most `limit` rows are looked at."""
    rows = await db.fetchall(
        f"{_SELECT} AND chat_id NOT IN ({ids_in(db.engine)}) ORDER BY next_try, id LIMIT ?",
        (now, json.dumps(list(skip)), limit))
    heads: dict[int, Outgoing] = {}
    for row in rows:
        heads.setdefault(row["chat_id"], _outgoing(row))
    return list(heads.values())


async def next_for(db: Database, chat_id: int, now: float) -> Outgoing | None:
    """The oldest due message to `chat_id`: what goes to that chat next."""
    row = await db.fetchone(f"{_SELECT} AND chat_id=? ORDER BY next_try, id LIMIT 1", (now, chat_id))
    return None if row is None else _outgoing(row)


async def mark_delivered(db: Database, message_id: int, now: float) -> None:

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE outbox SET state=?, tries=tries+1, done_at=?, last_error=NULL "
                     f"WHERE id=? AND state='{Delivery.pending}'", (Delivery.delivered, now, message_id))

    await db.run_write(transaction)


async def mark_undeliverable(db: Database, message_id: int, now: float, error: str) -> None:
    """A permanent refusal (blocked, chat not found): never tried again."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE outbox SET state=?, tries=tries+1, done_at=?, last_error=? "
                     f"WHERE id=? AND state='{Delivery.pending}'", (Delivery.undeliverable, now, error[:500], message_id))

    await db.run_write(transaction)


async def retry_later(db: Database, message_id: int, now: float, error: str,
                      retry_after: float | None = None) -> float:
    """A transient failure: count it and push the next try back. Returns when it is due again."""

    def transaction(conn: sqlite3.Connection) -> float:
        cur = conn.execute(f"SELECT tries FROM outbox WHERE id=? AND state='{Delivery.pending}'", (message_id,))
        row = cur.fetchone()
        if row is None:
            return now
        tries = row[0] + 1
        at = now + backoff(tries, retry_after)
        conn.execute("UPDATE outbox SET tries=?, next_try=?, last_error=? WHERE id=?",
                     (tries, at, error[:500], message_id))
        return at

    return await db.run_write(transaction)


async def counts(db: Database) -> dict[Delivery, int]:
    """How many messages are in each state."""
    rows = await db.fetchall("SELECT state, COUNT(*) AS n FROM outbox GROUP BY state")
    found = {r["state"]: r["n"] for r in rows}
    return {state: found.get(state.value, 0) for state in Delivery}
