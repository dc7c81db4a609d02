"""/invite and /invites (leads), and the candidate's deep link `/start inv_<token>`."""

from __future__ import annotations

import logging

from telegram import InputFile, Update
from telegram.constants import ChatType
from telegram.error import Forbidden

from bank.csv_safety import file_stem
from bank.errors import NotFound
from bank.paper_list import paper_summary
from bot import pacing
from bot.context import Ctx
from bot.core import open_private_button
from bot.i18n import t
from bot.invites import render
from bot.leads.access import require_lead, send_private
from bot.paper_refs import unknown_paper
from bot.services import Slot
from bot.userctx import UserCtx, user_ctx
from bot.voice import zone_for
from proctor import hiring
from proctor.audit import AuditAction
from proctor.chats import chat_title
from proctor.exams import invited
from proctor.exams.visibility import lens
from proctor.invites import store
from proctor.invites.links import GuessLimiter, link, token_of
from proctor.invites.listing import listing
from proctor.invites.request import BadInvite, find_paper, parse_request
from proctor.invites.states import InviteStatus, Refusal, Refused
from proctor.invites.store import Invite
from proctor.invites_report import hiring_csv
from proctor.teams import audit

log = logging.getLogger(__name__)
_GUESSES: Slot[GuessLimiter] = Slot("invite_guesses", GuessLimiter)  # token guesses per user


async def team_name(context: Ctx, team: int | None, lang: str) -> str:
    title = None if team is None else await chat_title(context.services.db, team)
    return title or t("iv_team_default", lang)


async def invite(update: Update, context: Ctx) -> None:
    """Make an invite for one candidate; the link, its QR code and a Revoke button go to the lead privately."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    svc, lang = context.services, desk.user.lang
    reply = context.message.reply_text
    if not context.args:
        await reply(t("iv_usage", lang))
        return
    try:
        req = parse_request(context.args)
    except BadInvite as e:
        await reply(render.bad_request(e, lang))
        return
    try:
        paper_id, title = await find_paper(svc.db, req.paper)
    except NotFound as e:
        await reply(unknown_paper(e, req.paper, lang, "iv_paper_unknown"))
        return
    try:
        [(inv, token)] = await store.create(svc.db, paper_id=paper_id, team=desk.scope, lead=desk.user.id,
                                            now=svc.now(), window=req.window, extra_min=req.extra_min,
                                            username=req.username, notify=req.notify, attempts=req.attempts,
                                            admin=svc.is_admin(desk.user.id))
    except hiring.NotVerified as e:
        await reply(t("hv_not_verified", lang, paper=e.paper.title, chat=e.chat_id, code=e.paper.code))
        return
    except hiring.TooManyAttempts as e:
        await reply(t("hv_too_many", lang, paper=e.paper.title, n=e.paper.cap))
        return
    if not await send_link(context, desk.user.own(), inv, token, title):
        await store.revoke_invite(svc.db, inv.id, actor=desk.user.id, now=svc.now())  # nothing half-made
        await reply(t("iv_unsent", lang), reply_markup=open_private_button(context.bot.username, lang))
        return
    if desk.in_group:
        await reply(t("l_sent_private", lang))


async def send_link(context: Ctx, lead: UserCtx, inv: Invite, token: str, paper: str) -> bool:
    """The link card with its QR code, in the lead's private chat. False if they never opened one."""
    url = link(context.bot.username, token)
    caption, kb = render.link_card(inv, paper, url, await zone_for(context, inv.team_chat_id), lead.lang,
                                   lead.script)
    try:
        await context.bot.send_photo(lead.id, InputFile(render.qr_png(url), filename=f"invite-{inv.id}.png"),
                                     caption=caption, reply_markup=kb)
    except Forbidden:
        return False
    return True


async def invites_list(update: Update, context: Ctx) -> None:
    """The team's invites, newest first, with Revoke and Resend: sent to the lead privately."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    svc = context.services
    rows = await listing(svc.db, desk.scope, svc.now(), limit=15)
    own = desk.user.own()  # the list goes to their private chat
    text, kb = render.listing(rows, desk.title, await zone_for(context, desk.scope), own.lang, own.script)

    async def send(chat_id: int) -> None:
        await context.bot.send_message(chat_id, text, reply_markup=kb)

    await send_private(update, context, desk.user, send)


async def open_link(update: Update, context: Ctx, arg: str) -> None:
    """`/start inv_<token>`: the first user claims the invite and sees its welcome card; anyone
    else, and any bad, used, expired or revoked link, gets one line."""
    u = await user_ctx(update, context)
    svc = context.services
    reply = context.message.reply_text
    if context.chat.type != ChatType.PRIVATE:
        await reply(t("private_only", u.lang))
        return
    guesses = _GUESSES.of(context)
    if not guesses.allowed(u.id, svc.now()):
        await reply(t("iv_refused_slow", u.lang))
        return
    token = token_of(arg)
    try:
        if token is None:
            raise Refused(Refusal.unknown)
        inv = await invited.open_link(svc.db, token, user_id=u.id, username=context.user.username, now=svc.now())
    except Refused as e:
        if e.reason == Refusal.unknown:
            guesses.missed(u.id, svc.now())
        await reply(t(f"iv_refused_{e.reason}", u.lang))
        return
    if inv.status == InviteStatus.started:
        await reply(t("iv_running", u.lang))
        return
    paper = await paper_summary(svc.db, inv.paper_id)
    text, kb = render.welcome(inv, paper, await team_name(context, inv.team_chat_id, u.lang),
                              await zone_for(context, inv.team_chat_id), u.lang, u.script)
    # nobody's clock runs yet: the card waits for the replies to those already answering (a round
    # opened by everyone in one minute asks for more than Telegram's 30 a second); protected, as the
    # exam's screen is, because Start turns this message into the first question (bot.invites.buttons)
    await context.bot.send_message(context.chat.id, text, reply_markup=kb, protect_content=True,
                                   rate_limit_args=pacing.priority(context.application, pacing.Priority.patient))




async def hiring_report(update: Update, context: Ctx, desk) -> None:
    """`/report invites`: one CSV row per invited candidate of the team, sent privately; audited like every export."""
    svc = context.services
    data, n = await hiring_csv(svc.db, await lens(svc.db, desk.viewer, desk.scope), svc.now(),
                               await zone_for(context, desk.scope))  # the team's record: the group's zone
    name = f"invites-{'all' if desk.scope is None else file_stem(desk.title)}.csv"

    async def send(chat_id: int) -> None:
        await context.bot.send_document(chat_id, InputFile(data, filename=name),
                                        caption=t("iv_report", desk.user.own_lang, team=desk.title, n=n))

    if await send_private(update, context, desk.user, send):
        await audit.log(svc.db, at=svc.now(), actor=desk.user.id, chat_id=desk.scope, action=AuditAction.report,
                        target="invites", rows=n)
