"""Typed answers: fill-in and written questions answered as a message."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bank.typed_answer import typed_response
from bot.exam import render
from bot.exam.screen import finish_and_report, offer_finish, show_attempt
from bot.i18n import t
from bot.services import services
from bot.userctx import user_ctx
from proctor.exams import service as attempts

log = logging.getLogger(__name__)



async def typed_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A typed answer for the current fill-in or written question of the running attempt."""
    msg = update.effective_message
    svc = services(context)
    tg_user = update.effective_user
    running = await attempts.running_attempt(svc.db, tg_user.id)
    if running is None:
        return
    if msg.reply_to_message is not None and msg.reply_to_message.message_id != running.message_id:
        return  # a reply to something else (e.g. a daily question) is not for the exam
    u = await user_ctx(update, context)
    sheet = await attempts.own_sheet(svc.db, running.id, u.id)
    if running.deadline is not None and running.deadline <= svc.now():
        await finish_and_report(context, running.id, "timeout")
        return
    item = sheet.current
    q = sheet.question(item)
    # typed letters and true/false words count as on the buttons, as in practice and daily quizzes
    response = typed_response(q, item.order(q), msg.text)
    if response is None:
        await msg.reply_text(t("empty_answer" if q.kind in render.TYPED else "not_typed", u.lang))
        return
    practice = running.mode == "practice"
    rec = await attempts.record_answer(svc.db, sheet, item.pos, response, svc.now(), advance=not practice)
    try:  # the answer is stored: a lost confirmation must not keep the next question from showing
        await msg.reply_text(render.clip(t("recorded", u.lang, n=item.pos + 1,
                                           a=render.shown_response(q, item, rec.response, u.lang))))
    except TelegramError as e:
        log.info("attempt %s: could not confirm the answer (%s)", running.id, e)
    if await offer_finish(context, sheet, item.pos, repost=True):
        return
    await show_attempt(context, running.id, u, repost=True)
