"""/team and /join: the roster of a team group, which decides whose answers its leads may see.

The group's administrators (and the configured admins) manage it in the group: `/team add|remove
@user` or as a reply to the member's message; `/join` puts a member on it as pending, with Accept /
Reject buttons for the leads (checked again when pressed), or `/team accept|reject @user`.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard
from telegram import Update

from bot.context import Ctx
from bot.core import ack
from bot.i18n import t
from bot.leads import callbacks as cb
from bot.leads.access import GROUPS, require_lead, seen, tell
from bot.leads.callbacks import Press
from bot.leads.review import candidate_lang
from bot.text_limits import MAX_TEXT, MAX_TOAST, clip
from bot.userctx import UserCtx
from proctor.people.users import ensure_user
from proctor.teams import roster

VERBS = ("add", "remove", "accept", "reject")


async def team(update: Update, context: Ctx) -> None:
    """List the roster (in a group) or your teams (in private); leads add, remove, accept, reject."""
    args = context.args or []
    msg = context.message
    if not args:
        u = await seen(update, context)
        if context.chat.type in GROUPS:
            await msg.reply_text(await _roster_text(context, update.effective_chat, u.lang))
        else:
            await msg.reply_text(await _my_teams_text(context, u))
        return
    verb = args[0].lower()
    if verb not in VERBS:
        u = await seen(update, context)
        await msg.reply_text(t("l_tm_usage", u.lang))
        return
    desk = await require_lead(update, context)  # a lead of this group, asked anew every time
    if desk is None:
        return
    if not desk.in_group:
        await msg.reply_text(t("l_group_only", desk.user.lang))
        return
    target = await _target(update, context, desk.user, args[1:])
    if target is None:
        return
    await _apply(context, verb, desk.chat_id, desk.title, target, desk.user, msg.reply_text)


async def _target(update: Update, context: Ctx, u: UserCtx, rest: list[str]) -> int | None:
    """The member meant: `@username` or id the bot knows, else the author of the replied message."""
    svc = context.services
    msg = context.message
    if rest:
        who = rest[0]
        try:
            return await roster.find_user(svc.db, who)
        except roster.UnknownUser:
            await msg.reply_text(t("l_tm_unknown", u.lang, who=who))
        except roster.AmbiguousUser:
            await msg.reply_text(t("l_tm_ambiguous", u.lang, who=who))
        return None
    replied = msg.reply_to_message
    if replied is None or replied.from_user is None:
        await msg.reply_text(t("l_tm_usage", u.lang))
        return None
    author = replied.from_user
    if author.is_bot:
        await msg.reply_text(t("l_tm_not_a_member", u.lang))
        return None
    await ensure_user(svc.db, author.id, author.first_name or "", author.username, svc.now())
    return author.id


async def _apply(context: Ctx, verb: str, chat_id: int, title: str, user_id: int,
                 lead: UserCtx, say) -> bool:
    """Do `verb` for `user_id` on group `chat_id`'s roster, `say` how it went, tell the member.
    False if nothing changed."""
    svc = context.services
    db, now, lang = svc.db, svc.now(), lead.lang
    name = await _name(context, user_id)
    if verb == "add":
        done = await roster.add(db, chat_id, user_id, lead=lead.id, now=now)
        await say(t("l_tm_added" if done else "l_tm_already", lang, name=name))
    elif verb == "remove":
        done = await roster.remove(db, chat_id, user_id, lead=lead.id, now=now)
        await say(t("l_tm_removed" if done else "l_tm_not_on", lang, name=name))
    elif verb == "accept":
        done = await roster.accept(db, chat_id, user_id, lead=lead.id, now=now)
        await say(t("l_tm_accepted", lang, name=name, lead=lead.first_name) if done
                  else t("l_tm_no_request", lang, name=name))
    else:
        done = await roster.reject(db, chat_id, user_id, lead=lead.id, now=now)
        await say(t("l_tm_rejected", lang, name=name, lead=lead.first_name) if done
                  else t("l_tm_no_request", lang, name=name))
    if done and verb != "remove":
        key = "l_tm_notice_rejected" if verb == "reject" else "l_tm_notice_added"
        await tell(context, user_id, t(key, await candidate_lang(context, user_id), title=title))
    return done


async def join(update: Update, context: Ctx) -> None:
    """A member asks to be on the group's roster: pending until a lead accepts."""
    u = await seen(update, context)
    chat = context.chat
    msg = context.message
    if chat.type not in GROUPS:
        await msg.reply_text(t("l_jn_group_only", u.lang))
        return
    svc = context.services
    state = await roster.request(svc.db, chat.id, u.id, now=svc.now())
    if state == "member":
        await msg.reply_text(t("l_jn_member", u.lang))
        return
    if state == "waiting":
        await msg.reply_text(t("l_jn_waiting", u.lang))
        return
    keyboard = Keyboard([[Button(t("l_btn_accept", u.lang), callback_data=cb.encode("join", u.id, 1, scope=chat.id)),
                          Button(t("l_btn_reject", u.lang), callback_data=cb.encode("join", u.id, 0, scope=chat.id))]])
    await msg.reply_text(t("l_jn_pending", u.lang, name=u.first_name or str(u.id), title=chat.title or ""),
                         reply_markup=keyboard)


async def join_button(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """Accept / Reject under a /join request; the presser's role was checked for the group just now."""
    query = context.query
    if press.scope is None:
        await ack(query, t("l_button_bad", u.lang), show_alert=True)
        return
    user_id, yes = press.args
    title = query.message.chat.title if query.message is not None else ""
    outcome: list[str] = []

    async def say(text: str) -> None:
        outcome.append(text)

    done = await _apply(context, "accept" if yes else "reject", press.scope, title or "", user_id, u, say)
    if not done:
        await ack(query, t("l_tm_decided", u.lang))
        return
    await ack(query, clip(outcome[0], MAX_TOAST))
    await query.edit_message_text(outcome[0])


async def _name(context: Ctx, user_id: int) -> str:
    return await roster.display_name(context.services.db, user_id)


def _label(e: roster.Entry) -> str:
    return f"• {e.name or e.user_id}" + (f" (@{e.username})" if e.username else "")


async def _roster_text(context: Ctx, chat, lang: str) -> str:
    entries = await roster.listing(context.services.db, chat.id)
    title = chat.title or ""
    if not entries:
        return t("l_tm_empty", lang, title=title)
    members = [e for e in entries if e.status == roster.MEMBER]
    pending = [e for e in entries if e.status == roster.PENDING]
    lines = [t("l_tm_head", lang, title=title, n=len(members)), *(_label(e) for e in members)]
    if pending:
        lines += ["", t("l_tm_pending_head", lang, n=len(pending)), *(_label(e) for e in pending)]
    lines += ["", t("l_tm_explain", lang)]
    return clip("\n".join(lines), MAX_TEXT)


async def _my_teams_text(context: Ctx, u: UserCtx) -> str:
    teams = await roster.teams_of(context.services.db, u.id)
    if not teams:
        return t("l_tm_mine_none", u.lang)
    rows = [t("l_tm_mine_member" if s == roster.MEMBER else "l_tm_mine_pending", u.lang, title=title)
            for _, title, s in teams]
    return "\n".join([t("l_tm_mine_head", u.lang), *rows])
