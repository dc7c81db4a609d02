"""Typed answers: fill-in and written questions answered as a message."""

from __future__ import annotations

import logging

from telegram import Message, Update
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop

from bank.errors import AttemptClosed, NotYourAttempt
from bot.context import Ctx
from bot.exam import render
from bot.exam.screen import finish_and_report, offer_finish, show_sheet
from bot.i18n import t
from bot.userctx import UserCtx, user_ctx
from proctor.exams import steps
from proctor.exams.states import FinishReason

log = logging.getLogger(__name__)



async def typed_answer(update: Update, context: Ctx) -> None:
    """A typed answer for the current fill-in or written question of the running attempt: found,
    checked and stored in one round trip (text that is not the exam's goes on to the daily quiz)."""
    msg = context.message
    svc = context.services
    reply_to = msg.reply_to_message.message_id if msg.reply_to_message is not None else None
    out = await steps.take_typed_step(svc.db, context.user.id, msg.text or "", reply_to, svc.now())
    if out is None:
        return  # no running attempt, or a reply to something else (e.g. a daily question)
    u = await user_ctx(update, context)
    await _answer(context, u, out, msg)
    raise ApplicationHandlerStop  # the text was the exam's: the daily quiz's handler need not look at it


async def _answer(context: Ctx, u: UserCtx, out: steps.Outcome, msg: Message) -> None:
    """Say what the typed step did."""
    match out:
        case steps.Expired(attempt=attempt):
            await finish_and_report(context, attempt.id, FinishReason.timeout)
        case steps.Refused(question=q):
            await msg.reply_text(t(render.refused_typed(q), u.lang))
        case steps.Recorded(sheet=sheet, pos=pos, answer=rec, review=review):
            item = sheet.items[pos]
            try:  # the answer is stored: a lost confirmation must not keep the next question from showing
                await msg.reply_text(render.clip(t("recorded", u.lang, n=pos + 1, a=render.shown_response(
                    sheet.question(item), item, rec.response if rec else None, u.lang))))
            except TelegramError as e:
                log.info("attempt %s: could not confirm the answer (%s)", sheet.attempt.id, e)
            if await offer_finish(context, sheet, pos, repost=True, u=u):
                return
            await show_sheet(context, sheet, u, review, repost=True)
        case steps.NotYours():  # cannot be: the attempt was found by its user
            raise NotYourAttempt(str(u.id))
        case _:  # stale or closed, which a typed answer found running cannot be
            raise AttemptClosed(str(u.id))
