"""Invite buttons: the candidate's Start; a lead's Revoke, Resend and review of an invited attempt."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ChatType

from bank.errors import NotFound
from bank.paper_list import paper_summary
from bot.context import Ctx
from bot.core import ack
from bot.exam.jobs import arm_deadline
from bot.exam.show import show_attempt
from bot.i18n import t
from bot.invites import callbacks as cb
from bot.invites.commands import send_link
from bot.leads import render as lead_render
from bot.leads.access import lead_of, lead_viewer
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.exams import service as attempts
from proctor.exams.service import AlreadyRunning
from proctor.exams.states import AttemptMode
from proctor.exams.visibility import Fact, lens
from proctor.invites import store
from proctor.invites.listing import of_attempt
from proctor.invites.states import Refused
from proctor.invites.store import Invite
from proctor.teams import review as reviews
from proctor.transitions import IllegalTransition


async def on_button(update: Update, context: Ctx) -> None:
    query = context.query
    u = await user_ctx(update, context)
    parsed = cb.parse(query.data)
    if parsed is None:
        await ack(query, t("button_unknown", u.lang))
        return
    action, number = parsed
    match action:
        case cb.Press.start:
            await _start(update, context, u, number)
        case cb.Press.review:
            await _review(update, context, u, number)
        case cb.Press.revoke | cb.Press.resend:
            await _manage(update, context, u, action, number)


async def _start(update: Update, context: Ctx, u: UserCtx, invite_id: int) -> None:
    """Start inside the window, once (or as often as the lead allowed); the attempt gets the paper's
    time plus the invite's extra time, whenever the window closes."""
    query = context.query
    svc = context.services
    if context.chat.type != ChatType.PRIVATE:
        await ack(query, t("private_only", u.lang))
        return
    # the welcome card (sent protected) becomes the first question by an edit: an opening costs one
    # message of Telegram's 30 a second, not two; an edit that fails posts the screen anew (show_sheet)
    welcome = query.message.message_id if isinstance(query.message, Message) else None
    try:
        inv = await store.get(svc.db, invite_id)
        attempt = await attempts.start_attempt(
            svc.db, user_id=u.id, chat_id=context.chat.id, paper_id=inv.paper_id, mode=AttemptMode.exam,
            now=svc.now(), shuffle=svc.settings.shuffle_options, invite_id=inv.id, message_id=welcome)
    except NotFound:
        await ack(query, t("iv_refused_unknown", u.lang), show_alert=True)
        return
    except Refused as e:
        await ack(query, t(f"iv_refused_{e.reason}", u.lang), show_alert=True)
        return
    except AlreadyRunning:
        await ack(query, t("already_running", u.lang), show_alert=True)
        return
    if attempt.deadline is not None:  # armed before anything is said
        arm_deadline(context.application, attempt.id, attempt.deadline)
    await ack(query)
    await show_attempt(context, attempt.id, u, repost=welcome is None)


async def _lead_invite(update: Update, context: Ctx, u: UserCtx, invite_id: int) -> Invite | None:
    """The invite if the presser leads its team now (checked on every press)."""
    try:
        inv = await store.get(context.services.db, invite_id)
    except NotFound:
        await ack(update.callback_query, t("l_button_bad", u.lang))
        return None
    if not await lead_of(context, u.id, inv.team_chat_id):
        await ack(update.callback_query, t("l_button_not_lead", u.lang), show_alert=True)
        return None
    return inv


async def _manage(update: Update, context: Ctx, u: UserCtx, action: cb.Press, invite_id: int) -> None:
    query = context.query
    svc = context.services
    if (inv := await _lead_invite(update, context, u, invite_id)) is None:
        return
    try:
        if action == cb.Press.revoke:
            await store.revoke_invite(svc.db, inv.id, actor=u.id, now=svc.now())
            await ack(query, t("iv_revoked", u.lang, id=inv.id))
            await context.bot.send_message(u.id, t("iv_revoked", u.lang, id=inv.id))
            return
        inv, token = await store.resend_invite(svc.db, inv.id, actor=u.id, now=svc.now())
    except IllegalTransition:
        status = t(f"iv_status_{inv.status_at(svc.now()).value}", u.lang)
        await ack(query, t("iv_cannot", u.lang, status=status), show_alert=True)
        return
    await ack(query, t("iv_resent", u.lang, id=inv.id))
    paper = await paper_summary(svc.db, inv.paper_id)
    await send_link(context, u, inv, token, paper.title)


async def _review(update: Update, context: Ctx, u: UserCtx, attempt_id: int) -> None:
    """The written answers of this invited attempt, in the review queue's cards."""
    query = context.query
    svc = context.services
    inv = await of_attempt(svc.db, attempt_id)
    if inv is None or await _lead_invite(update, context, u, inv.id) is None:
        if inv is None:
            await ack(query, t("l_button_bad", u.lang))
        return
    scope = None if svc.is_admin(u.id) else inv.team_chat_id  # a configured admin reviews for every team
    seen_by = await lens(svc.db, lead_viewer(context, u.id), scope)
    if not seen_by.of(inv.paper_id).shows(Fact.others_answers):  # a hiring paper the team is not verified for
        title = (await paper_summary(svc.db, inv.paper_id)).title
        await ack(query, clip(t("hv_withheld", u.lang, paper=title), MAX_TOAST), show_alert=True)
        return
    pending = await reviews.next_pending(svc.db, seen_by, attempt_id=attempt_id, now=svc.now())
    await ack(query)
    if pending is None:
        await context.bot.send_message(u.id, t("l_rv_none", u.lang))
        return
    text, keyboard = lead_render.review_card(pending, u.lang, scope, 0, u.script)
    await context.bot.send_message(u.id, text, reply_markup=keyboard)
