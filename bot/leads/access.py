"""Who may use the lead's desk, for which team, and where its private answers go."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError

from bot.context import Ctx
from bot.core import open_private_button
from bot.i18n import joined, t
from bot.membership import check_roster
from bot.roles import is_team_lead
from bot.services import HasBotData, services
from bot.text_limits import MAX_TOAST, clip
from bot.userctx import UserCtx, user_ctx
from proctor.chats import ensure_chat, note_member
from proctor.exams.visibility import Role, Viewer
from proctor.people.users import handles

log = logging.getLogger(__name__)
GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


@dataclass(frozen=True, slots=True)
class Desk:
    """A lead at work: `scope` is the team group they act for; None for a configured admin in a
    private chat (every team). `viewer` is who reads, for the read rule (proctor.exams.visibility)."""

    user: UserCtx
    chat_id: int
    in_group: bool
    scope: int | None
    title: str
    viewer: Viewer


async def seen(update: Update, context: Ctx) -> UserCtx:
    """The user, recorded as a member of the group they wrote in (a team is who shows up)."""
    u = await user_ctx(update, context)
    chat = update.effective_chat
    if chat is not None and chat.type in GROUPS:
        svc = context.services
        await ensure_chat(svc.db, chat.id, chat.type, chat.title or "", svc.now())
        await note_member(svc.db, chat.id, u.id, svc.now())
    return u


async def require_lead(update: Update, context: Ctx) -> Desk | None:
    """The desk if the caller is a lead here; otherwise they are told so and None is returned."""
    u = await seen(update, context)
    chat = context.chat
    if not await context.caller_is_lead():
        await context.message.reply_text(t("l_not_lead", u.lang))
        return None
    in_group = chat.type in GROUPS
    if in_group:  # a lead's view of the roster: who on it is still in the group (bot/membership.py)
        await check_roster(context, chat.id)
    return Desk(u, chat.id, in_group, chat.id if in_group else None,
                chat.title or "" if in_group else t("l_all_teams", u.lang), lead_viewer(context, u.id))


async def require_bank_admin(update: Update, context: Ctx) -> Desk | None:
    """The bank is shared by every team: only configured admins (PROCTOR_ADMINS) may change it.

    A group administrator is a lead for their own team only, and anyone can make a group.
    """
    desk = await require_lead(update, context)
    if desk is None:
        return None
    if not context.services.is_admin(desk.user.id):
        await context.message.reply_text(await bank_admins_only(context, desk.user.lang))
        return None
    return desk


def lead_viewer(context: HasBotData, user_id: int) -> Viewer:
    """A lead as the read rule knows them: a configured admin, or a group's administrator (the caller
    checked that they lead the scope they act for: `require_lead`, `lead_of`; an invite's card: the
    lead who invited)."""
    return Viewer(Role.admin if services(context).is_admin(user_id) else Role.lead, user_id)


async def bank_admins_only(context: Ctx, lang: str) -> str:
    """Why a lead may not change the bank, naming whom to ask: the configured admins (`@lee`, a first
    name, or the id of one the bot has not met)."""
    svc = context.services
    admins = sorted(svc.settings.admins)
    if not admins:
        return t("l_bank_no_admins", lang)
    known = await handles(svc.db, admins)
    names = [known.get(a) or t("l_user_unmet", lang, id=a) for a in admins]
    return clip(t("l_bank_admin_only", lang, admins=joined(names, lang)), MAX_TOAST)  # a toast says it too


async def lead_of(context: Ctx, user_id: int, scope: int | None) -> bool:
    """Whether the user may act for `scope` now (a button pressed later is checked again)."""
    if scope is None:
        return context.services.is_admin(user_id)
    return await is_team_lead(context, user_id, scope, ChatType.SUPERGROUP)


async def send_private(update: Update, context: Ctx, u: UserCtx, send) -> bool:
    """Run `send(chat_id)` in the user's private chat; in a group, say so there. False if the
    user never opened a private chat with the bot (they get a button to open it)."""
    chat = context.chat
    try:
        await send(u.id)
    except Forbidden:
        await context.message.reply_text(
            t("l_open_private", u.lang), reply_markup=open_private_button(context.bot.username, u.lang))
        return False
    if chat.type in GROUPS:
        await context.message.reply_text(t("l_sent_private", u.lang))
    return True



async def tell(context: Ctx, chat_id: int, text: str) -> bool:
    """Send a courtesy notice (roster changes), never raising: a user who blocked the bot just
    misses it. Notices that must arrive (a reviewed score) go through the outbox instead."""
    try:
        await context.bot.send_message(chat_id, text)
        return True
    except TelegramError:
        log.info("could not notify chat %s", chat_id, exc_info=True)
        return False
