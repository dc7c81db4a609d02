"""/team and /join: the roster of a team group, which decides whose answers its leads may see.

Joining takes both sides and the member in the group (bot/membership.py asks Telegram). The group's
administrators (and the configured admins) invite in the group, `/team add @user` or as a reply to
the member's message: the member gets Join / No buttons in their private chat (or accepts with
/join in the group). A member's `/join` waits for a lead: Accept / Reject buttons for the leads
(checked again when pressed), or `/team accept|reject @user`. `/team remove` takes anyone off; a
member takes themselves off with `/team leave`.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard
from telegram import Update
from telegram.error import TelegramError

from bot.context import Ctx
from bot.core import ack
from bot.edits import edit_text
from bot.i18n import t
from bot.leads import callbacks as cb
from bot.leads.access import GROUPS, require_lead, seen, tell
from bot.leads.callbacks import Press
from bot.membership import in_group
from bot.text_limits import MAX_TEXT, MAX_TOAST, clip
from bot.userctx import UserCtx
from bot.voice import group_voice, person_voice
from proctor.chats import chat_title
from proctor.people.users import ensure_user
from proctor.teams import roster
from proctor.teams.roster import Outcome, Standing

log = logging.getLogger(__name__)

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
            text, keyboard = await _my_teams(context, u)
            await msg.reply_text(text, reply_markup=keyboard)
        return
    verb = args[0].lower()
    if verb == "leave":
        await _leave(update, context)
        return
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
    if verb in ("add", "accept"):  # joining needs the member in the group, as Telegram says now
        inside = await in_group(context, chat_id, user_id) is True
        if verb == "add":
            outcome = await roster.invite(db, chat_id, user_id, lead=lead.id, in_group=inside, now=now)
        else:
            outcome = await roster.accept(db, chat_id, user_id, lead=lead.id, in_group=inside, now=now)
        match outcome:
            case Outcome.invited:
                asked = await _ask_consent(context, chat_id, title, user_id, lead)
                await say(t("l_tm_invited" if asked else "l_tm_invite_unsent", lang, name=name))
            case Outcome.joined:
                await say(t("l_tm_added", lang, name=name) if verb == "add"
                          else t("l_tm_accepted", lang, name=name, lead=lead.first_name))
                await tell(context, user_id, t("l_tm_notice_added", (await person_voice(context, user_id)).lang,
                                               title=title))
            case Outcome.already:
                await say(t("l_tm_already", lang, name=name))
            case Outcome.not_in_group:
                await say(t("l_tm_not_in_group", lang, name=name))
            case _:
                await say(t("l_tm_no_request", lang, name=name))
        return outcome in (Outcome.invited, Outcome.joined)
    if verb == "remove":
        done = await roster.remove(db, chat_id, user_id, lead=lead.id, now=now)
        await say(t("l_tm_removed" if done else "l_tm_not_on", lang, name=name))
        return done
    done = await roster.reject(db, chat_id, user_id, lead=lead.id, now=now)
    await say(t("l_tm_rejected", lang, name=name, lead=lead.first_name) if done
              else t("l_tm_no_request", lang, name=name))
    if done:
        await tell(context, user_id, t("l_tm_notice_rejected", (await person_voice(context, user_id)).lang, title=title))
    return done


async def _leave(update: Update, context: Ctx) -> None:
    """`/team leave` in the group: the caller takes themselves off its roster (anyone, lead or not)."""
    u = await seen(update, context)
    chat = context.chat
    if chat.type not in GROUPS:
        await context.message.reply_text(t("l_group_only", u.lang))
        return
    svc = context.services
    done = await roster.leave(svc.db, chat.id, u.id, now=svc.now())
    await context.message.reply_text(t("l_tm_left_roster" if done else "l_tm_leave_none", u.lang,
                                       title=chat.title or ""))


def _consent_keyboard(chat_id: int, stamp: int, lang: str, join_label: str | None = None) -> Keyboard:
    yes, no = cb.encode(cb.Action.consent, chat_id, stamp, 1), cb.encode(cb.Action.consent, chat_id, stamp, 0)
    return Keyboard([[Button(join_label or t("l_btn_join", lang), callback_data=yes),
                      Button(t("l_btn_decline", lang), callback_data=no)]])


async def _ask_consent(context: Ctx, chat_id: int, title: str, user_id: int, lead: UserCtx) -> bool:
    """Send the member the invitation with its buttons, in their private chat. False if the bot
    can't write to them (they never started it, or blocked it): the lead is told to ask them."""
    stamp = await roster.invitation(context.services.db, chat_id, user_id)
    if stamp is None:  # decided meanwhile
        return False
    lang = (await person_voice(context, user_id)).lang  # their private chat: their voice
    try:
        await context.bot.send_message(user_id, t("l_tm_invitation", lang, lead=lead.first_name, title=title),
                                       reply_markup=_consent_keyboard(chat_id, stamp, lang))
    except TelegramError:
        log.info("could not ask %s to join %s", user_id, chat_id, exc_info=True)
        return False
    return True


async def join(update: Update, context: Ctx) -> None:
    """A member asks to be on the group's roster (pending until a lead accepts), or accepts a lead's invitation."""
    u = await seen(update, context)
    chat = context.chat
    msg = context.message
    if chat.type not in GROUPS:
        await msg.reply_text(t("l_jn_group_only", u.lang))
        return
    svc = context.services
    inside = await in_group(context, chat.id, u.id) is True
    match await roster.request(svc.db, chat.id, u.id, in_group=inside, now=svc.now()):
        case Outcome.already:
            await msg.reply_text(t("l_jn_member", u.lang))
        case Outcome.waiting:
            await msg.reply_text(t("l_jn_waiting", u.lang))
        case Outcome.joined:  # a lead had invited them: this was their consent
            await msg.reply_text(t("l_cs_joined", u.lang, title=chat.title or ""))
        case Outcome.not_in_group:
            await msg.reply_text(t("l_cs_not_in_group", u.lang, title=chat.title or ""))
        case _:
            keyboard = Keyboard([[
                Button(t("l_btn_accept", u.lang), callback_data=cb.encode(cb.Action.join_request, u.id, 1, scope=chat.id)),
                Button(t("l_btn_reject", u.lang), callback_data=cb.encode(cb.Action.join_request, u.id, 0, scope=chat.id))]])
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
        waiting = await roster.standing(context.services.db, press.scope, user_id) is Standing.asked
        await ack(query, clip(outcome[0], MAX_TOAST) if waiting else t("l_tm_decided", u.lang), show_alert=waiting)
        return
    await ack(query, clip(outcome[0], MAX_TOAST))
    await query.edit_message_text(outcome[0])


async def consent_button(update: Update, context: Ctx, u: UserCtx, press: Press) -> None:
    """The member's answer to a lead's invitation, pressed in their own private chat: join or decline.
    Recorded before anyone is told; a repeated press finds it done."""
    query = context.query
    chat_id, stamp, yes = press.args
    if query.message is None or query.message.chat.id != u.id:  # only the invitee, in their own chat
        await ack(query, t("l_button_bad", u.lang), show_alert=True)
        return
    svc = context.services
    title = await chat_title(svc.db, chat_id)
    if yes:
        inside = await in_group(context, chat_id, u.id) is True
        outcome = await roster.consent(svc.db, chat_id, u.id, stamp, in_group=inside, now=svc.now())
    else:
        outcome = await roster.decline(svc.db, chat_id, u.id, stamp, now=svc.now())
    lang_there, name = (await group_voice(context, chat_id)).lang, u.first_name or str(u.id)  # the group's own
    match outcome:
        case Outcome.joined:
            text, news = t("l_cs_joined", u.lang, title=title), t("l_cs_group_joined", lang_there, name=name)
        case Outcome.declined:
            text, news = t("l_cs_declined", u.lang, title=title), t("l_cs_group_declined", lang_there, name=name)
        case Outcome.already:
            await ack(query, t("l_jn_member", u.lang))
            return
        case Outcome.not_in_group:
            await ack(query, clip(t("l_cs_not_in_group", u.lang, title=title), MAX_TOAST), show_alert=True)
            return
        case _:
            await ack(query, t("l_cs_stale", u.lang), show_alert=True)
            return
    await ack(query, clip(text, MAX_TOAST))
    await edit_text(context.bot, u.id, query.message.message_id, text)
    await tell(context, chat_id, news)  # the group's leads learn it where they asked


async def _name(context: Ctx, user_id: int) -> str:
    return await roster.display_name(context.services.db, user_id)


def _label(e: roster.Entry, lang: str) -> str:
    return (f"• {e.name or e.user_id}" + (f" (@{e.username})" if e.username else "")
            + (t("l_tm_left_mark", lang) if e.left else ""))


async def _roster_text(context: Ctx, chat, lang: str) -> str:
    entries = await roster.listing(context.services.db, chat.id)
    title = chat.title or ""
    if not entries:
        return t("l_tm_empty", lang, title=title)
    by = {s: [e for e in entries if e.standing is s] for s in Standing}
    lines = [t("l_tm_head", lang, title=title, n=len(by[Standing.joined])),
             *(_label(e, lang) for e in by[Standing.joined])]
    for standing, head in ((Standing.invited, "l_tm_invited_head"), (Standing.asked, "l_tm_pending_head")):
        if by[standing]:
            lines += ["", t(head, lang, n=len(by[standing])), *(_label(e, lang) for e in by[standing])]
    lines += ["", t("l_tm_explain", lang)]
    return clip("\n".join(lines), MAX_TEXT)


_MINE = {Standing.joined: "l_tm_mine_member", Standing.asked: "l_tm_mine_pending",
         Standing.invited: "l_tm_mine_invited"}


async def _my_teams(context: Ctx, u: UserCtx) -> tuple[str, Keyboard | None]:
    """Your teams in private, with Join / No buttons for each invitation waiting for you."""
    db = context.services.db
    teams = await roster.teams_of(db, u.id)
    if not teams:
        return t("l_tm_mine_none", u.lang), None
    rows = [t(_MINE[s], u.lang, title=title) for _, title, s in teams]
    buttons: list[tuple[Button, ...]] = []
    for chat_id, title, s in teams:
        stamp = await roster.invitation(db, chat_id, u.id) if s is Standing.invited else None
        if stamp is not None:
            buttons += _consent_keyboard(chat_id, stamp, u.lang, t("l_btn_join_team", u.lang, title=title)).inline_keyboard
    return "\n".join([t("l_tm_mine_head", u.lang), *rows]), Keyboard(buttons) if buttons else None
