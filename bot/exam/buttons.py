"""Exam buttons: choosing a paper, answering, moving, flagging, finishing, cancelling, reviewing."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest

from bank.errors import NotFound
from bank.paper_list import paper_summary
from bank.paper_settings import is_invite_only
from bot.attempt_title import attempt_title
from bot.context import Ctx
from bot.core import ack
from bot.edits import edit_text, message_gone, not_modified
from bot.exam import callbacks as cb
from bot.exam import render
from bot.exam.hand_in import finish_and_report, release_daily
from bot.exam.jobs import arm_deadline, disarm_deadline
from bot.exam.jump import navigate
from bot.exam.review import review
from bot.exam.show import offer_finish, show_attempt, show_sheet
from bot.i18n import t
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.exams import service as attempts
from proctor.exams import steps
from proctor.exams.deadline import time_is_up
from proctor.exams.service import AlreadyRunning, AttemptClosed, AttemptLimitReached, ExamOnly, NotYourAttempt
from proctor.exams.sittings import sittings
from proctor.exams.states import AttemptMode, FinishReason

log = logging.getLogger(__name__)


async def button(update: Update, context: Ctx) -> None:
    """Every exam button: validate the data, check the owner, then act."""
    query = context.query
    data = cb.parse(query.data)
    u = await user_ctx(update, context)  # read by the update's claim: no round trip of its own
    try:
        match data:
            case cb.Act(action=steps.Action() as action):
                await _step(context, u, data, action)
            case cb.Act(action=cb.Screen() as screen):
                await _act(update, context, u, data, screen)
            case cb.Pick():
                await _pick(update, context, u, data)
            case None:
                await ack(query, t("button_unknown", u.lang))
    except NotYourAttempt:
        await ack(query, t("not_yours", u.lang))
    except (AttemptClosed, NotFound):
        await ack(query, t("exam_closed", u.lang))


async def _pick(update: Update, context: Ctx, u: UserCtx, data: cb.Pick) -> None:
    query = context.query
    svc = context.services
    if context.chat.type != ChatType.PRIVATE:
        await ack(query, t("private_only", u.lang))
        return
    if data.paper_id is not None and await is_invite_only(svc.db, data.paper_id):
        await ack(query, t("invite_only", u.lang), show_alert=True)  # only an invite opens it
        return
    if not data.start:
        if data.paper_id is None:  # the mock's rules card comes from /exam random, never from a button
            await ack(query, t("button_unknown", u.lang))
            return
        paper = await paper_summary(svc.db, data.paper_id)  # raises NotFound, as loading it whole did
        sat = await sittings(svc.db, u.id, data.paper_id)
        text, kb = render.rules_card(paper, sat, u.lang, u.script)
        await ack(query)
        await context.message.reply_text(text, reply_markup=kb)
        return
    try:
        attempt = await attempts.start_attempt(
            svc.db, user_id=u.id, chat_id=context.chat.id, paper_id=data.paper_id, mode=data.mode,
            now=svc.now(), shuffle=svc.settings.shuffle_options)
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


async def _act(update: Update, context: Ctx, u: UserCtx, data: cb.Act, screen: cb.Screen) -> None:
    match screen:
        case cb.Screen.cancel_yes | cb.Screen.cancel_no:
            await _cancel_confirmed(update, context, u, data, keep=screen == cb.Screen.cancel_no)
        case cb.Screen.grid | cb.Screen.jump:
            await navigate(update, context, u, data)
        case cb.Screen.review | cb.Screen.review_all:
            await review(update, context, u, data)


async def _step(context: Ctx, u: UserCtx, data: cb.Act, action: steps.Action) -> None:
    """Answer, move, flag, finish: one step of the attempt (one round trip)."""
    svc = context.services
    out = await steps.take_step(svc.db, data.attempt_id, u.id, action, data.pos, data.arg, svc.now())
    await _render(context, context.query, u, action, out)


async def _render(context: Ctx, query, u: UserCtx, action: steps.Action, out: steps.Outcome) -> None:
    """Say what the step did: the handler decides nothing here."""
    match out:
        case steps.NotYours():
            await ack(query, t("not_yours", u.lang))
        case steps.Closed():
            await ack(query, t("exam_closed", u.lang))
        case steps.Expired(attempt=attempt):
            await finish_and_report(context, attempt.id, FinishReason.timeout)
            await ack(query, t("exam_closed", u.lang))
        case steps.Stale(sheet=sheet, review=review):
            await ack(query, t("stale_button", u.lang))
            await show_sheet(context, sheet, u, review)
        case steps.Refused(reason=steps.Refusal.empty_draft):
            await ack(query, clip(t("draft", u.lang, a="—"), MAX_TOAST))
        case steps.Refused():
            await ack(query, t("button_unknown", u.lang))
        case steps.Recorded(sheet=sheet, pos=pos, review=review):
            match action:
                case steps.Action.finish_ask:
                    text, kb = render.finish_confirm(sheet, u.lang)
                    await ack(query)
                    await _edit(query, text, kb)
                case steps.Action.finish_yes:
                    await finish_and_report(context, sheet.attempt.id, FinishReason.submitted)
                    await ack(query)
                case _:
                    await ack(query)
                    if action in steps.ANSWERING and await offer_finish(context, sheet, pos):
                        return
                    await show_sheet(context, sheet, u, review)


async def _cancel_confirmed(update: Update, context: Ctx, u: UserCtx, data: cb.Act, *, keep: bool) -> None:
    query = context.query
    svc = context.services
    sheet = await attempts.own_sheet(svc.db, data.attempt_id, u.id)
    if keep:
        await ack(query)
        kept = "cancel_kept_practice" if sheet.attempt.mode == AttemptMode.practice else "cancel_kept"
        await _edit(query, t(kept, u.lang), None)
        if time_is_up(sheet.attempt.deadline, svc.now()):
            await finish_and_report(context, sheet.attempt.id, FinishReason.timeout)  # as /resume does
        else:
            await show_attempt(context, sheet.attempt.id, u, repost=True)  # the screen again, below the prompt
        return
    running = sheet.attempt
    await attempts.finish_attempt(svc.db, running.id, svc.now(), FinishReason.cancelled)
    disarm_deadline(context.application, running.id)
    await release_daily(context, u.id)
    await ack(query)
    if running.message_id:
        try:
            await context.bot.edit_message_reply_markup(running.chat_id, running.message_id, reply_markup=None)
        except BadRequest as e:
            if not (not_modified(e) or message_gone(e)):  # no buttons left, or no message: nothing to take off
                log.warning("attempt %s: the buttons of %s not taken off (%s)", running.id, running.message_id, e)
    await _edit(query, t("cancelled_practice" if running.mode == AttemptMode.practice else "cancelled", u.lang,
                        title=attempt_title(running.title, u.lang, u.script)), None)


async def _edit(query, text, kb) -> None:
    await edit_text(query.get_bot(), query.message.chat.id, query.message.message_id, text, kb)
