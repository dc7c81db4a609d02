"""What every chat shares: /start, /help, /lang, /script, update de-duplication, the error handler."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot import intake, menus, voice
from bot.context import Ctx, ProctorContext
from bot.edits import edit_text
from bot.i18n import t
from bot.menus import Caller, Command, Where, help_text
from bot.services import Slot, services
from bot.userctx import UserCtx, user_ctx
from proctor.chats import ensure_chat, group_prefs, set_group_language, set_group_script
from proctor.people import users as user_store
from proctor.storage import updates

log = logging.getLogger(__name__)
GROUP_TYPES = (ChatType.GROUP, ChatType.SUPERGROUP)

COMMANDS = [
    Command("start", "Welcome and what I can do", "欢迎与功能介绍", where=Where.private),
    Command("help", "What you can do here", "你在这里可用的命令"),
    Command("lang", "Interface language: en or zh (in a group: the group's, by its admins)",
            "界面语言：en 或 zh（群内：由群管理员设置全群的）"),
    Command("script", "Question text: orig, hans or hant (in a group: the group's, by its admins)",
            "题目文字：原文、简体或繁体（群内：由群管理员设置全群的）"),
]


class ProctorApplication(Application):
    """Handles each update once (Telegram delivers at least once; see proctor.storage.updates): runs
    the handlers of an update claimed by the door it came in by (bot/intake.py) with its claim on
    their context, and marks it done once they have all returned (or one stopped the rest with
    ApplicationHandlerStop, or raised)."""

    async def process_update(self, update: object) -> None:
        if isinstance(update, Update):
            await self._handle_once(update)
        else:  # not from Telegram (nothing here queues one): PTB's own
            await super().process_update(update)

    async def _handle_once(self, update: Update) -> None:
        context = ProctorContext.from_update(update, self)
        claim = intake.claim_of(self, update)
        if claim is None:  # not queued by the door (put on the queue directly): claimed here, alone
            try:
                claimed = await intake.claim(self, [update])
            except Exception as exc:  # not claimed: no handler runs unclaimed; the error handler says so
                await self.process_error(update, exc)
                return
            if not claimed:  # a repeat (Telegram delivers at least once)
                return
            [(_, claim)] = claimed
        context.claim = claim
        await self._run_handlers(update, context)
        svc = services(self)
        try:
            await updates.done(svc.db, self.bot.id, claim.update_id, svc.run)
        except Exception:  # left claimed: a delivery again is handled again, and counts once
            log.warning("update %s: could not mark it done", claim.update_id, exc_info=True)

    async def _run_handlers(self, update: Update, context: ProctorContext) -> None:
        """PTB's dispatch (`Application.process_update`) with the claimed update's context: in each
        group, in order, the first handler whose check passes; ApplicationHandlerStop ends the
        update, an error goes to the error handler (which may end it too). Run here because PTB's
        own builds the handlers' context inside and hands it to nothing after them. Every handler is
        awaited (the bot's Defaults(block=True)); there is no persistence to update."""
        for group in [list(handlers) for handlers in self.handlers.values()]:
            try:
                for handler in group:
                    check = handler.check_update(update)
                    if check is None or check is False:
                        continue
                    await handler.handle_update(update, self, check, context)
                    break
            except ApplicationHandlerStop:
                break
            except Exception as exc:
                if await self.process_error(update, exc):
                    break


StartPayload = Callable[[Update, Ctx, str], Awaitable[None]]  # (update, context, the payload)
_START_PAYLOADS: Slot[dict[str, StartPayload]] = Slot("start_payloads", dict)  # prefix -> its feature's handler


def add_start_payload(app: Application, prefix: str, handler: StartPayload) -> None:
    """Deep links (`t.me/<bot>?start=<payload>`) whose payload starts with `prefix` go to `handler`."""
    _START_PAYLOADS.of(app)[prefix] = handler


def start_payloads(app: Application) -> list[str]:
    """The payload prefixes of the deep links features registered."""
    return list(_START_PAYLOADS.of(app))


async def start(update: Update, context: Ctx) -> None:
    """Greet the user and list what they can do (a deep link's payload goes to its feature)."""
    arg = context.args[0] if context.args else ""
    for prefix, handler in _START_PAYLOADS.of(context).items():
        if arg.startswith(prefix):
            await handler(update, context, arg)
            return
    u = await user_ctx(update, context)
    await context.message.reply_text(t("start", u.lang, name=u.first_name))


async def help_command(update: Update, context: Ctx) -> None:
    """List what the caller can do in this chat: as anyone, as this team's lead, as a configured admin."""
    u = await user_ctx(update, context)
    private = context.chat.type == ChatType.PRIVATE
    caller = Caller(private=private, lead=await context.caller_is_lead(),
                    admin=context.services.is_admin(u.id))
    await context.message.reply_text(help_text(menus.table(context), caller, u.lang))


async def _choice(update: Update, context: Ctx, u, allowed: tuple[str, ...],
                  usage: str) -> str | None:
    """The command's one argument if it is one of `allowed`; otherwise the usage is sent and None."""
    arg = context.args[0].lower() if context.args else ""
    if arg in allowed:
        return arg
    await context.message.reply_text(t(usage, u.lang))
    return None


async def _group_admin(context: Ctx, lang: str) -> bool:
    """In a group, /lang and /script set the group's own (what the bot posts there): its
    administrators' (and configured admins') to change; anyone else is told so."""
    if await context.caller_is_lead():
        svc = context.services
        await ensure_chat(svc.db, context.chat.id, context.chat.type, context.chat.title or "", svc.now())
        return True
    await context.message.reply_text(t("lang_group_admins", lang))
    return False


async def set_lang(update: Update, context: Ctx) -> None:
    """Override the interface language: /lang en|zh|auto (in a group: the group's, by its admins);
    /lang alone says the current one."""
    u = await user_ctx(update, context)
    if not context.args:
        await context.message.reply_text(await _current_lang(context, u))
        return
    if (arg := await _choice(update, context, u, ("en", "zh", "auto"), "lang_usage")) is None:
        return
    choice = None if arg == "auto" else arg
    svc = context.services
    if context.chat.type in GROUP_TYPES:
        if await _group_admin(context, u.lang):
            await set_group_language(svc.db, context.chat.id, choice, svc.now())
            there = await voice.group_voice(context, context.chat.id)
            await context.message.reply_text(t("lang_group_set", there.lang))
        return
    await user_store.set_language(svc.db, u.id, choice)
    u = await user_ctx(update, context)
    await context.message.reply_text(t("lang_set", u.lang))


async def set_script(update: Update, context: Ctx) -> None:
    """Show questions as written, in Simplified or in Traditional: /script orig|hans|hant (in a
    group: the group's, by its admins); /script alone says the current one."""
    u = await user_ctx(update, context)
    if not context.args:
        await context.message.reply_text(await _current_script(context, u))
        return
    if (arg := await _choice(update, context, u, ("orig", "hans", "hant"), "script_usage")) is None:
        return
    svc = context.services
    if context.chat.type in GROUP_TYPES:
        if await _group_admin(context, u.lang):
            await set_group_script(svc.db, context.chat.id, arg, svc.now())
            there = await voice.group_voice(context, context.chat.id)
            await context.message.reply_text(t("script_group_set", there.lang, script=t(f"script_{arg}", there.lang)))
        return
    await user_store.set_script(svc.db, u.id, arg)
    u = await user_ctx(update, context)
    await context.message.reply_text(t("script_set", u.lang, script=t(f"script_{arg}", u.lang)))


async def _current_lang(context: Ctx, u: UserCtx) -> str:
    """/lang alone: the language replies here are in, and whether it was chosen or follows a default."""
    name = t(f"lang_name_{u.here.language}", u.lang)
    if context.chat.type in GROUP_TYPES:
        chosen, _ = await group_prefs(context.services.db, context.chat.id)
        return t("lang_group_now" if chosen else "lang_group_now_default", u.lang, language=name)
    stored = await user_store.find_prefs(context.services.db, u.id)
    chosen = stored.language if stored is not None else None
    return t("lang_now" if chosen else "lang_now_auto", u.lang, language=name)


async def _current_script(context: Ctx, u: UserCtx) -> str:
    """/script alone: how question text is shown here."""
    shown = t(f"script_{u.here.script}", u.lang)
    key = "script_group_now" if context.chat.type in GROUP_TYPES else "script_now"
    return t(key, u.lang, script=shown)


async def garbled_button(update: Update, context: Ctx) -> None:
    """Any button no feature recognised: forged, garbled or from an old version."""
    u = await user_ctx(update, context)
    await context.query.answer(t("button_unknown", u.lang), show_alert=False)


async def on_error(update: object, context: Ctx) -> None:
    """Log first; then tell the user something short, never a stack trace."""
    log.error("unhandled error on update %s", getattr(update, "update_id", None), exc_info=context.error)
    if not isinstance(update, Update):
        return
    user = update.effective_user  # the record is not read here: the error may be the database's
    lang = voice.to_person(None, context.services.settings.language, user.language_code if user else None).lang
    try:
        if update.callback_query:
            await update.callback_query.answer(t("oops", lang))
        elif update.effective_message:
            await update.effective_message.reply_text(t("oops", lang))
    except Exception:  # the error handler must never raise
        log.warning("could not tell the user about the error", exc_info=True)


async def tell_too_fast(app: Application, update: Update) -> None:
    """Some of a flooding user's updates were dropped (bot.ordering): say so, once per burst."""
    user = update.effective_user
    chat = update.effective_chat
    if user is None:  # floods are counted per user (bot.ordering): an update without one is never dropped
        return
    lang = voice.to_person(None, services(app).settings.language, user.language_code).lang
    await app.bot.send_message(chat.id if chat else user.id, t("too_fast", lang, name=user.first_name or ""))


def register_first(app: Application) -> None:
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("help", help_command))
    app.add_handler(CommandHandler("lang", set_lang))
    app.add_handler(CommandHandler("script", set_script))


async def unknown_command(update: Update, context: Ctx) -> None:
    """A command no feature knows, in a private chat (in groups it may be another bot's)."""
    u = await user_ctx(update, context)
    command = (context.message.text or "").split()[0][:40]
    await context.message.reply_text(t("unknown_command", u.lang, command=command))


def register_last(app: Application) -> None:
    app.add_handler(CallbackQueryHandler(garbled_button))
    app.add_handler(MessageHandler(filters.COMMAND & filters.ChatType.PRIVATE, unknown_command))
    app.add_error_handler(on_error)


def open_private_button(bot_username: str, lang: str, payload: str = "") -> InlineKeyboardMarkup:
    url = f"https://t.me/{bot_username}" + (f"?start={payload}" if payload else "")
    return InlineKeyboardMarkup([[InlineKeyboardButton(t("open_private", lang), url=url)]])


async def ack(query, text: str | None = None, *, show_alert: bool = False) -> None:
    """Answer a button press. The effect it acknowledges is already committed, so a failure
    ("query is too old", a 5xx) is logged and never raised: it must not skip what comes next."""
    try:
        await query.answer(text, show_alert=show_alert)
    except TelegramError as e:
        log.info("could not answer callback query %s: %s", query.id, e)


async def answer_presser(context: Ctx, u: UserCtx, text: str, markup: InlineKeyboardMarkup | None = None, *,
                         toast: str | None = None, protect: bool = False) -> None:
    """Answer a press with what only its presser may read (a review, a lead's next card). Pressed in
    their private chat, the pressed message becomes it; pressed in a group, whose every member reads an
    edit, it goes to the presser's private chat instead and the toast says so. Answers the press."""
    query = context.query
    if context.chat.type == ChatType.PRIVATE:
        await ack(query, toast)
        await edit_text(context.bot, context.chat.id, context.message.message_id, text, markup)
        return
    try:
        await context.bot.send_message(u.id, text, reply_markup=markup, protect_content=protect)
    except Forbidden:  # no private chat with the bot yet: nothing is shown anywhere
        await ack(query, t("l_open_private", u.lang), show_alert=True)
        return
    await ack(query, "\n".join(filter(None, (toast, t("l_sent_private", u.lang)))))
