"""An upheld dispute's key fix: change a question's key (or accept an alternative answer to a blank),
regrade every answer given to it, tell who disputed and whose score changed. One transaction: the new
key version, the regraded answers and attempt totals, the dispute, the audit entries and the notices
(outbox) commit together. Leaderboards and reports read the stored scores, so they follow.

A dispute is fixed once it is upheld, never while it is open. The fix never reaches a candidate whose
running exam seals the question before they hand in (proctor/exams/held.py), and nobody fixes a key
that changes their own score (question_edit.OwnScore)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from bank.errors import NotFound
from bank.kinds import CHOICE, MultiPolicy
from bank.models import Question
from bank.option_order import NotShown, OptionOrder, SeenOption
from bank.question_rows import question_from_row
from proctor.audit import AuditAction
from proctor.exams.visibility import Fact, Lens, record_key_read_in
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.disputes import DisputeStatus, NotUpheld, OwnDispute
from proctor.teams.question_edit import (
    BadKey,
    Change,
    OwnScore,
    commit_in,
    key_text,
    new_key,
    report_in,
)

__all__ = ["BadKey", "Change", "KeyAsSeen", "KeyFix", "NotUpheld", "OwnScore", "current_key", "fix_key", "new_key"]


@dataclass(frozen=True)
class KeyAsSeen:
    """A disputed question's key as the person who disputed it saw the question."""

    options: list[SeenOption]  # a choice question's: the key's options under the letters shown, with their texts
    text: str = ""  # any other question's key as a lead reads it (question_edit.key_text)
    bank_letters: bool = False  # the dispute kept no order (raised before orders were kept): the bank's letters


def key_as_seen(q: Question, order: str | None) -> KeyAsSeen:
    """`q`'s key in the letters of the option order `order` (None: not known, the bank's letters)."""
    if q.kind not in CHOICE or not isinstance(q.answer, str):
        return KeyAsSeen([], key_text(q.answer))
    seen = OptionOrder.of(order or "", q.letter_refs).seen(q.options, q.answer)
    # a key naming no option (held as garbled) is shown as stored: in the bank's letters
    return KeyAsSeen(seen, "" if seen else q.answer, bank_letters=order is None or not seen)


def _stored_key(q: Question, key: object, order: str | None) -> object:
    """A new key given in the disputer's letters (`order`), in the bank's. Raises BadKey."""
    if q.kind not in CHOICE or not isinstance(key, str):
        return key
    try:
        return OptionOrder.of(order or "").to_stored(key)
    except NotShown as e:
        raise BadKey(str(e)) from None


@dataclass(frozen=True)
class KeyFix:
    question_id: int
    version: int
    disputer: int
    changes: list[Change] = field(default_factory=list)  # answers whose score changed
    answers: int = 0  # answers regraded (changed or not)
    held: int = 0  # answers on running exams, regraded at their hand-in


async def fix_key(db: Database, dispute_id: int, *, actor: int, now: float, chat_id: int | None,
                  key: str | None = None, alternative: str | None = None, regrade: bool = True) -> KeyFix:
    """Fix the key of upheld dispute `dispute_id`'s question (not fixed yet), and with `regrade`
    rescore every final, machine-graded answer to it. Raises NotFound, OwnDispute, NotUpheld, BadKey,
    OwnScore."""

    def transaction(conn: sqlite3.Connection) -> KeyFix:
        cur = conn.execute(
            "SELECT d.question_id, d.user_id, d.status, d.option_order FROM disputes d WHERE d.id=? "
            f"AND d.status IN ('{DisputeStatus.open}','{DisputeStatus.upheld}') "
            "AND NOT EXISTS (SELECT 1 FROM key_versions k WHERE k.dispute_id = d.id)", (dispute_id,))
        row = cur.fetchone()
        if row is None:
            raise NotFound(f"no dispute {dispute_id} awaiting a key fix")
        qid, disputer = row[0], row[1]
        if disputer == actor:
            raise OwnDispute(f"user {actor} may not fix the key of their own dispute {dispute_id}")
        if row[2] != DisputeStatus.upheld:
            raise NotUpheld(f"dispute {dispute_id} is still open")
        cur = conn.execute("SELECT q.*, p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id "
                           "WHERE q.id=?", (qid,))
        qrow = cur.fetchone()
        if qrow is None:  # the dispute's question is gone (a dispute row outlived it)
            raise NotFound(f"no question {qid}")
        old_q = question_from_row(qrow)
        # the key as the lead typed it, in the letters the disputer saw
        q = old_q.model_copy(update={"answer": _stored_key(old_q, new_key(old_q, key, alternative), row[3])})
        done = commit_in(conn, old_q, q, MultiPolicy(qrow["multi_policy"]), "key", actor=actor, now=now,
                         regrade=regrade, dispute_id=dispute_id)
        audit.record(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.key_fix,
                     target=f"dispute:{dispute_id}", target_user=disputer, question=qid, version=done.version,
                     regraded=done.answers, changed=len(done.changes), held=done.held)
        # the disputer's notice says it was upheld, and their score's change too, if it changed
        report_in(conn, done, actor=actor, chat_id=chat_id, now=now, ref=str(dispute_id),
                  dispute=(dispute_id, disputer))
        return KeyFix(qid, done.version, disputer, done.changes, done.answers, done.held)

    return await db.run_write(transaction)


async def current_key(db: Database, lens: Lens, dispute_id: int, *, now: float) -> KeyAsSeen | None:
    """The key of dispute `dispute_id`'s question as its disputer saw the question (`key_as_seen`: their
    letters, with the options' texts), if the read rule shows it to the lens's viewer (None otherwise: a
    hiring paper their team is not verified for, a question sealed for them, no such dispute). A read of
    a hiring paper's key is audited in the same transaction."""

    def read(conn: sqlite3.Connection) -> KeyAsSeen | None:
        row = conn.execute("SELECT q.*, c.pinned, c.letter_refs, c.held, d.option_order AS seen_order "
                           "FROM disputes d JOIN questions q ON q.id = d.question_id "
                           "LEFT JOIN question_checks c ON c.question_id = q.id WHERE d.id=?",
                           (dispute_id,)).fetchone()
        vis = lens.of(row["paper_id"] if row is not None else None)
        if row is None or not vis.shows(Fact.key, row["id"]):
            return None
        record_key_read_in(conn, lens.viewer, lens.scope, vis, [row["id"]], now=now)
        return key_as_seen(question_from_row(row), row["seen_order"])

    return await db.run_write(read)
