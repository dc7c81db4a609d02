"""Deliveries: one per (chat, day), created once, resumed after a crash, closed once.

A delivery's items are fixed when it is created. Each item's send is counted before its message
is sent and its message_id written right after, so a push that stopped halfway sends only the
items still without one. Telegram has no idempotency key: a crash between Telegram accepting a
message and the id being written leaves a copy in the chat that the bot cannot see; the item is
sent again (never lost) and, having more than one attempt, accepts the buttons of either copy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bank.errors import NotFound
from proctor.daily import rated, states
from proctor.daily.states import UNFINISHED, DeliveryStatus, Move
from proctor.errors import ProctorError
from proctor.storage.db import Database

_OPEN_SQL = states.in_sql(UNFINISHED)  # the stored statuses of a quiz that accepts answers
# a quiz start-up must pick up: open, or closed to answers with its keys not yet posted
_UNFINISHED_SQL = (f"(d.status IN ({_OPEN_SQL}) OR "
                   f"(d.status='{states.stored(DeliveryStatus.keys_pending)}' AND d.closed_at IS NULL))")


class EmptyBank(ProctorError):
    """No question may be asked in daily practice: the bank is empty or all of it is exam-only."""


@dataclass(frozen=True, slots=True)
class Delivery:
    id: int
    chat_id: int
    chat_type: str
    day: str  # local date, 'YYYY-MM-DD'
    status: DeliveryStatus  # as stored ('closed' also while its keys are pending); `state` is the named state
    created_at: float
    closes_at: float
    closed_at: float | None

    @property
    def private(self) -> bool:
        return self.chat_type == "private"

    @property
    def state(self) -> DeliveryStatus:
        return states.effective(self.status, self.closed_at)

    @property
    def accepts_answers(self) -> bool:
        return states.accepts_answers(self.state)


@dataclass(frozen=True, slots=True)
class Item:
    delivery_id: int
    pos: int
    question_id: int
    option_order: str
    message_id: int | None
    sent_at: float | None
    send_attempts: int = 0

    @property
    def maybe_duplicated(self) -> bool:
        """A send of it may have reached the chat unrecorded: more than one copy may be there."""
        return self.send_attempts > 1 or (self.send_attempts == 1 and self.message_id is None)


_SELECT = "SELECT d.*, c.type AS chat_type FROM daily_deliveries d JOIN chats c ON c.id = d.chat_id"


def _delivery(row: sqlite3.Row) -> Delivery:
    return Delivery(row["id"], row["chat_id"], row["chat_type"], row["day"], DeliveryStatus(row["status"]),
                    row["created_at"], row["closes_at"], row["closed_at"])


def _item(row: sqlite3.Row) -> Item:
    return Item(row["delivery_id"], row["pos"], row["question_id"], row["option_order"],
                row["message_id"], row["sent_at"], row["send_attempts"])


async def find_delivery(db: Database, chat_id: int, day: date | str) -> Delivery | None:
    day = day.isoformat() if isinstance(day, date) else day
    row = await db.fetchone(f"{_SELECT} WHERE d.chat_id=? AND d.day=?", (chat_id, day))
    return _delivery(row) if row else None


def waiting_item_in(conn: sqlite3.Connection, chat_id: int, user_id: int) -> tuple[Delivery, Item] | None:
    """The private question sent and not yet answered, in the newest open quiz of this chat."""
    row = conn.execute(
        f"""SELECT i.* FROM daily_items i JOIN daily_deliveries d ON d.id = i.delivery_id
           WHERE d.chat_id=? AND d.status IN ({_OPEN_SQL}) AND i.message_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM daily_answers a WHERE a.delivery_id=i.delivery_id
                             AND a.pos=i.pos AND a.user_id=?)
           ORDER BY d.day DESC, i.pos LIMIT 1""", (chat_id, user_id)).fetchone()
    if row is None:
        return None
    return _delivery(conn.execute(f"{_SELECT} WHERE d.id=?", (row["delivery_id"],)).fetchone()), _item(row)


async def get_delivery(db: Database, delivery_id: int) -> Delivery:
    """Raises NotFound."""
    row = await db.fetchone(f"{_SELECT} WHERE d.id=?", (delivery_id,))
    if row is None:
        raise NotFound(f"no delivery {delivery_id}")
    return _delivery(row)


async def create_delivery(db: Database, chat_id: int, day: date, question_ids: Sequence[int],
                          orders: Sequence[str], closes_at: float, now: float) -> tuple[Delivery, bool]:
    """The chat's delivery for `day`, created with these items unless it exists: (delivery, created).

    Idempotent: a second call for the same (chat, day) returns the first delivery untouched.
    Raises EmptyBank when there is nothing to create it with.
    """
    existing = await find_delivery(db, chat_id, day)
    if existing is not None:
        return existing, False
    if not question_ids:
        raise EmptyBank("no question is available for daily practice")

    def transaction(conn: sqlite3.Connection) -> bool:
        cur = conn.execute(
            f"""INSERT INTO daily_deliveries (chat_id, day, status, created_at, closes_at)
               VALUES (?,?,'{DeliveryStatus.pending}',?,?) ON CONFLICT(chat_id, day) DO NOTHING RETURNING id""",
            (chat_id, day.isoformat(), now, closes_at))
        row = cur.fetchone()
        if row is not None:
            conn.executemany(
                "INSERT INTO daily_items (delivery_id, pos, question_id, option_order) VALUES (?,?,?,?)",
                [(row[0], pos, qid, order) for pos, (qid, order) in enumerate(zip(question_ids, orders, strict=True))])
        return row is not None

    created = await db.run_write(transaction)
    delivery = await find_delivery(db, chat_id, day)
    assert delivery is not None
    return delivery, created


_ITEMS = "SELECT * FROM daily_items WHERE delivery_id=? ORDER BY pos"


async def items(db: Database, delivery_id: int) -> list[Item]:
    rows = await db.fetchall(_ITEMS, (delivery_id,))
    return [_item(r) for r in rows]


def items_in(conn: sqlite3.Connection, delivery_id: int) -> list[Item]:
    """`items` on the database thread."""
    return [_item(r) for r in conn.execute(_ITEMS, (delivery_id,))]


async def get_item(db: Database, delivery_id: int, pos: int) -> Item:
    """Raises NotFound."""
    row = await db.fetchone("SELECT * FROM daily_items WHERE delivery_id=? AND pos=?", (delivery_id, pos))
    if row is None:
        raise NotFound(f"no item {pos} in delivery {delivery_id}")
    return _item(row)


def item_by_message_in(conn: sqlite3.Connection, chat_id: int, message_id: int) -> tuple[Delivery, Item] | None:
    """The delivery and item whose question is the message `message_id` of this chat."""
    row = conn.execute(
        """SELECT i.* FROM daily_items i JOIN daily_deliveries d ON d.id = i.delivery_id
           WHERE i.message_id=? AND d.chat_id=?""", (message_id, chat_id)).fetchone()
    if row is None:
        return None
    return _delivery(conn.execute(f"{_SELECT} WHERE d.id=?", (row["delivery_id"],)).fetchone()), _item(row)


async def possibly_copied(db: Database, chat_id: int, before_message_id: int) -> list[tuple[Delivery, Item]]:
    """Items of this chat's unfinished quizzes that may have an unrecorded copy older than
    `before_message_id` (sent again after a crash in their send), newest quiz first."""
    rows = await db.fetchall(
        f"""SELECT i.* FROM daily_items i JOIN daily_deliveries d ON d.id = i.delivery_id
           WHERE d.chat_id=? AND d.status IN ({_OPEN_SQL}) AND i.send_attempts > 1
             AND i.message_id > ?
           ORDER BY d.day DESC, i.pos""", (chat_id, before_message_id))
    return [(await get_delivery(db, r["delivery_id"]), _item(r)) for r in rows]


_SENDING = "UPDATE daily_items SET send_attempts = send_attempts + 1 WHERE delivery_id=? AND pos=?"
_SENT = "UPDATE daily_items SET message_id=?, sent_at=? WHERE delivery_id=? AND pos=?"


def mark_sending_in(conn: sqlite3.Connection, delivery_id: int, pos: int) -> None:
    """Count a send about to start, inside a caller's transaction (a private answer counts the next
    question's send); after a crash, an item with a count but no message id may be in the chat already."""
    conn.execute(_SENDING, (delivery_id, pos))


async def mark_sent(db: Database, delivery_id: int, pos: int, message_id: int, now: float) -> None:
    await db.run_write(lambda conn: conn.execute(_SENT, (message_id, now, delivery_id, pos)))


def answers_to_in(conn: sqlite3.Connection, delivery_id: int, pos: int) -> int:
    """How many answered the item (shown on a group's question)."""
    count: int = conn.execute("SELECT COUNT(*) FROM daily_answers WHERE delivery_id=? AND pos=?",
                              (delivery_id, pos)).fetchone()[0]
    return count


async def hand_over(db: Database, delivery_id: int, sent: tuple[int, int] | None, then: int | None,
                    now: float) -> int:
    """A group quiz's push, one round trip per question: the question just sent gets its message id
    (`sent`: its position and message id), the next (`then`) is counted as sending, the delivery
    pending -> sending, and how many answered it already is returned (a resumed push); with no
    `then`, everything due is out: pending|sending -> open (returns 0). A crash between a send and
    its id's trip sends that question again, and both copies' buttons work."""

    def step(conn: sqlite3.Connection) -> int:
        if sent is not None:
            conn.execute(_SENT, (sent[1], now, delivery_id, sent[0]))
        if then is None:
            move_in(conn, delivery_id, Move.open)
            return 0
        move_in(conn, delivery_id, Move.start_sending)
        conn.execute(_SENDING, (delivery_id, then))
        return answers_to_in(conn, delivery_id, then)

    return await db.run_write(step)


async def mark_sent_and_open(db: Database, delivery_id: int, pos: int, message_id: int, now: float) -> None:
    """A private quiz's one due question is out: its message id, and the delivery open (one round trip)."""

    def both(conn: sqlite3.Connection) -> None:
        conn.execute(_SENT, (message_id, now, delivery_id, pos))
        move_in(conn, delivery_id, Move.open)

    await db.run_write(both)


def move_in(conn: sqlite3.Connection, delivery_id: int, move: Move) -> bool:
    """Apply a named move of the delivery's state machine if the row is in one of its sources
    (inside a caller's transaction); returns whether it moved."""
    sources = [states.stored(x) for x in states.MACHINE.sources(move)]
    marks = ",".join("?" * len(sources))
    return conn.execute(
        f"UPDATE daily_deliveries SET status=? WHERE id=? AND status IN ({marks}) AND closed_at IS NULL",
        (states.stored(states.MACHINE.target(move)), delivery_id, *sources)).rowcount == 1


async def _move(db: Database, delivery_id: int, move: Move) -> bool:
    """`move_in` in its own transaction."""
    return await db.run_write(lambda conn: move_in(conn, delivery_id, move))


async def mark_failed(db: Database, delivery_id: int) -> bool:
    """An unfinished delivery whose chat the bot may not post in -> failed."""
    return await _move(db, delivery_id, Move.fail)


async def retry_failed(db: Database, delivery_id: int) -> bool:
    """failed -> pending: the chat turned the quiz back on."""
    return await _move(db, delivery_id, Move.retry)


async def claim_close(db: Database, delivery_id: int) -> bool:
    """Stop accepting answers (-> keys_pending). True for the one caller that closed it (and must post the keys)."""
    return await _move(db, delivery_id, Move.close)


async def mark_keys_posted(db: Database, delivery_id: int, now: float) -> None:
    """keys_pending -> closed."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE daily_deliveries SET closed_at=? WHERE id=? AND status=?",
                     (now, delivery_id, states.stored(states.MACHINE.target(Move.close))))
        rated.closed_in(conn, delivery_id)  # a group's answers count for ratings once its keys are out

    await db.run_write(transaction)


async def unfinished(db: Database) -> list[Delivery]:
    """Deliveries still open, or closed without their keys posted: what start-up must pick up."""
    rows = await db.fetchall(
        f"{_SELECT} WHERE {_UNFINISHED_SQL} ORDER BY d.id")
    return [_delivery(r) for r in rows]


async def latest_delivery(db: Database, chat_id: int) -> Delivery | None:
    row = await db.fetchone(f"{_SELECT} WHERE d.chat_id=? ORDER BY d.day DESC LIMIT 1", (chat_id,))
    return _delivery(row) if row else None
