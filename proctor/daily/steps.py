"""One call per daily quiz answer step: a tap (pick, toggle, submit) or a typed answer.

`answer_step` reads the delivery, the item, the user's earlier answer and draft, grades, and
writes in one transaction run on the database thread (one round trip). It returns an Outcome the
handler only renders:

    Recorded   the first answer counted: the grade, and whether the user's running exam seals the key;
               in a private quiz also what comes next (proctor/daily/private_next.py)
    Toggled    a multiple-choice draft changed (or an empty one was submitted): the letters now
    Answered   the user answered this question before: their first answer stands (a stale tap)
    Closed     the quiz no longer takes answers
    NotYours   somebody else's private quiz
    Refused    the press does not fit (`reason`: a Refusal)
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from bank.grading import grade
from bank.grading.result import Grade
from bank.kinds import Kind
from bank.models import Question
from bank.option_order import OptionOrder
from bank.paper_settings import read_multi_policy
from bank.typed_answer import typed_response
from proctor.chats import note_member_in
from proctor.daily.answers import Answer, _answer, daily_score
from proctor.daily.delivery import Delivery, Item, _delivery, _item, item_by_message_in, waiting_item_in
from proctor.daily.fsrs_cards import review_in
from proctor.daily.private_next import Next, next_in
from proctor.daily.rated import answered_in
from proctor.exams.drafts import DRAFTED, draft_response, toggled
from proctor.exams.questions import questions_in
from proctor.exams.seal import sealed_in
from proctor.exams.service import running_in
from proctor.storage.db import Database


class Action(StrEnum):
    """What a step does: a daily button's (decoded by bot/daily/callbacks.py), or typed text."""
    pick = "pick"  # arg: the shown option's index, or t/f
    toggle = "toggle"  # arg: the shown option's index, in the draft of a multiple-choice question
    submit = "submit"  # the draft
    typed = "typed"  # arg: the text


class Refusal(StrEnum):
    """Why a step does not fit."""
    bad_button = "bad_button"  # not the item's message, or an option the question does not show
    unreadable = "unreadable"  # typed text that is no answer to the question


class Untaken(StrEnum):
    """Why no daily question takes a private text."""
    exam = "exam"  # the running exam takes typed text
    idle = "idle"  # no question waits for an answer
    closed = "closed"  # the quiz it replies to or waits in no longer takes answers


@dataclass(frozen=True, slots=True)
class Spot:
    """Where the step happened: the delivery, its item, the question and the quiz's size."""

    delivery: Delivery
    item: Item
    question: Question
    total: int
    chat_title: str = ""


@dataclass(frozen=True, slots=True)
class Recorded:
    spot: Spot
    response: object
    grade: Grade
    sealed: bool
    then: Next = None  # a private quiz's next question (counted as sending) or summary, same transaction


@dataclass(frozen=True, slots=True)
class Toggled:
    spot: Spot
    letters: str


@dataclass(frozen=True, slots=True)
class Answered:
    spot: Spot
    earlier: Answer


@dataclass(frozen=True, slots=True)
class Closed:
    spot: Spot | None = None


@dataclass(frozen=True)
class NotYours:
    pass


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Refusal
    spot: Spot | None = None


Outcome = Recorded | Toggled | Answered | Closed | NotYours | Refused

_DELIVERY = ("SELECT d.*, c.type AS chat_type, c.title AS chat_title FROM daily_deliveries d "
             "JOIN chats c ON c.id = d.chat_id WHERE d.id=?")


def _spot(conn: sqlite3.Connection, delivery_id: int, pos: int) -> Spot | None:
    row = conn.execute(_DELIVERY, (delivery_id,)).fetchone()
    irow = conn.execute("SELECT * FROM daily_items WHERE delivery_id=? AND pos=?", (delivery_id, pos)).fetchone()
    if row is None or irow is None:
        return None
    item = _item(irow)
    question = questions_in(conn, [item.question_id]).get(item.question_id)
    if question is None:
        return None
    total = conn.execute("SELECT COUNT(*) FROM daily_items WHERE delivery_id=?", (delivery_id,)).fetchone()[0]
    return Spot(_delivery(row), item, question, total, row["chat_title"] or "")


def _original(spot: Spot, shown: str | None) -> str | None:
    if shown is None or not shown.isdigit():
        return None
    return OptionOrder.of(spot.item.option_order, spot.question.letter_refs).original_letter(int(shown))


def step_in(conn: sqlite3.Connection, delivery_id: int, pos: int, user_id: int, action: Action, arg: str | None,
            now: float, message: tuple[int, int] | None) -> Outcome:
    """The whole step inside one write transaction. `message` (chat id, message id): the press's
    message, which must be the item's (or a copy of an item maybe sent twice); None for typed text
    whose item the caller found."""
    spot = _spot(conn, delivery_id, pos)
    if spot is None:
        return Refused(Refusal.bad_button)
    d, item, q = spot.delivery, spot.item, spot.question
    if message is not None and (message[0] != d.chat_id
                                or (message[1] != item.message_id and not item.maybe_duplicated)):
        return Refused(Refusal.bad_button, spot)
    if d.private and user_id != d.chat_id:
        return NotYours()
    if not d.accepts_answers:
        return Closed(spot)
    typed = None
    if action == Action.typed:  # unreadable text says nothing, not even "answered already"
        typed = typed_response(q, OptionOrder.of(item.option_order, q.letter_refs), arg or "")
        if typed is None:
            return Refused(Refusal.unreadable, spot)
    earlier = conn.execute("SELECT * FROM daily_answers WHERE delivery_id=? AND pos=? AND user_id=?",
                           (d.id, pos, user_id)).fetchone()
    if earlier is not None:
        return Answered(spot, _answer(earlier))
    response: object | None = None
    match action:
        case Action.pick if q.kind == Kind.truefalse and arg in ("t", "f"):
            response = arg == "t"
        case Action.pick if q.kind == Kind.single and arg not in (None, "t", "f"):
            response = _original(spot, arg)
        case Action.toggle if q.kind in DRAFTED:
            row = conn.execute("SELECT letters FROM daily_drafts WHERE delivery_id=? AND pos=? AND user_id=?",
                               (d.id, pos, user_id)).fetchone()
            letters = toggled(q, item.option_order, row[0] if row else "", arg)
            if letters is None:
                return Refused(Refusal.bad_button, spot)
            conn.execute(
                """INSERT INTO daily_drafts (delivery_id, pos, user_id, letters, updated_at) VALUES (?,?,?,?,?)
                   ON CONFLICT(delivery_id, pos, user_id) DO UPDATE SET letters=excluded.letters,
                       updated_at=excluded.updated_at""", (d.id, pos, user_id, letters, now))
            return Toggled(spot, letters)
        case Action.submit if q.kind in DRAFTED:
            row = conn.execute("SELECT letters FROM daily_drafts WHERE delivery_id=? AND pos=? AND user_id=?",
                               (d.id, pos, user_id)).fetchone()
            if not (row and row[0]):
                return Toggled(spot, "")
            response = draft_response(q, row[0])
        case Action.typed:
            response = typed
    if response is None:
        return Refused(Refusal.bad_button, spot)
    g = grade(q, response, multi_policy=read_multi_policy(conn, question_id=q.id))
    conn.execute(
        """INSERT INTO daily_answers (delivery_id, pos, user_id, chat_id, day, question_id,
               response, score, max_score, verdict, answered_at)
           VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
        (d.id, pos, user_id, d.chat_id, d.day, item.question_id, json.dumps(response, ensure_ascii=False),
         daily_score(g, g.max_score), g.max_score, g.verdict, now))
    conn.execute("DELETE FROM daily_drafts WHERE delivery_id=? AND pos=? AND user_id=?", (d.id, pos, user_id))
    review_in(conn, user_id, item.question_id, g.verdict, now)
    answered_in(conn, d.private, d.id, pos, user_id)  # a private quiz's answer counts for ratings at once
    if not d.private:
        note_member_in(conn, d.chat_id, user_id, now)
    then = next_in(conn, d, summary=True) if d.private else None
    return Recorded(spot, response, g, sealed_in(conn, user_id).covers(q.id), then)


@dataclass(frozen=True, slots=True)
class NotTaken:
    """Private text no daily question takes."""

    reason: Untaken


def typed_in(conn: sqlite3.Connection, chat_id: int, user_id: int, reply_to: int | None, text: str,
             now: float) -> Outcome | NotTaken:
    """Typed text in a private chat, in one write transaction: the daily question it replies to, or
    (unless the user's running exam takes typed text) the one waiting for an answer; then the step."""
    hit = item_by_message_in(conn, chat_id, reply_to) if reply_to is not None else None
    if hit is None:
        if running_in(conn, user_id) is not None:
            return NotTaken(Untaken.exam)
        hit = waiting_item_in(conn, chat_id, user_id)
        if hit is None:
            return NotTaken(Untaken.idle)
    delivery, item = hit
    if not delivery.private or not delivery.accepts_answers:
        return NotTaken(Untaken.closed)
    return step_in(conn, delivery.id, item.pos, user_id, Action.typed, text, now, None)


def reply_in(conn: sqlite3.Connection, chat_id: int, replied_message_id: int, user_id: int, text: str,
             now: float) -> tuple[Delivery, Item, Outcome] | None:
    """A typed reply in a group to the daily question `replied_message_id`: its item found, and
    the step, in one transaction. None: that message is no recorded item (the caller may look for
    an unrecorded copy, bot.daily.answering)."""
    hit = item_by_message_in(conn, chat_id, replied_message_id)
    if hit is None:
        return None
    delivery, item = hit
    return delivery, item, step_in(conn, delivery.id, item.pos, user_id, Action.typed, text, now, None)


async def reply_step(db: Database, chat_id: int, replied_message_id: int, user_id: int, text: str,
                     now: float) -> tuple[Delivery, Item, Outcome] | None:
    """`reply_in` in one round trip."""
    return await db.run_write(lambda conn: reply_in(conn, chat_id, replied_message_id, user_id, text, now))


async def answer_step(db: Database, delivery_id: int, pos: int, user_id: int, action: Action, arg: str | None,
                      now: float, *, message: tuple[int, int] | None = None) -> Outcome:
    """Read, decide and write one answer step in one transaction and one round trip."""
    return await db.run_write(lambda conn: step_in(conn, delivery_id, pos, user_id, action, arg, now, message))
