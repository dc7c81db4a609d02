"""Disputes: a candidate flags a question they believe is wrong; a lead upholds or dismisses it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from bank.errors import NotFound
from bank.question_ref import QuestionRef
from bank.store import Engine, ids_in
from proctor.audit import AuditAction
from proctor.errors import ProctorError
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.consent import seen_sql

MAX_REASON = 500


class DisputeStatus(StrEnum):
    """`disputes.status`: raised, then upheld (its key may be fixed) or dismissed by a lead."""

    open = "open"
    upheld = "upheld"
    dismissed = "dismissed"


class AlreadyDisputed(ProctorError):
    """The candidate already has an open dispute on this question."""


class NoReason(ProctorError):
    """A dispute needs a reason."""


class NotUpheld(ProctorError):
    """A dispute's key is fixed once a lead has upheld it, not while it is open."""


class OwnDispute(ProctorError):
    """Nobody resolves their own dispute, configured admins included."""


@dataclass(frozen=True, slots=True)
class Dispute:
    id: int
    question_id: int
    paper: str
    section: int
    number: int
    reason: str  # the candidate's words
    status: DisputeStatus
    created_at: float
    open_on_question: int  # open disputes on the same question
    section_title: str = ""  # the question's section as its paper names it
    paper_id: int = 0
    ref: QuestionRef = QuestionRef("", 0)  # the question's reference (P3 · Q43)


async def question_for_message(db: Database, chat_id: int, message_id: int) -> int | None:
    """The question a bot message shows: a daily quiz item, or the current item of an exam."""
    qid: int | None = await db.scalar(
        "SELECT i.question_id FROM daily_items i JOIN daily_deliveries d ON d.id = i.delivery_id "
        "WHERE d.chat_id=? AND i.message_id=?", (chat_id, message_id))
    if qid is not None:
        return qid
    qid = await db.scalar(
        "SELECT i.question_id FROM attempts t JOIN attempt_items i ON i.attempt_id = t.id "
        "AND i.pos = t.current_pos WHERE t.chat_id=? AND t.message_id=? ORDER BY t.id DESC LIMIT 1",
        (chat_id, message_id))
    return qid


# where the user was asked the question, the latest sighting first: on a sheet of their own attempt, in a
# daily quiz sent to their private chat or to a group they are a known member of (wrote or answered
# there, or on its roster), in a live round they answered; with the order its options were shown in
_SEEN = """SELECT option_order FROM (
             SELECT i.option_order, COALESCE(i.shown_at, t.started_at) AS at
             FROM attempts t JOIN attempt_items i ON i.attempt_id = t.id
             WHERE t.user_id = :user AND i.question_id = :q
             UNION ALL
             SELECT i.option_order, COALESCE(i.sent_at, d.created_at) FROM daily_items i
             JOIN daily_deliveries d ON d.id = i.delivery_id
             WHERE i.question_id = :q AND i.message_id IS NOT NULL
               AND (d.chat_id = :user
                    OR d.chat_id IN (SELECT chat_id FROM chat_members WHERE user_id = :user)
                    OR d.chat_id IN (SELECT chat_id FROM team_roster WHERE user_id = :user))
             UNION ALL
             SELECT i.option_order, a.received_at FROM live_answers a
             JOIN live_items i ON i.round_id = a.round_id AND i.pos = a.pos
             WHERE a.user_id = :user AND i.question_id = :q) seen
           ORDER BY at DESC LIMIT 1"""

# the question on a bot message in the chat: a daily quiz item, or the current item of the user's exam
_ON_MESSAGE = """SELECT i.option_order FROM daily_items i JOIN daily_deliveries d ON d.id = i.delivery_id
                 WHERE d.chat_id = :chat AND i.message_id = :message AND i.question_id = :q
                 UNION ALL
                 SELECT i.option_order FROM attempts t JOIN attempt_items i ON i.attempt_id = t.id
                 AND i.pos = t.current_pos WHERE t.chat_id = :chat AND t.message_id = :message
                 AND t.user_id = :user AND i.question_id = :q LIMIT 1"""


def seen_order_in(conn: sqlite3.Connection, user_id: int, question_id: int, *, chat_id: int | None = None,
                  message_id: int | None = None) -> str | None:
    """The order the question's options were shown to the user in ('' for the bank's order): on the bot's
    message `message_id` in `chat_id` when it shows the question, else where they were last asked it
    (`_SEEN`); None if they were never asked it. On the database thread."""
    found = conn.execute(_SEEN, {"user": user_id, "q": question_id}).fetchone()
    if found is None:
        return None
    if message_id is not None:
        on = conn.execute(_ON_MESSAGE, {"chat": chat_id, "message": message_id, "user": user_id,
                                        "q": question_id}).fetchone()
        if on is not None:
            return str(on[0])
    return str(found[0])


async def raise_dispute(db: Database, *, question_id: int, user_id: int, chat_id: int, reason: str,
                        now: float, message_id: int | None = None) -> int:
    """Record a dispute of a question the user was asked (`seen_order_in`), with the order they saw its
    options in (on the bot's message `message_id` they replied to, if given), so a lead reads and fixes its
    key in their letters; returns its id. A question they were never asked is as unknown as one that does
    not exist: the reply tells nothing of the bank. Raises NotFound, NoReason, AlreadyDisputed."""
    reason = " ".join(reason.split())[:MAX_REASON]
    if not reason:
        raise NoReason("a dispute needs a reason")

    def transaction(conn: sqlite3.Connection) -> int:
        order = seen_order_in(conn, user_id, question_id, chat_id=chat_id, message_id=message_id)
        if order is None:
            raise NotFound(f"no question {question_id} asked of user {user_id}")
        # asked before the insert, not left to the unique index: a refused insert would take a number of
        # PostgreSQL's sequence, and the ids people see (dispute #N) would skip (writes are one at a time)
        if conn.execute(f"SELECT 1 FROM disputes WHERE question_id=? AND user_id=? AND status='{DisputeStatus.open}'",
                        (question_id, user_id)).fetchone() is not None:
            raise AlreadyDisputed(f"question {question_id} already disputed by {user_id}")
        dispute_id: int = conn.execute(
            "INSERT INTO disputes (question_id, user_id, chat_id, reason, created_at, option_order) "
            "VALUES (?,?,?,?,?,?) RETURNING id", (question_id, user_id, chat_id, reason, now, order)).fetchone()[0]
        return dispute_id

    return await db.run_write(transaction)


async def question_of(db: Database, dispute_id: int) -> int | None:
    """The question a dispute is about (None: no such dispute)."""
    qid: int | None = await db.scalar("SELECT question_id FROM disputes WHERE id=?", (dispute_id,))
    return qid


def _shown(lens: Lens, engine: Engine) -> tuple[str, dict[str, object]]:
    """Disputes the lens's viewer may read: on papers whose sections and doubts the read rule shows
    them (a dispute names where its question sits and doubts its key), of no question sealed for them;
    for a group's leads, raised by members on its roster (consent.seen_sql) since they joined."""
    where = (f"AND q.paper_id IN ({ids_in(engine, ':sections')}) "
             f"AND q.paper_id IN ({ids_in(engine, ':doubts')}) "
             f"AND d.question_id NOT IN ({ids_in(engine, ':sealed')})")
    params: dict[str, object] = {"sections": lens.papers_showing(Fact.section),
                                 "doubts": lens.papers_showing(Fact.doubt), "sealed": lens.sealed_json(),
                                 "scope": lens.scope}
    if lens.scope is not None:
        where += f" AND {seen_sql('d.user_id', 'd.created_at', ':scope')}"
    return where, params


def _dispute(r: sqlite3.Row, n: int) -> Dispute:
    return Dispute(r["id"], r["question_id"], r["title"], r["position"], r["number"], r["reason"],
                   DisputeStatus(r["status"]), r["created_at"], n, r["section_title"], r["paper_id"],
                   QuestionRef(r["code"], r["seq"], r["question_id"]))


async def open_disputes(db: Database, lens: Lens, limit: int = 10) -> list[Dispute]:
    """The oldest open disputes the lens's viewer may read (`_shown`), without who raised them. The
    count per question is of the same disputes."""
    shown, params = _shown(lens, db.engine)
    by_o = "" if lens.scope is None else f"AND {seen_sql('o.user_id', 'o.created_at', ':scope')}"
    rows = await db.fetchall(
        f"""SELECT d.id, d.question_id, d.reason, d.status, d.created_at, p.title, s.position, q.number,
                  s.title AS section_title, q.paper_id, p.code, q.seq,
                  (SELECT COUNT(*) FROM disputes o WHERE o.question_id = d.question_id
                   AND o.status = '{DisputeStatus.open}' {by_o}) AS n
           FROM disputes d JOIN questions q ON q.id = d.question_id
           JOIN papers p ON p.id = q.paper_id JOIN sections s ON s.id = q.section_id
           WHERE d.status = '{DisputeStatus.open}' {shown} ORDER BY d.created_at, d.id LIMIT :limit""",
        {**params, "limit": limit})
    return [_dispute(r, r["n"]) for r in rows]


async def awaiting_key_fix(db: Database, lens: Lens, limit: int = 50) -> list[Dispute]:
    """Upheld disputes whose question's key is not fixed yet (the /keyfix step), oldest first: those
    the lens's viewer may read (`_shown`)."""
    shown, params = _shown(lens, db.engine)
    rows = await db.fetchall(
        f"""SELECT d.id, d.question_id, d.reason, d.status, d.created_at, p.title, s.position, q.number,
                  s.title AS section_title, q.paper_id, p.code, q.seq
           FROM disputes d JOIN questions q ON q.id = d.question_id
           JOIN papers p ON p.id = q.paper_id JOIN sections s ON s.id = q.section_id
           WHERE d.status = '{DisputeStatus.upheld}' {shown}
           AND NOT EXISTS (SELECT 1 FROM key_versions k WHERE k.dispute_id = d.id)
           ORDER BY d.created_at, d.id LIMIT :limit""", {**params, "limit": limit})
    return [_dispute(r, 1) for r in rows]


async def resolve(db: Database, dispute_id: int, *, upheld: bool, lead: int, chat_id: int | None,
                  now: float) -> tuple[int, int]:
    """Close an open dispute; returns (question id, candidate id). Raises NotFound, OwnDispute."""
    status = DisputeStatus.upheld if upheld else DisputeStatus.dismissed

    def transaction(conn: sqlite3.Connection) -> tuple[int, int]:
        cur = conn.execute(f"SELECT user_id FROM disputes WHERE id=? AND status='{DisputeStatus.open}'",
                           (dispute_id,))
        raiser = cur.fetchone()
        if raiser is not None and raiser[0] == lead:
            raise OwnDispute(f"user {lead} may not resolve their own dispute {dispute_id}")
        cur = conn.execute(
            f"UPDATE disputes SET status=?, resolved_by=?, resolved_at=? WHERE id=? AND status='{DisputeStatus.open}' "
            "RETURNING question_id, user_id", (status.value, lead, now, dispute_id))
        row = cur.fetchone()
        if row is None:
            raise NotFound(f"no open dispute {dispute_id}")
        audit.record(conn, at=now, actor=lead, chat_id=chat_id,
                     action=AuditAction.dispute_upheld if upheld else AuditAction.dispute_dismissed,
                     target=f"dispute:{dispute_id}", target_user=row[1], question=row[0])
        return row[0], row[1]

    return await db.run_write(transaction)
