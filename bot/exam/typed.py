"""Typed answers: fill-in and written questions answered as a message."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop

from bank.errors import AttemptClosed, NotYourAttempt
from bot.context import Ctx
from bot.exam import render
from bot.exam.screen import finish_and_report, offer_finish, show_sheet
from bot.i18n import t
from bot.userctx import user_ctx
from proctor.exams import service as attempts
from proctor.exams import steps
from proctor.exams.states import FinishReason

log = logging.getLogger(__name__)



async def typed_answer(update: Update, context: Ctx) -> None:
    """A typed answer for the current fill-in or written question of the running attempt."""
    msg = context.message
    svc = context.services
    tg_user = context.user
    running = await attempts.running_attempt(svc.db, tg_user.id)
    if running is None:
        return
    if msg.reply_to_message is not None and msg.reply_to_message.message_id != running.message_id:
        return  # a reply to something else (e.g. a daily question) is not for the exam
    u = await user_ctx(update, context)
    await _answer(update, context, u, running.id, msg)
    raise ApplicationHandlerStop  # the text was the exam's: the daily quiz's handler need not look at it


async def _answer(update: Update, context: Ctx, u, attempt_id: int, msg) -> None:
    """Take the typed step and say what it did."""
    svc = context.services
    out = await steps.take_step(svc.db, attempt_id, u.id, "typed", None, msg.text, svc.now())
    match out:
        case steps.Expired():
            await finish_and_report(context, attempt_id, FinishReason.timeout)
        case steps.Refused(question=q):
            await msg.reply_text(t(render.refused_typed(q), u.lang))
        case steps.Recorded(sheet=sheet, pos=pos, answer=rec, review=review):
            item = sheet.items[pos]
            try:  # the answer is stored: a lost confirmation must not keep the next question from showing
                await msg.reply_text(render.clip(t("recorded", u.lang, n=pos + 1, a=render.shown_response(
                    sheet.question(item), item, rec.response if rec else None, u.lang))))
            except TelegramError as e:
                log.info("attempt %s: could not confirm the answer (%s)", attempt_id, e)
            if await offer_finish(context, sheet, pos, repost=True):
                return
            await show_sheet(context, sheet, u, review, repost=True)
        case steps.NotYours():
            raise NotYourAttempt(str(attempt_id))
        case _:  # closed meanwhile (or stale, which a typed answer cannot be)
            raise AttemptClosed(str(attempt_id))
