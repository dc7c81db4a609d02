"""What /editq and /newpaper share on screen: their buttons (data: bot/authoring/callbacks.py), the
Back/Cancel row, and a step's message edited in place. The session lives in SQLite
(proctor/teams/authoring.py); the buttons act on the presser's own session, so a forged id acts on
nothing."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError

from bot.authoring.callbacks import EditqAction, NewPaperAction, wizard
from bot.context import Ctx
from bot.edits import edit_text
from bot.i18n import t
from proctor.teams.authoring import Wizard


def button(text: str, feature: Wizard, action: EditqAction | NewPaperAction, arg: str | int = "", *, question: int = 0) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=wizard(feature, action, arg, question=question))


def cancel_row(feature: Wizard, lang: str, *, question: int = 0, back: bool = True) -> list[InlineKeyboardButton]:
    cancel = EditqAction.cancel if feature is Wizard.editq else NewPaperAction.cancel
    row = [button(t("au_btn_back", lang), feature, EditqAction.back if feature is Wizard.editq else NewPaperAction.back,
                  question=question)] if back else []
    return row + [button(t("au_btn_cancel", lang), feature, cancel, question=question)]


async def show(update: Update, context: Ctx, text: str,
                kb: InlineKeyboardMarkup | None = None) -> None:
    """A press edits its message in place; text gets a new message."""
    query = update.callback_query
    if query is not None and query.message is not None:
        try:
            await edit_text(context.bot, query.message.chat.id, query.message.message_id, text, kb)
            return
        except TelegramError:
            pass  # too old to edit: send it instead
    await context.bot.send_message(context.chat.id, text, reply_markup=kb)

