"""Chats and their daily subscriptions: who gets the quiz, when, and why it stopped."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from proctor import chats
from proctor.audit import AuditAction, record_audit
from proctor.chats import chat_timezone as chat_timezone  # their home: proctor/chats.py
from proctor.chats import chat_title as chat_title
from proctor.chats import ensure_chat as ensure_chat
from proctor.daily.schedule import Schedule, parse_hhmm, parse_timezone
from proctor.storage.db import Database


class OffReason(StrEnum):
    """Why the bot turned a chat's daily quiz off (kept for /daily status)."""
    blocked = "blocked"  # a private chat's user blocked the bot
    kicked = "kicked"  # a group removed it


@dataclass(frozen=True, slots=True)
class Subscription:
    chat_id: int
    chat_type: str
    enabled: bool
    at_time: str  # 'HH:MM'
    timezone: str  # IANA name
    questions: int
    close_after_min: int | None
    changed_by: int | None
    changed_at: float
    disabled_reason: OffReason | None  # why the bot turned it off; None: on, or turned off by a person

    @property
    def private(self) -> bool:
        return self.chat_type == "private"

    def schedule(self) -> Schedule:
        return Schedule(parse_hhmm(self.at_time), parse_timezone(self.timezone),
                        self.close_after_min, self.changed_at)


def _sub(row: sqlite3.Row) -> Subscription:
    return Subscription(row["chat_id"], row["type"], bool(row["enabled"]), row["at_time"],
                        row["timezone"], row["questions"], row["close_after_min"],
                        row["changed_by"], row["changed_at"],
                        None if row["disabled_reason"] is None else OffReason(row["disabled_reason"]))


_SELECT = "SELECT s.*, c.type FROM daily_subscriptions s JOIN chats c ON c.id = s.chat_id"


async def get_subscription(db: Database, chat_id: int) -> Subscription | None:
    return await db.run(lambda conn: subscription_in(conn, chat_id))


def subscription_in(conn: sqlite3.Connection, chat_id: int) -> Subscription | None:
    """`get_subscription` on the database thread."""
    row = conn.execute(f"{_SELECT} WHERE s.chat_id=?", (chat_id,)).fetchone()
    return _sub(row) if row else None


async def enabled_subscriptions(db: Database) -> list[Subscription]:
    return [_sub(r) for r in await db.fetchall(f"{_SELECT} WHERE s.enabled=1 ORDER BY s.chat_id")]


async def subscribe(db: Database, chat_id: int, at_time: str, timezone: str, questions: int,
                    by: int | None, now: float, close_after_min: int | None = None) -> Subscription:
    """Turn the chat's daily quiz on (or change its time); the chat must be recorded first.

    Raises BadTime or BadTimezone for a malformed time or zone.
    """
    at = parse_hhmm(at_time).strftime("%H:%M")
    parse_timezone(timezone)

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute(
            """INSERT INTO daily_subscriptions (chat_id, enabled, at_time, timezone, questions,
                   close_after_min, changed_by, changed_at, disabled_reason)
               VALUES (?,1,?,?,?,?,?,?,NULL)
               ON CONFLICT(chat_id) DO UPDATE SET enabled=1, at_time=excluded.at_time,
                   timezone=excluded.timezone, questions=excluded.questions,
                   close_after_min=excluded.close_after_min, changed_by=excluded.changed_by,
                   changed_at=excluded.changed_at, disabled_reason=NULL""",
            (chat_id, at, timezone, questions, close_after_min, by, now))
        chats.set_timezone(conn, chat_id, timezone, now)
        if by is not None and chat_id < 0:  # a lead changed a team group's schedule
            record_audit(conn, at=now, actor=by, chat_id=chat_id, action=AuditAction.daily_on,
                         target=f"{at} {timezone}", questions=questions, close_after_min=close_after_min)

    await db.run_write(transaction)
    sub = await get_subscription(db, chat_id)
    assert sub is not None
    return sub


async def unsubscribe(db: Database, chat_id: int, by: int | None, now: float,
                      reason: OffReason | None = None) -> bool:
    """Turn the chat's daily quiz off; returns whether it was on. `reason` is kept for /daily status."""

    def transaction(conn: sqlite3.Connection) -> bool:
        cur = conn.execute(
            """UPDATE daily_subscriptions SET enabled=0, changed_by=?, changed_at=?, disabled_reason=?
               WHERE chat_id=? AND enabled=1""",
            (by, now, reason, chat_id))
        if cur.rowcount == 1 and by is not None and chat_id < 0:
            record_audit(conn, at=now, actor=by, chat_id=chat_id, action=AuditAction.daily_off)
        return cur.rowcount == 1

    return await db.run_write(transaction)


@dataclass(frozen=True, slots=True)
class OnRequest:
    """What `/daily on` sets: each part given, else the chat's current one, else the default."""

    at_time: str
    timezone: str
    questions: int
    close_after_min: int | None


def on_request(old: Subscription | None, chat_tz: str | None, *, at: str | None, tz: str | None,
               close: int | None, default_time: str, default_tz: str, default_questions: int) -> OnRequest:
    """The schedule `/daily on` asks for: the time and zone given, else the chat's (its last zone
    too), else the defaults; the number of questions and the close stay as they were."""
    return OnRequest(
        at or (old.at_time if old else default_time),
        tz or (old.timezone if old else None) or chat_tz or default_tz,
        old.questions if old else default_questions,
        close if close is not None else (old.close_after_min if old else None))


def off_reason(chat_id: int) -> OffReason:
    """Why the bot may no longer post in a chat that refused it (403): a private chat's user blocked
    it (private chat ids are positive), a group kicked it."""
    return OffReason.blocked if chat_id > 0 else OffReason.kicked
