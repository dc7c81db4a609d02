"""Exam buttons: choosing a paper, answering, moving, flagging, finishing, cancelling, reviewing."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bank.errors import AlreadyRunning, AttemptClosed, AttemptLimitReached, ExamOnly, NotFound, NotYourAttempt
from bank.models import Kind
from bank.paper_settings import is_invite_only
from bank.paper_store import load_paper
from bot.core import ack
from bot.exam import callbacks as cb
from bot.exam import render
from bot.exam.commands import MOCK_BLUEPRINT
from bot.exam.jobs import arm_deadline, disarm_deadline
from bot.exam.jump import navigate
from bot.exam.review import review
from bot.exam.screen import finish_and_report, offer_finish, release_daily, show_attempt
from bot.i18n import t
from bot.services import services
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.exams import service as attempts

log = logging.getLogger(__name__)



async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every exam button: validate the data, check the owner, then act."""
    query = update.callback_query
    u = await user_ctx(update, context)
    data = cb.parse(query.data)
    if data is None:
        await ack(query, t("button_unknown", u.lang))
        return
    try:
        if isinstance(data, cb.Pick):
            await _pick(update, context, u, data)
        else:
            await _act(update, context, u, data)
    except NotYourAttempt:
        await ack(query, t("not_yours", u.lang))
    except (AttemptClosed, NotFound):
        await ack(query, t("exam_closed", u.lang))


async def _pick(update: Update, context, u: UserCtx, data: cb.Pick) -> None:
    query = update.callback_query
    svc = services(context)
    if update.effective_chat.type != ChatType.PRIVATE:
        await ack(query, t("private_only", u.lang))
        return
    if data.paper_id is not None and await is_invite_only(svc.db, data.paper_id):
        await ack(query, t("invite_only", u.lang), show_alert=True)  # only an invite opens it
        return
    if not data.start:
        paper = await load_paper(svc.db, data.paper_id)
        used = await attempts.used_attempts(svc.db, u.id, paper.id)
        text, kb = render.rules_card(paper, used, u.lang)
        await ack(query)
        await query.message.reply_text(text, reply_markup=kb)
        return
    try:
        attempt = await attempts.start_attempt(
            svc.db, user_id=u.id, chat_id=update.effective_chat.id, paper_id=data.paper_id, mode=data.mode,
            now=svc.now(), shuffle=svc.settings.shuffle_options,
            blueprint=MOCK_BLUEPRINT if data.paper_id is None else None)
    except AlreadyRunning:
        await ack(query, t("already_running", u.lang), show_alert=True)
        return
    except AttemptLimitReached as e:
        await ack(query, clip(t("limit_reached", u.lang, title=str(e)), MAX_TOAST), show_alert=True)
        return
    except ExamOnly:
        await ack(query, t("exam_only", u.lang), show_alert=True)
        return
    if attempt.deadline is not None:  # armed before anything is said: a failed call cannot strand it
        arm_deadline(context.application, attempt.id, attempt.deadline)
    await ack(query)
    await show_attempt(context, attempt.id, u, repost=True)


async def _act(update: Update, context, u: UserCtx, data: cb.Act) -> None:
    query = update.callback_query
    svc = services(context)
    if data.action in ("cancel_yes", "cancel_no"):
        await _cancel_confirmed(update, context, u, data)
        return
    if data.action in ("grid", "jump"):
        await navigate(update, context, u, data)
        return
    if data.action in ("review", "review_all"):
        await review(update, context, u, data)
        return
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if sheet.attempt.deadline is not None and sheet.attempt.deadline <= svc.now():
        await finish_and_report(context, sheet.attempt.id, "timeout")
        await ack(query, t("exam_closed", u.lang))
        return
    if data.pos != sheet.attempt.current_pos or data.pos >= len(sheet.items):
        # a double tap, or a button from an older rendering: nothing changes
        await ack(query, t("stale_button", u.lang))
        await show_attempt(context, sheet.attempt.id, u)
        return
    item = sheet.current
    q = sheet.question(item)
    practice = sheet.attempt.mode == "practice"
    if data.action == "answer":
        if data.arg in ("t", "f") and q.kind == Kind.truefalse:
            response = data.arg == "t"
        elif data.arg and data.arg.isdigit() and q.kind == Kind.single and int(data.arg) < len(item.option_order):
            response = item.original_letter(int(data.arg))
        else:
            await ack(query, t("button_unknown", u.lang))
            return
        await attempts.record_answer(svc.db, sheet, item.pos, response, svc.now(), advance=not practice)
    elif data.action == "toggle":
        if q.kind != Kind.multi or not data.arg.isdigit() or int(data.arg) >= len(item.option_order):
            await ack(query, t("button_unknown", u.lang))
            return
        await attempts.toggle_draft(svc.db, sheet.attempt.id, item.pos, item.original_letter(int(data.arg)))
    elif data.action == "submit":
        if q.kind != Kind.multi or not item.draft:
            await ack(query, clip(t("draft", u.lang, a="—"), MAX_TOAST))
            return
        await attempts.record_answer(svc.db, sheet, item.pos, item.draft, svc.now(), advance=not practice)
    elif data.action in ("next", "back"):
        step = 1 if data.action == "next" else -1
        await attempts.move_to(svc.db, sheet.attempt.id, max(0, min(len(sheet.items) - 1, item.pos + step)))
    elif data.action == "flag":
        await attempts.toggle_flag(svc.db, sheet.attempt.id, item.pos)
    elif data.action == "finish_ask":
        text, kb = render.finish_confirm(sheet, u.lang)
        await ack(query)
        await _edit(query, text, kb)
        return
    elif data.action == "finish_no":
        pass
    elif data.action == "finish_yes":
        await finish_and_report(context, sheet.attempt.id, "submitted")
        await ack(query)
        return
    await ack(query)
    if data.action in ("answer", "submit") and await offer_finish(context, sheet, item.pos):
        return
    await show_attempt(context, sheet.attempt.id, u)


async def _cancel_confirmed(update: Update, context, u: UserCtx, data: cb.Act) -> None:
    query = update.callback_query
    svc = services(context)
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if data.action == "cancel_no":
        await ack(query)
        await _edit(query, t("cancel_kept", u.lang), None)
        return
    running = sheet.attempt
    await attempts.finish_attempt(svc.db, running.id, svc.now(), "cancelled")
    disarm_deadline(context.application, running.id)
    await release_daily(context, u.id)
    await ack(query)
    if running.message_id:
        try:
            await context.bot.edit_message_reply_markup(running.chat_id, running.message_id, reply_markup=None)
        except BadRequest:
            pass
    await _edit(query, t("cancelled", u.lang, title=running.title), None)


async def _edit(query, text, kb) -> None:
    try:
        await query.edit_message_text(text, reply_markup=kb)
    except BadRequest as e:
        if "not modified" not in str(e).lower():
            raise
