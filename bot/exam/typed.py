"""Typed answers: fill-in and written questions answered as a message."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import NamedTuple

from telegram import Message, Update
from telegram.ext import Application, ApplicationHandlerStop

from bot.context import Ctx
from bot.exam import render
from bot.exam.screen import finish_and_report, offer_finish, show_sheet
from bot.i18n import t
from bot.services import Slot
from bot.userctx import UserCtx, user_ctx
from proctor.exams import steps
from proctor.exams.service import AttemptClosed, NotYourAttempt
from proctor.exams.states import FinishReason


class OtherText(NamedTuple):
    """Another feature that takes private text the exam does not (the daily quiz): its lookup and
    step run in the exam's own transaction, so a private text costs one round trip whoever takes it."""

    # (conn, chat id, user id, replied-to message id, text, now) -> its outcome, on the database thread
    step_in: Callable[[sqlite3.Connection, int, int, int | None, str, float], object]
    # its lock for the chat, held around the transaction and `then`
    lock: Callable[[Ctx, int], AbstractAsyncContextManager[object]]
    # what it does with its outcome (under the lock)
    then: Callable[[Update, Ctx, object], Awaitable[None]]


_OTHER: Slot[list[OtherText]] = Slot("exam_other_text", list)


def pass_text_to(app: Application, other: OtherText) -> None:
    """Private text that is not the exam's goes to `other` (one at most)."""
    _OTHER.of(app)[:] = [other]


async def typed_answer(update: Update, context: Ctx) -> None:
    """A typed answer for the current fill-in or written question of the running attempt: found,
    checked and stored in one round trip (text that is not the exam's goes on to the daily quiz, in
    the same round trip)."""
    msg = context.message
    svc = context.services
    reply_to = msg.reply_to_message.message_id if msg.reply_to_message is not None else None
    text, user_id, now = msg.text or "", context.user.id, svc.now()
    other = next(iter(_OTHER.of(context)), None)

    def step_in(conn: sqlite3.Connection) -> tuple[steps.Outcome | None, object]:
        out = steps.typed_step_in(conn, user_id, text, reply_to, now)
        if out is None and other is not None:
            return None, other.step_in(conn, msg.chat_id, user_id, reply_to, text, now)
        return out, None

    async with other.lock(context, msg.chat_id) if other is not None else nullcontext():
        out, theirs = await svc.db.run_write(step_in)
        if out is None:  # no running attempt, or a reply to something else (e.g. a daily question)
            if other is not None:
                await other.then(update, context, theirs)
            return
    u = await user_ctx(update, context)
    await _answer(context, u, out, msg)
    raise ApplicationHandlerStop  # the text was the exam's: no later handler looks at it


async def _answer(context: Ctx, u: UserCtx, out: steps.Outcome, msg: Message) -> None:
    """Say what the typed step did."""
    match out:
        case steps.Expired(attempt=attempt):
            await finish_and_report(context, attempt.id, FinishReason.timeout)
        case steps.Refused(question=q):
            await msg.reply_text(t(render.refused_typed(q), u.lang))
        case steps.Recorded(sheet=sheet, pos=pos, answer=rec, review=review):
            item = sheet.items[pos]
            # one message: the next screen, the confirmation under it (Telegram's 30 sends a second
            # are a round's budget; a typed answer's reply used to be two)
            note = t("recorded", u.lang, n=pos + 1, a=render.shown_response(
                sheet.question(item), item, rec.response if rec else None, u.lang))
            if await offer_finish(context, sheet, pos, repost=True, u=u, note=note):
                return
            await show_sheet(context, sheet, u, review, repost=True, note=note)
        case steps.NotYours():  # cannot be: the attempt was found by its user
            raise NotYourAttempt(str(u.id))
        case _:  # stale or closed, which a typed answer found running cannot be
            raise AttemptClosed(str(u.id))
