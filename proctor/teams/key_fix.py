"""An upheld dispute's key fix: change a question's key (or accept an alternative answer to a blank),
regrade every answer given to it, tell who disputed and whose score changed. One transaction: the new
key version, the regraded answers and attempt totals, the dispute, the audit entry and the notices
(outbox) commit together. Leaderboards and reports read the stored scores, so they follow."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import aiosqlite

from bank.errors import BankError, NotFound
from bank.grading import grade
from bank.models import Answer, Kind, MultiPolicy, Question
from bank.option_order import LETTERS
from bank.question_rows import question_from_row
from bank.store import one_row
from proctor import outbox
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.disputes import DisputeStatus, OwnDispute

NOTICE = "key_fix"  # outbox kind: the bot renders it in the candidate's language
_BLANKS = re.compile(r"\s*[、|;；]\s*")
_TRUE = {"true", "t", "对", "√", "正确", "yes"}
_FALSE = {"false", "f", "错", "×", "错误", "no"}


class BadKey(BankError):
    """The new key doesn't fit the question (a letter it hasn't, a blank too many, ...)."""


@dataclass(frozen=True)
class Change:
    user_id: int
    old: float
    new: float
    max_score: float


@dataclass(frozen=True)
class KeyFix:
    question_id: int
    version: int
    disputer: int
    changes: list[Change] = field(default_factory=list)  # answers whose score changed
    answers: int = 0  # answers regraded (changed or not)


def new_key(q: Question, key: str | None, alternative: str | None) -> Answer:
    """The question's key after the fix, in its stored shape. Raises BadKey."""
    if alternative is not None:
        if q.kind != Kind.fill or not isinstance(q.answer, list):
            raise BadKey("only fill-in blanks take alternative answers")
        parts = _BLANKS.split(alternative.strip()) if len(q.answer) > 1 else [alternative.strip()]
        if len(parts) != len(q.answer) or not any(parts):
            raise BadKey(f"give one alternative per blank ({len(q.answer)}), empty to keep a blank")
        return [alts + ([p] if p and p not in alts else []) for alts, p in zip(q.answer, parts, strict=True)]
    text = (key or "").strip()
    if not text:
        raise BadKey("no key given")
    if q.kind in (Kind.single, Kind.multi):
        letters = sorted({c for c in text.upper() if c.isalpha()})
        allowed = set(LETTERS[:len(q.options)])
        if not letters or not set(letters) <= allowed or (q.kind == Kind.single and len(letters) != 1):
            raise BadKey(f"a key of letters among {''.join(sorted(allowed))}")
        return "".join(letters)
    if q.kind == Kind.truefalse:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise BadKey("true or false")
    if q.kind == Kind.fill:
        parts = _BLANKS.split(text) if isinstance(q.answer, list) and len(q.answer) > 1 else [text]
        if isinstance(q.answer, list) and len(parts) != len(q.answer):
            raise BadKey(f"one answer per blank ({len(q.answer)})")
        return [[p] for p in parts]
    return text  # written questions: the reference answer (their scores are a reviewer's)


def _fraction(q: Question, response: object, policy: MultiPolicy) -> tuple[float, str]:
    g = grade(q, response, multi_policy=policy)
    return (g.score / g.max_score if g.max_score else 0.0), g.verdict.value


async def fix_key(db: Database, dispute_id: int, *, actor: int, now: float, chat_id: int | None,
                  key: str | None = None, alternative: str | None = None, regrade: bool = True) -> KeyFix:
    """Fix the key of dispute `dispute_id`'s question (open or upheld, not fixed yet), and with
    `regrade` rescore every final, machine-graded answer to it. Raises NotFound, OwnDispute, BadKey."""
    async with db.write() as conn:
        cur = await conn.execute(
            "SELECT d.question_id, d.user_id, d.chat_id FROM disputes d WHERE d.id=? "
            f"AND d.status IN ('{DisputeStatus.open}','{DisputeStatus.upheld}') "
            "AND NOT EXISTS (SELECT 1 FROM key_versions k WHERE k.dispute_id = d.id)", (dispute_id,))
        row = await cur.fetchone()
        if row is None:
            raise NotFound(f"no dispute {dispute_id} awaiting a key fix")
        qid, disputer = row[0], row[1]
        if disputer == actor:
            raise OwnDispute(f"user {actor} may not fix the key of their own dispute {dispute_id}")
        cur = await conn.execute("SELECT q.*, p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id "
                                 "WHERE q.id=?", (qid,))
        qrow = one_row(await cur.fetchone())  # the dispute's question (a foreign key)
        old_q = question_from_row(qrow)
        fixed = new_key(old_q, key, alternative)
        q = old_q.model_copy(update={"answer": fixed})
        policy = MultiPolicy(qrow["multi_policy"])
        version = qrow["key_version"] + 1
        await conn.execute("UPDATE questions SET answer=?, key_version=? WHERE id=?",
                           (json.dumps(fixed, ensure_ascii=False), version, qid))
        await conn.execute(f"UPDATE disputes SET status='{DisputeStatus.upheld}', resolved_by=COALESCE(resolved_by, ?), "
                           "resolved_at=COALESCE(resolved_at, ?) WHERE id=?", (actor, now, dispute_id))
        changes: list[Change] = []
        regraded = 0
        if regrade and q.kind not in (Kind.short, Kind.discussion, Kind.case):
            regraded, changes = await _regrade(conn, q, policy, version)
        await conn.execute(
            "INSERT INTO key_versions (question_id, version, answer, previous, dispute_id, actor, regraded, "
            "created_at) VALUES (?,?,?,?,?,?,?,?)",
            (qid, version, json.dumps(fixed, ensure_ascii=False), json.dumps(old_q.answer, ensure_ascii=False),
             dispute_id, actor, len(changes), now))
        await audit.record(conn, at=now, actor=actor, chat_id=chat_id, action="key_fix",
                           target=f"dispute:{dispute_id}", target_user=disputer, question=qid, version=version,
                           regraded=regraded, changed=len(changes))
        told = {disputer}
        await outbox.enqueue_in(conn, kind=NOTICE, ref=f"{dispute_id}:{disputer}", chat_id=disputer,
                                user_id=disputer, now=now, payload={"question": qid, "dispute": dispute_id})
        for c in changes:
            if c.user_id in told:
                await conn.execute("UPDATE outbox SET payload=? WHERE kind=? AND ref=?",
                                   (json.dumps({"question": qid, "dispute": dispute_id, "old": c.old, "new": c.new,
                                                "max": c.max_score}), NOTICE, f"{dispute_id}:{c.user_id}"))
                continue
            told.add(c.user_id)
            await outbox.enqueue_in(conn, kind=NOTICE, ref=f"{dispute_id}:{c.user_id}", chat_id=c.user_id,
                                    user_id=c.user_id, now=now,
                                    payload={"question": qid, "old": c.old, "new": c.new, "max": c.max_score})
    return KeyFix(qid, version, disputer, changes, regraded)


async def _regrade(conn: aiosqlite.Connection, q: Question, policy: MultiPolicy,
                   version: int) -> tuple[int, list[Change]]:
    """Rescore the exam answers (final, not a reviewer's) and the daily answers to `q`."""
    changes: list[Change] = []
    n = 0
    cur = await conn.execute(
        "SELECT x.attempt_id, x.pos, x.response, x.score, x.max_score, t.user_id FROM answers x "
        "JOIN attempts t ON t.id = x.attempt_id WHERE x.question_id=? AND x.final=1 AND x.reviewed_by IS NULL",
        (q.id,))
    for attempt_id, pos, response, old, max_score, user_id in await cur.fetchall():
        frac, verdict = _fraction(q, json.loads(response), policy)
        new = round(frac * max_score, 2)
        n += 1
        await conn.execute("UPDATE answers SET score=?, verdict=?, key_version=? WHERE attempt_id=? AND pos=?",
                           (new, verdict, version, attempt_id, pos))
        if new != old:
            await conn.execute(
                "UPDATE attempts SET score=(SELECT ROUND(COALESCE(SUM(score), 0), 2) FROM answers "
                "WHERE attempt_id=?) WHERE id=? AND score IS NOT NULL", (attempt_id, attempt_id))
            changes.append(Change(user_id, old, new, max_score))
    cur = await conn.execute(
        "SELECT delivery_id, pos, user_id, response, score, max_score FROM daily_answers WHERE question_id=?",
        (q.id,))
    for delivery_id, pos, user_id, response, old, max_score in await cur.fetchall():
        frac, verdict = _fraction(q, json.loads(response), policy)
        new = round(frac * max_score, 2)
        n += 1
        await conn.execute("UPDATE daily_answers SET score=?, verdict=? WHERE delivery_id=? AND pos=? AND user_id=?",
                           (new, verdict, delivery_id, pos, user_id))
        await conn.execute("INSERT INTO daily_answer_keys VALUES (?,?,?,?) ON CONFLICT DO UPDATE SET "
                           "key_version=excluded.key_version", (delivery_id, pos, user_id, version))
        if new != old:
            changes.append(Change(user_id, old, new, max_score))
    return n, changes


async def current_key(db: Database, question_id: int) -> str:
    """The question's key as a lead reads it: letters, true/false, blanks separated by 、."""
    raw = await db.scalar("SELECT answer FROM questions WHERE id=?", (question_id,))
    key = json.loads(raw) if raw is not None else ""
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, list):
        return "、".join(" / ".join(alts) for alts in key)
    return str(key)


@dataclass(frozen=True)
class Version:
    """One fix of a question's key: what it became, what it was, why, by whom, how many scores changed."""

    version: int
    answer: object
    previous: object
    dispute_id: int | None
    actor: int
    changed: int


async def key_version(db: Database, question_id: int) -> int:
    """The version of the question's key (1: as imported). Raises NotFound."""
    version = await db.scalar("SELECT key_version FROM questions WHERE id=?", (question_id,))
    if version is None:
        raise NotFound(f"no question {question_id}")
    return int(version)


async def history(db: Database, question_id: int) -> list[Version]:
    """Every fix of the question's key, oldest first."""
    rows = await db.fetchall(
        "SELECT version, answer, previous, dispute_id, actor, regraded FROM key_versions WHERE question_id=? "
        "ORDER BY version", (question_id,))
    return [Version(r["version"], json.loads(r["answer"]), json.loads(r["previous"]), r["dispute_id"], r["actor"],
                    r["regraded"]) for r in rows]


@dataclass(frozen=True)
class Graded:
    """An answer to a question and the key version it was last graded against."""

    attempt_id: int | None  # None: a daily-quiz answer
    user_id: int
    score: float
    key_version: int


async def graded_answers(db: Database, question_id: int) -> list[Graded]:
    """Every answer to the question: exam answers by attempt, then daily answers by member."""
    exams = await db.fetchall(
        "SELECT x.attempt_id, t.user_id, x.score, x.key_version FROM answers x JOIN attempts t ON t.id = x.attempt_id "
        "WHERE x.question_id=? ORDER BY x.attempt_id, x.pos", (question_id,))
    daily = await db.fetchall(
        "SELECT a.user_id, a.score, COALESCE(k.key_version, 1) AS key_version FROM daily_answers a "
        "LEFT JOIN daily_answer_keys k ON k.delivery_id = a.delivery_id AND k.pos = a.pos AND k.user_id = a.user_id "
        "WHERE a.question_id=? ORDER BY a.user_id, a.delivery_id", (question_id,))
    return ([Graded(r["attempt_id"], r["user_id"], r["score"], r["key_version"]) for r in exams]
            + [Graded(None, r["user_id"], r["score"], r["key_version"]) for r in daily])
