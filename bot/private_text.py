"""Text typed in a private chat (not a command): an answer to the running exam, or to the daily quiz.

The one handler for it sits above both features (it imports bot.exam and bot.daily; neither imports
the other). Text belongs to the exam while the user has a running attempt, unless it replies to
another message than the attempt's (a daily question, say). The exam's lookup and step and, when the
exam does not take the text, the daily quiz's run in one write transaction (one round trip whoever
takes it), under the daily quiz's lock for the chat; each feature says what its step did.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, MessageHandler, filters

from bot.context import Ctx
from bot.daily import answering
from bot.daily.locks import chat_lock
from bot.exam import typed
from proctor.daily import steps as daily_steps
from proctor.exams import steps as exam_steps

GROUP = 2  # after authoring's admin-only text handlers (groups 0 and 1)


@dataclass(frozen=True, slots=True)
class ExamTook:
    """The text was a typed answer for the running attempt."""

    out: exam_steps.Outcome


@dataclass(frozen=True, slots=True)
class DailyTook:
    """The exam did not take the text: what the daily quiz did with it (NotTaken: nothing)."""

    out: daily_steps.Outcome | daily_steps.NotTaken


def step_in(conn: sqlite3.Connection, chat_id: int, user_id: int, reply_to: int | None, text: str,
            now: float, sent_at: float) -> ExamTook | DailyTook:
    """On the database thread, in one transaction: the exam's typed step (judged by `sent_at`, the
    message's Telegram date, against its deadline); when the exam does not take the text, the daily quiz's."""
    out = exam_steps.typed_step_in(conn, user_id, text, reply_to, now, sent_at)
    if out is not None:
        return ExamTook(out)
    return DailyTook(daily_steps.typed_in(conn, chat_id, user_id, reply_to, text, now))


async def private_text(update: Update, context: Ctx) -> None:
    """A private text: found, checked and stored in one round trip by the exam or the daily quiz."""
    msg = context.message
    svc = context.services
    reply_to = msg.reply_to_message.message_id if msg.reply_to_message is not None else None
    text, chat_id, user_id, now = msg.text or "", msg.chat_id, context.user.id, svc.now()
    sent_at = msg.date.timestamp()
    async with chat_lock(context.application, chat_id):
        took = await svc.db.run_write(lambda conn: step_in(conn, chat_id, user_id, reply_to, text, now, sent_at))
        if isinstance(took, DailyTook):  # under the lock: the daily quiz's next question, or its summary
            await answering.private_text(update, context, took.out)
            return
    await typed.typed_answer(update, context, took.out)
    raise ApplicationHandlerStop  # the text was the exam's: no later handler looks at it


def register(app: Application) -> None:
    """Add the one handler for private text that is not a command."""
    text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(text, private_text), group=GROUP)
