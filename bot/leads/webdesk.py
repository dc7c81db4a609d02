"""/desk: the lead's desk as a Telegram Mini App button, or `/desk link` for a browser."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, WebAppInfo

from bot.context import Ctx
from bot.i18n import t
from bot.leads.access import require_lead, send_private
from proctor.teams.desk_tokens import LINK_SECONDS, issue_link


async def desk(update: Update, context: Ctx) -> None:
    """Send the lead a button that opens the desk (Mini App buttons work in private chats only)."""
    lead = await require_lead(update, context)
    if lead is None:
        return
    svc = context.services
    lang = lead.user.lang
    args = [a.lower() for a in (context.args or [])]
    if args not in ([], ["link"]):
        await context.message.reply_text(t("d_usage", lang))
        return
    base = svc.settings.desk_url
    if not base:
        await context.message.reply_text(t("d_not_configured", lang))
        return
    if args == ["link"] or not base.startswith("https://"):  # Telegram opens Mini Apps over HTTPS only
        # The secret rides in the fragment: the browser never sends it to a server or a log.
        token = await issue_link(svc.db, lead.user.id, svc.now())
        text = t("d_link_text", lead.user.own_lang, minutes=LINK_SECONDS // 60, url=f"{base}/desk/link#{token}")

        async def send(chat_id: int) -> None:
            await context.bot.send_message(chat_id, text)
    else:
        keyboard = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t("d_btn_open", lead.user.own_lang), web_app=WebAppInfo(url=f"{base}/desk/"))]])

        async def send(chat_id: int) -> None:
            await context.bot.send_message(chat_id, t("d_open_text", lead.user.own_lang), reply_markup=keyboard)

    await send_private(update, context, lead.user, send)
