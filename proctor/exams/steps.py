"""One call per answer step of an attempt: a press, a typed answer, Next/Back, Flag, Submit.

`take_step` reads the attempt, decides and writes in one transaction run on the database thread
(one round trip), and returns what happened as an Outcome the handler only renders:

A written answer typed in an exam is kept on its question: each message is added to the answer so
far (a long answer may come in several messages), until the candidate moves on; Clear empties it.

    Recorded  the step took effect (or, for finish_ask/finish_yes/finish_no, may go ahead); `sheet`
              is the attempt after it, with the questions at its current position and at `pos`
    Stale     the button is from an older rendering (a double tap): nothing changed; `sheet` to redraw
    Expired   the time is up: the caller hands the attempt in
    Closed    the attempt is no longer running (or is gone)
    NotYours  the attempt is somebody else's
    Refused   the step does not fit the question (`reason`: a Refusal)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from operator import attrgetter

from bank.grading import grade
from bank.grading.result import Verdict
from bank.kinds import SUBJECTIVE, Kind, MultiPolicy, ReviewOption, review_option
from bank.models import Question
from bank.paper_settings import policy_of
from bank.question_versions import at_version, versions_in
from bank.store import Engine, engine_of
from bank.typed_answer import MAX_TYPED, typed_response
from proctor.exams.deadline import time_is_up
from proctor.exams.drafts import DRAFTED, draft_response, toggled
from proctor.exams.model import AnswerRec, Attempt, Item, Sheet, answers_json, items_json
from proctor.exams.questions import questions_in
from proctor.exams.rated import practised_in
from proctor.exams.scoring import item_score
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.storage.db import Database


class Action(StrEnum):
    """What a step does: an exam button's (decoded by bot/exam/callbacks.py), or typed text."""
    answer = "answer"  # arg: the shown option's index, or t/f
    toggle = "toggle"  # arg: the shown option's index, in the draft of a multiple-choice question
    submit = "submit"  # the draft
    next = "next"
    back = "back"
    flag = "flag"
    typed = "typed"  # arg: the text
    clear = "clear"  # the written answer so far
    finish_ask = "finish_ask"  # finish_*: nothing is written here; the caller asks, hands in or goes on
    finish_yes = "finish_yes"
    finish_no = "finish_no"


class Refusal(StrEnum):
    """Why a step does not fit the question."""
    bad_button = "bad_button"  # an option the question does not show
    empty_draft = "empty_draft"  # Submit with nothing chosen
    unreadable = "unreadable"  # typed text that is no answer to the question


ANSWERING = frozenset({Action.answer, Action.submit, Action.typed})  # the steps that store an answer


@dataclass(frozen=True, slots=True)
class Recorded:
    sheet: Sheet
    pos: int
    answer: AnswerRec | None = None
    review: ReviewOption = ReviewOption.full


@dataclass(frozen=True, slots=True)
class Stale:
    sheet: Sheet
    review: ReviewOption = ReviewOption.full


@dataclass(frozen=True, slots=True)
class Expired:
    attempt: Attempt


@dataclass(frozen=True)
class Closed:
    pass


@dataclass(frozen=True)
class NotYours:
    pass


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Refusal
    question: Question | None = None


Outcome = Recorded | Stale | Expired | Closed | NotYours | Refused


# ---- reading on the database thread ---------------------------------------------------------

# the attempt's row with what its paper says about answering it, and its items and answers, in one read
_SHEET = {engine: f"""SELECT a.*, p.multi_policy AS paper_multi_policy,
                           (p.exam_only <> 0 OR p.invite_only <> 0) AS paper_hiring,
                           p.review AS paper_review, p.id AS paper_found,
                           {items_json(engine)} AS items_json, {answers_json(engine)} AS answers_json
                    FROM attempts a LEFT JOIN papers p ON p.id = a.paper_id WHERE a.id=?""" for engine in Engine}


def sheet_in(conn: sqlite3.Connection, attempt_id: int,
             positions: Iterable[int] | str | None = None) -> Sheet | None:
    """The attempt with its items and answers, and the questions at `positions` (None: the current
    one; "all": every one). None if there is no such attempt."""
    row = conn.execute(_SHEET[engine_of(conn)], (attempt_id,)).fetchone()
    return None if row is None else _sheet_of(conn, row, Attempt.from_row(row), positions)


def _sheet_of(conn: sqlite3.Connection, row: sqlite3.Row, attempt: Attempt,
              positions: Iterable[int] | str | None) -> Sheet:
    """The sheet in a row of _SHEET, with the questions at `positions` (as `sheet_in`)."""
    return _with_questions(conn, _unshown(row, attempt), positions)


def _unshown(row: sqlite3.Row, attempt: Attempt) -> Sheet:
    """The sheet in a row of _SHEET, no question read yet."""
    items = sorted((Item.from_json(v) for v in json.loads(row["items_json"])), key=attrgetter("pos"))
    answers = {a.pos: a for a in (AnswerRec.from_json(v) for v in json.loads(row["answers_json"]))}
    return Sheet(attempt, items, answers, {})


def _with_questions(conn: sqlite3.Connection, sheet: Sheet, positions: Iterable[int] | str | None,
                    read: dict[int, Question] | None = None) -> Sheet:
    """The sheet with the questions at `positions` (None: the current one; "all": every one), as
    shown. `read`: questions already read in this transaction (as stored), used when they suffice."""
    if positions == "all":
        wanted = sheet.items
    else:
        chosen = {sheet.attempt.current_pos} if positions is None else set(positions)
        wanted = [i for i in sheet.items if i.pos in chosen]
    ids = {i.question_id for i in wanted}
    if read is None or not ids <= read.keys():
        read = questions_in(conn, ids)
    questions = _as_shown(conn, wanted, sheet.answers, {q: read[q] for q in ids if q in read})
    return replace(sheet, questions=questions)


def _as_shown(conn: sqlite3.Connection, items: list[Item], answers: dict[int, AnswerRec],
              questions: dict[int, Question]) -> dict[int, Question]:
    """Each question with the text its sheet showed and the key its answer was graded against (or,
    unanswered, the shown version's key). Costs nothing unless a lead edited a question since."""
    wanted: dict[int, tuple[int, int]] = {}
    for i in items:
        q = questions.get(i.question_id)
        if q is None:
            continue
        shown = i.version or q.version
        a = answers.get(i.pos)
        graded = a.key_version if a is not None else shown
        if (shown, graded) != (q.version, q.version):
            wanted[i.question_id] = (shown, graded)
    if not wanted:
        return questions
    stored = versions_in(conn, [(qid, v) for qid, pair in wanted.items() for v in pair])
    for qid, (shown, graded) in wanted.items():
        q = questions[qid]
        questions[qid] = at_version(q, stored.get((qid, shown)) if shown != q.version else None,
                                    stored.get((qid, graded)) if graded != q.version else None)
    return questions


def _paper(row: sqlite3.Row) -> tuple[MultiPolicy, ReviewOption]:
    """The paper's multiple-choice policy and its review option, which practice feedback follows
    (a mock paper: partial, full)."""
    if row["paper_found"] is None:  # a mock paper, or its paper is gone
        return MultiPolicy.partial, ReviewOption.full
    return policy_of(row["paper_multi_policy"]), review_option(bool(row["paper_hiring"]), row["paper_review"])


# ---- writing on the database thread ---------------------------------------------------------

def store_answer_in(conn: sqlite3.Connection, sheet: Sheet, pos: int, response: object, now: float,
                    policy: MultiPolicy, *, advance: bool) -> AnswerRec:
    """Grade and store the answer at `pos` (replacing an earlier one), clear its draft, maybe move on.
    Call inside a write transaction on a running attempt."""
    item = sheet.items[pos]
    question = sheet.question(item)
    g = grade(question, response, multi_policy=policy)
    score = item_score(g, item.points)
    final = g.verdict != Verdict.needs_review
    conn.execute(
        """INSERT INTO answers (attempt_id, pos, question_id, response, score, max_score, verdict, final,
               answered_at, key_version) VALUES (?,?,?,?,?,?,?,?,?,?)
           ON CONFLICT(attempt_id, pos) DO UPDATE SET response=excluded.response, score=excluded.score,
               verdict=excluded.verdict, final=excluded.final, answered_at=excluded.answered_at,
               key_version=excluded.key_version,
               changes=answers.changes + CASE WHEN answers.response IS DISTINCT FROM excluded.response THEN 1 ELSE 0 END""",
        (sheet.attempt.id, pos, item.question_id, json.dumps(response, ensure_ascii=False), score,
         item.points, g.verdict.value, int(final), now, question.version))
    if item.draft:
        conn.execute("UPDATE attempt_items SET draft='' WHERE attempt_id=? AND pos=?", (sheet.attempt.id, pos))
    if advance:
        to = min(pos + 1, len(sheet.items) - 1)
        if conn.execute("UPDATE attempts SET current_pos=? WHERE id=? AND current_pos=?",
                        (to, sheet.attempt.id, pos)).rowcount:
            shown_in(conn, sheet.attempt.id, to, now)
    return AnswerRec(pos, item.question_id, response, score, item.points, g.verdict, final, question.version)


def shown_in(conn: sqlite3.Connection, attempt_id: int, pos: int, now: float) -> None:
    """The question at `pos` goes on screen: the first time is kept (integrity signals time answers
    from it). Inside the step's transaction: no round trip of its own."""
    conn.execute("UPDATE attempt_items SET shown_at=? WHERE attempt_id=? AND pos=? AND shown_at IS NULL",
                 (now, attempt_id, pos))


def _choice(item: Item, question: Question, arg: str | None) -> str | bool | None:
    """The answer a choice button stands for, or None if it does not fit the question."""
    if arg in ("t", "f") and question.kind == Kind.truefalse:
        return arg == "t"
    if arg and arg.isdigit() and question.kind == Kind.single and int(arg) < len(item.option_order):
        return item.original_letter(int(arg))
    return None


@dataclass(frozen=True, slots=True)
class _Read:
    """What a step reads: the sheet with the questions around the current one, and its paper's rules."""

    sheet: Sheet
    near: dict[int, Question]
    policy: MultiPolicy
    review: ReviewOption


@dataclass(frozen=True, slots=True)
class _Change:
    """What a step writes, decided from its reading alone: an answer (graded as it is stored), a
    multiple choice's new draft, a move to another position, or the flag flipped."""

    answer: bool = False
    response: object = None
    stay: bool = False  # the answer is stored without moving on (a written answer, added to)
    clear: bool = False  # the answer is taken away
    draft: str | None = None
    to: int | None = None
    flag: bool = False


def step_in(conn: sqlite3.Connection, attempt_id: int, user_id: int, action: Action, pos: int | None,
            arg: str | None, now: float, sent_at: float | None = None) -> Outcome:
    """The whole step inside one write transaction: read, decide, write. `pos` None: the current
    question (typed text); `sent_at`: a typed message's Telegram date (proctor/exams/deadline.py)."""
    seen = _read_in(conn, attempt_id, user_id, now, sent_at)
    if not isinstance(seen, _Read):
        return seen
    sheet = seen.sheet
    pos = sheet.attempt.current_pos if pos is None else pos
    if pos != sheet.attempt.current_pos or pos >= len(sheet.items):
        return Stale(sheet, seen.review)  # a double tap, or a button from an older rendering
    change = _decide(sheet, action, arg)
    if change is None:  # finish_ask, finish_yes, finish_no: nothing is written here
        return Recorded(sheet, pos, None, seen.review)
    if isinstance(change, Refused):
        return change
    return _write_in(conn, seen, pos, change, now)


def _read_in(conn: sqlite3.Connection, attempt_id: int, user_id: int, now: float,
             sent_at: float | None) -> _Read | Closed | NotYours | Expired:
    """The attempt in one read, if it is the user's and still running, with the questions the step
    may show: the current one and its neighbours (one read for both renderings)."""
    row = conn.execute(_SHEET[engine_of(conn)], (attempt_id,)).fetchone()
    if row is None:
        return Closed()
    a = Attempt.from_row(row)
    if a.user_id != user_id:
        return NotYours()
    if not a.running:
        return Closed()
    if time_is_up(a.deadline, now, sent_at):
        return Expired(a)
    unshown = _unshown(row, a)
    near = questions_in(conn, [i.question_id for i in unshown.items[max(0, a.current_pos - 1):a.current_pos + 2]])
    policy, review = _paper(row)
    return _Read(_with_questions(conn, unshown, None, near), near, policy, review)


def adds_up(sheet: Sheet, q: Question) -> bool:
    """Whether the question on screen takes its written answer in several messages, each added to the
    answer so far and clearable (an exam's written question): the screen keeps it until Next."""
    return q.kind in SUBJECTIVE and sheet.attempt.mode == AttemptMode.exam


def _decide(sheet: Sheet, action: Action, arg: str | None) -> _Change | Refused | None:
    """What the step does to the current question, from the sheet alone (pure). None: nothing to write."""
    item = sheet.current
    q = sheet.question(item)
    match action:
        case Action.answer:
            response: object = _choice(item, q, arg)
            return Refused(Refusal.bad_button, q) if response is None else _Change(answer=True, response=response)
        case Action.typed:
            response = typed_response(q, item.order(q), arg or "")
            if response is None:
                return Refused(Refusal.unreadable, q)
            if adds_up(sheet, q):
                return _Change(answer=True, response=_added(sheet.answers.get(item.pos), str(response)), stay=True)
            return _Change(answer=True, response=response)
        case Action.clear:  # only a written answer made of messages is cleared (a forged press: nothing)
            return _Change(clear=True) if item.pos in sheet.answers and adds_up(sheet, q) else None
        case Action.toggle:
            answered = sheet.answers.get(item.pos)
            new = toggled(q, item.option_order, item.draft, arg, answered.response if answered else None)
            return Refused(Refusal.bad_button, q) if new is None else _Change(draft=new)
        case Action.submit:
            if q.kind not in DRAFTED or not item.draft:
                return Refused(Refusal.empty_draft, q)
            return _Change(answer=True, response=draft_response(q, item.draft))
        case Action.next | Action.back:
            return _Change(to=max(0, min(len(sheet.items) - 1, item.pos + (1 if action == Action.next else -1))))
        case Action.flag:
            return _Change(flag=True)
        case Action.finish_ask | Action.finish_yes | Action.finish_no:  # nothing is written here
            return None


def _added(earlier: AnswerRec | None, text: str) -> str:
    """A written answer with one more message: on a new line after the answer so far."""
    if earlier is None or not isinstance(earlier.response, str) or not earlier.response:
        return text
    return f"{earlier.response}\n{text}"[:MAX_TYPED]


def _write_in(conn: sqlite3.Connection, seen: _Read, pos: int, change: _Change, now: float) -> Recorded:
    """Write what `_decide` chose; the sheet returned is the one read with these writes applied in
    memory (this transaction is the only writer), and only the questions newly on show are read."""
    sheet = seen.sheet
    a, item, to = sheet.attempt, sheet.current, pos
    advance = a.mode != AttemptMode.practice and not change.stay
    answer = None
    answers = sheet.answers
    if change.clear:
        conn.execute("DELETE FROM answers WHERE attempt_id=? AND pos=?", (a.id, pos))
        answers = {p: x for p, x in answers.items() if p != pos}
    if change.answer:  # store_answer_in clears the draft and moves on (the same rules as here)
        answer = store_answer_in(conn, sheet, pos, change.response, now, seen.policy, advance=advance)
        practised_in(conn, a, pos)  # a practice answer counts for ratings at once
        item = replace(item, draft="")
        to = min(pos + 1, len(sheet.items) - 1) if advance else pos
    if change.draft is not None:
        conn.execute("UPDATE attempt_items SET draft=? WHERE attempt_id=? AND pos=?", (change.draft, a.id, pos))
        item = replace(item, draft=change.draft)
    if change.to is not None:
        to = change.to
        conn.execute(f"UPDATE attempts SET current_pos=? WHERE id=? AND status='{AttemptStatus.running}'",
                     (to, a.id))
        shown_in(conn, a.id, to, now)
    if change.flag:
        conn.execute("UPDATE attempt_items SET flagged=1-flagged WHERE attempt_id=? AND pos=?", (a.id, pos))
        item = replace(item, flagged=not item.flagged)
    after = _applied(replace(sheet, answers=answers), item, answer, to)
    return Recorded(_with_questions(conn, after, {pos, to}, seen.near), pos, answer, seen.review)


def _applied(sheet: Sheet, item: Item, answer: AnswerRec | None, current_pos: int) -> Sheet:
    """The sheet as the step left it: its item changed, its answer stored, the current position moved."""
    items = [item if i.pos == item.pos else i for i in sheet.items]
    answers = sheet.answers if answer is None else {**sheet.answers, answer.pos: answer}
    return replace(sheet, attempt=replace(sheet.attempt, current_pos=current_pos), items=items,
                          answers=answers, questions={})


def typed_step_in(conn: sqlite3.Connection, user_id: int, text: str, reply_to: int | None,
                  now: float, sent_at: float | None = None) -> Outcome | None:
    """A typed answer for the user's running attempt, found in the same transaction; `sent_at` is the
    message's Telegram date. None: the text is not the exam's (no running attempt, or a reply to
    another message than the attempt's)."""
    row = conn.execute(f"SELECT id, message_id FROM attempts WHERE user_id=? AND status='{AttemptStatus.running}'",
                       (user_id,)).fetchone()
    if row is None or (reply_to is not None and reply_to != row["message_id"]):
        return None
    return step_in(conn, row["id"], user_id, Action.typed, None, text, now, sent_at)


async def take_step(db: Database, attempt_id: int, user_id: int, action: Action, pos: int | None,
                    arg: str | None, now: float) -> Outcome:
    """Read, decide and write one step in one transaction and one round trip to the database."""
    return await db.run_write(lambda conn: step_in(conn, attempt_id, user_id, action, pos, arg, now))
