"""Answers made with several presses and not yet submitted: counted when the paper is handed in.

Moodle counts what is on the screen at hand-in; so do we. A draft is the set of original letters
ticked on a multi question since its last Submit, or a matching question's pairs made so far
(bank/matching_answer.py: one stored choice letter or "-" per left item); at hand-in (Finish, the
deadline, a late recovery) each non-empty draft is graded and stored as that question's answer,
inside the hand-in's own transaction, before the score is summed. Drafts live in
attempt_items.draft, so a restart keeps them.
"""

from __future__ import annotations

import json
import sqlite3

from bank import matching_answer
from bank.grading import grade
from bank.grading.result import Verdict
from bank.kinds import Kind
from bank.models import Question
from bank.option_order import OptionOrder
from bank.paper_settings import read_multi_policy
from proctor.exams.model import Item
from proctor.exams.questions import questions_in
from proctor.exams.scoring import item_score

DRAFTED = frozenset({Kind.multi, Kind.matching})  # the kinds answered by presses, then Submit


def draft_response(question: Question, draft: str) -> object:
    """What the grader takes for a draft: the ticked letters, or the pairs made."""
    if question.kind == Kind.matching:
        return matching_answer.draft_response(question, draft)
    return draft


def toggled(question: Question, option_order: str, draft: str, arg: str | None,
            answered: object | None = None) -> str | None:
    """The draft after a press on option or left item `arg` (None: the press does not fit), for an
    exam's item or a daily quiz's alike (`option_order`: as shown there).

    multi: the option's letter ticked or unticked; matching: the left item's choice moves on,
    starting from the stored answer when there is no draft yet."""
    if not arg or not arg.isdigit():
        return None
    order = OptionOrder.of(option_order)
    if question.kind == Kind.multi and int(arg) < len(order):
        return "".join(sorted(set(draft) ^ {order.order[int(arg)]}))
    if question.kind == Kind.matching:
        base = draft or matching_answer.response_draft(question, answered)
        return matching_answer.cycle(question, order, base, int(arg))
    return None


def pending_drafts(items: list[Item]) -> list[Item]:
    """Items whose ticks were not submitted (what the Finish screen lists)."""
    return [i for i in items if i.draft]


def count_drafts_in(conn: sqlite3.Connection, attempt_id: int, now: float) -> int:
    """Inside the hand-in's transaction (on the database thread): store each non-empty draft as its
    question's answer and clear it. Returns how many were counted."""
    rows = conn.execute(
        "SELECT i.pos, i.question_id, i.points, i.draft, a.paper_id FROM attempt_items i "
        "JOIN attempts a ON a.id = i.attempt_id WHERE i.attempt_id=? AND i.draft<>''", (attempt_id,)).fetchall()
    if not rows:  # the usual case: nothing ticked and not submitted
        return 0
    questions = questions_in(conn, (r["question_id"] for r in rows))
    policy = read_multi_policy(conn, paper_id=rows[0]["paper_id"])
    counted = 0
    for r in rows:
        q = questions.get(r["question_id"])
        if q is None or q.kind not in DRAFTED:
            continue
        response = draft_response(q, r["draft"])
        g = grade(q, response, multi_policy=policy)
        score = item_score(g, r["points"])
        conn.execute(
            """INSERT INTO answers (attempt_id, pos, question_id, response, score, max_score, verdict, final,
                   answered_at) VALUES (?,?,?,?,?,?,?,?,?)
               ON CONFLICT(attempt_id, pos) DO UPDATE SET response=excluded.response, score=excluded.score,
                   verdict=excluded.verdict, final=excluded.final, answered_at=excluded.answered_at""",
            (attempt_id, r["pos"], r["question_id"], json.dumps(response, ensure_ascii=False), score,
             r["points"], g.verdict.value, int(g.verdict != Verdict.needs_review), now))
        conn.execute("UPDATE attempt_items SET draft='' WHERE attempt_id=? AND pos=?", (attempt_id, r["pos"]))
        counted += 1
    return counted
