"""What a private quiz sends next, decided on the database thread (in an answer's own transaction).

A private quiz asks one question at a time: the first unanswered one, unless the user's running
exam seals it (it waits for the hand-in); once all are answered, the summary. A question about to
go out is counted as sending here (delivery.mark_sending_in), before Telegram sees it; the caller
sends it and records its message id in one more round trip (delivery.mark_sent_and_open). A crash
in between sends it again on resume: never lost, at most one copy more, both copies taking answers.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bank.models import Question
from proctor.daily.answers import Answer, user_answers_in
from proctor.daily.delivery import Delivery, Item, items_in, mark_sending_in, move_in
from proctor.daily.states import Move
from proctor.daily.streaks import streaks_in
from proctor.daily.subscriptions import Subscription, subscription_in
from proctor.exams.questions import questions_in
from proctor.exams.seal import sealed_in
from proctor.people.users import UserPrefs, prefs_in


@dataclass(frozen=True, slots=True)
class Ask:
    """The next question, counted as sending: send it, then mark it sent."""

    item: Item
    question: Question
    total: int
    prefs: UserPrefs | None  # the chat's user: their language and script


@dataclass(frozen=True)
class Held:
    """The next question waits for the user's exam to be handed in."""


@dataclass(frozen=True, slots=True)
class Summary:
    """Every question answered: what the summary shows."""

    answers: list[Answer]  # none whose verdict the user's running exam seals
    total: int
    streak: int
    subscription: Subscription | None


Next = Ask | Held | Summary | None  # None: nothing to send (the next question is in the chat already)


def next_in(conn: sqlite3.Connection, delivery: Delivery, *, summary: bool) -> Next:
    """What the private quiz sends now; `summary`: the summary once all is answered (else None).
    Moves the delivery as the send does: sending before a question goes out, open when all due is out."""
    user_id = delivery.chat_id
    items = items_in(conn, delivery.id)
    done = user_answers_in(conn, delivery.id, user_id)
    answered = {a.pos for a in done}
    waiting = next((i for i in items if i.pos not in answered), None)
    if waiting is not None and waiting.message_id is None:
        if sealed_in(conn, user_id).covers(waiting.question_id):
            return Held()
        question = questions_in(conn, [waiting.question_id]).get(waiting.question_id)
        if question is None:  # gone from the bank: never here (questions are kept), and nothing to send
            return None
        move_in(conn, delivery.id, Move.start_sending)
        mark_sending_in(conn, delivery.id, waiting.pos)
        return Ask(waiting, question, len(items), prefs_in(conn, user_id))
    move_in(conn, delivery.id, Move.open)
    return summary_in(conn, delivery, items, done) if waiting is None and summary else None


def summary_in(conn: sqlite3.Connection, delivery: Delivery, items: list[Item], done: list[Answer]) -> Summary:
    """The private quiz's summary from the user's answers `done` (read once, by next_in): the answers (a
    sealed one's verdict left out), the streak, the schedule."""
    seal = sealed_in(conn, delivery.chat_id)
    if seal:  # counting a sealed answer's verdict in would tell it
        hidden = {i.pos for i in items if seal.covers(i.question_id)}
        done = [a for a in done if a.pos not in hidden]
    run = streaks_in(conn, delivery.chat_id, [delivery.chat_id], delivery.day)[delivery.chat_id]
    return Summary(done, len(items), run, subscription_in(conn, delivery.chat_id))
