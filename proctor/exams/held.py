"""A key fixed while a candidate's exam runs waits for their hand-in.

The key changes for everyone at once (proctor/teams/question_edit.py), but nothing about it reaches a
candidate whose running exam seals the question (proctor/exams/seal.py): their answers to it on that
sheet are not regraded (`hold_in` notes the question), and every notice meant for them waits in the
outbox (`outbox.enqueue_in(held_by=...)`). The transaction that closes the attempt (Finish, the
deadline, a cancel: proctor.exams.service.hand_in_in) calls `release_in`: those answers are graded
with the key in force then, before the total is summed, and the held notices fall due. Both live in
SQLite, so a restart between the fix and the hand-in loses nothing.
"""

from __future__ import annotations

import json
import sqlite3

import aiosqlite

from bank.grading import grade
from bank.paper_settings import read_multi_policy
from bank.store import record_audit_on
from proctor import outbox
from proctor.exams.questions import questions_in
from proctor.exams.scoring import item_score

REGRADED_AT_HAND_IN = "regrade_at_hand_in"  # the audit action of an answer regraded by `release_in`


async def hold_in(conn: aiosqlite.Connection, attempt_id: int, question_id: int, *, actor: int, now: float) -> None:
    """The running attempt's answers to the question are regraded at its hand-in; call inside the
    transaction that fixes the key."""
    await conn.execute(
        "INSERT INTO held_regrades (attempt_id, question_id, actor, created_at) VALUES (?,?,?,?) "
        "ON CONFLICT DO UPDATE SET actor=excluded.actor, created_at=excluded.created_at",
        (attempt_id, question_id, actor, now))


def release_in(conn: sqlite3.Connection, attempt_id: int, now: float) -> None:
    """At the hand-in, inside its transaction, before the total is summed: grade the attempt's held
    answers with the key in force (each change audited), and make its held notices due."""
    held = conn.execute("DELETE FROM held_regrades WHERE attempt_id=? RETURNING question_id, actor",
                        (attempt_id,)).fetchall()
    if held:
        user_id = conn.execute("SELECT user_id FROM attempts WHERE id=?", (attempt_id,)).fetchone()[0]
        questions = questions_in(conn, [r[0] for r in held])
        for question_id, actor in held:
            q = questions.get(question_id)
            if q is None:  # the question is gone: its answers keep what they had
                continue
            policy = read_multi_policy(conn, question_id=question_id)
            rows = conn.execute(
                "SELECT pos, response, score, max_score, key_version FROM answers WHERE attempt_id=? "
                "AND question_id=? AND final=1 AND reviewed_by IS NULL", (attempt_id, question_id)).fetchall()
            for pos, response, old, max_score, version in rows:
                g = grade(q, json.loads(response), multi_policy=policy)
                new = item_score(g, max_score)
                conn.execute("UPDATE answers SET score=?, verdict=?, key_version=? WHERE attempt_id=? AND pos=?",
                             (new, g.verdict.value, q.version, attempt_id, pos))
                if new != old:
                    record_audit_on(conn, at=now, actor=actor, chat_id=None, action=REGRADED_AT_HAND_IN,
                                    target=f"attempt:{attempt_id}", target_user=user_id, question=question_id,
                                    answer_old=old, answer_new=new, from_version=version, to_version=q.version)
    outbox.release_on(conn, attempt_id, now)
