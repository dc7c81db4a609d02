"""A key fixed while a candidate's exam runs waits for their hand-in.

The key changes for everyone at once (proctor/teams/question_edit.py), but nothing about it reaches a
candidate whose running exam seals the question (proctor/exams/seal.py) before they hand in: their
exam answers to it (on the running sheet and on their earlier attempts) are not regraded, `hold_in`
notes them instead, and every notice meant for them waits in the outbox
(`outbox.enqueue_in(held_by=...)`). The transaction that closes the running attempt (Finish, the
deadline, a cancel: proctor.exams.service.hand_in_in) calls `release_in`: those answers are graded
with the key in force then (the running sheet's before its total is summed), each changed attempt
is audited, the candidate is told of each change on an earlier attempt, the lead who invited a
changed hiring attempt gets its card again, and the held notices fall due. All of it lives in
SQLite, so a restart between the fix and the hand-in loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bank.grading import grade
from bank.paper_settings import policy_of
from proctor import outbox
from proctor.audit import AuditAction, record_audit
from proctor.exams.questions import questions_in
from proctor.exams.scoring import ATTEMPT_TOTAL, item_score
from proctor.invites import attempts as invite_attempts
from proctor.ratings import events as ratings

REGRADE = AuditAction.regrade  # the audit action of one attempt whose score a regrade changed


def change_detail(*, question: int, old: float | None, new: float | None, answer_old: float, answer_new: float,
                  from_version: int, to_version: int) -> dict[str, Any]:
    """A REGRADE audit entry's detail: the attempt's score before and after (None: not yet handed in),
    the answer's, and the key versions it was graded against."""
    return {"question": question, "old": old, "new": new, "answer_old": answer_old, "answer_new": answer_new,
            "from_version": from_version, "to_version": to_version}


def notice_change(*, old: float, new: float, max_score: float, title: str, attempt: int | None = None,
                  total_old: float | None = None, total_new: float | None = None) -> dict[str, Any]:
    """One change in a key fix notice's payload (`{"question", "changes": [...], "dispute"?}`); title ''
    and no attempt for a daily-quiz answer. An exam answer's change names its attempt and the attempt's
    total before and after: the notice tells only the total where the candidate may not read the
    question's result (the read rule, at send time)."""
    change: dict[str, Any] = {"old": old, "new": new, "max": max_score, "title": title}
    if attempt is not None:
        change |= {"attempt": attempt, "total_old": total_old, "total_new": total_new}
    return change


def hold_in(conn: sqlite3.Connection, attempt_id: int, question_id: int, *, until: int, actor: int,
            now: float) -> None:
    """The attempt's answers to the question are regraded when attempt `until` (the candidate's running
    exam) is handed in; call inside the transaction that fixes the key."""
    conn.execute(
        "INSERT INTO held_regrades (attempt_id, question_id, until_attempt, actor, created_at) VALUES (?,?,?,?,?) "
        "ON CONFLICT (attempt_id, question_id) DO UPDATE SET until_attempt=excluded.until_attempt, actor=excluded.actor, "
        "created_at=excluded.created_at", (attempt_id, question_id, until, actor, now))


def release_in(conn: sqlite3.Connection, attempt_id: int, now: float) -> None:
    """At the hand-in, inside its transaction, before the total is summed: regrade what waited for it
    with the key in force, report each change, and make the held notices due."""
    held = conn.execute("DELETE FROM held_regrades WHERE until_attempt=? RETURNING attempt_id, question_id, actor",
                        (attempt_id,)).fetchall()
    questions = questions_in(conn, {r[1] for r in held})
    told: dict[int, list[dict[str, Any]]] = {}  # question -> the changes on earlier attempts
    user_id = 0
    for aid, qid, actor in sorted(tuple(r) for r in held):
        q = questions.get(qid)
        if q is None:  # the question is gone: its answers keep what they had
            continue
        rows = conn.execute(  # graded by the policy of the paper the answer was given on, as answering did
            "SELECT x.pos, x.response, x.score, x.max_score, x.key_version, t.user_id, t.title, t.invite_id, "
            "t.score AS total, p.multi_policy AS sheet_policy FROM answers x JOIN attempts t ON t.id = x.attempt_id "
            "LEFT JOIN papers p ON p.id = t.paper_id "
            "WHERE x.attempt_id=? AND x.question_id=? AND x.final=1 AND x.reviewed_by IS NULL", (aid, qid)).fetchall()
        for r in rows:
            user_id = r["user_id"]
            g = grade(q, json.loads(r["response"]), multi_policy=policy_of(r["sheet_policy"]))
            new = item_score(g, r["max_score"])
            conn.execute("UPDATE answers SET score=?, verdict=?, key_version=? WHERE attempt_id=? AND pos=?",
                         (new, g.verdict.value, q.version, aid, r["pos"]))
            if new == r["score"]:
                continue
            total = conn.execute(f"UPDATE attempts SET score={ATTEMPT_TOTAL} WHERE id=? AND score IS NOT NULL "
                                 "RETURNING score", (aid, aid)).fetchone()  # the running sheet: summed at hand-in
            record_audit(conn, at=now, actor=actor, chat_id=None, action=REGRADE, target=f"attempt:{aid}",
                            target_user=user_id, **change_detail(
                                question=qid, old=r["total"], new=None if total is None else total[0],
                                answer_old=r["score"], answer_new=new, from_version=r["key_version"],
                                to_version=q.version))
            if aid == attempt_id or total is None:
                continue  # the attempt being handed in: its result card tells the score
            told.setdefault(qid, []).append(notice_change(old=r["score"], new=new, max_score=r["max_score"],
                                                          title=r["title"], attempt=aid, total_old=r["total"],
                                                          total_new=total[0]))
            if r["invite_id"] is not None:
                invite_attempts.regraded_in(conn, r["invite_id"], aid, question_id=qid, version=q.version,
                                            old=r["total"], new=total[0], now=now)
    for qid, changes in told.items():
        outbox.enqueue_in(conn, kind=outbox.Kind.key_fix_notice, ref=f"q{qid}v{questions[qid].version}:a{attempt_id}",
                          chat_id=user_id, user_id=user_id, now=now, payload={"question": qid, "changes": changes})
    outbox.release_on(conn, attempt_id, now)
    ratings.regraded_in(conn, [r[1] for r in held])  # answers that counted for ratings may have changed
