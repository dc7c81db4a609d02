"""/forgetme: delete a user's data after they confirm with a button.

    f:<user>:<y|n>    delete / keep (only that user can press it)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard
from telegram import Update
from telegram.constants import ChatType

from bot.context import Ctx
from bot.core import ack, open_private_button
from bot.i18n import t, tn
from bot.userctx import user_ctx
from proctor.people.forget import forget_user

_DATA = re.compile(r"^f:([0-9]{1,15}):([yn])$")


@dataclass(frozen=True, slots=True)
class Press:
    user_id: int  # whose data the button deletes
    confirm: bool  # delete; False: keep


def encode(user_id: int, confirm: bool) -> str:
    data = f"f:{user_id}:{'y' if confirm else 'n'}"
    if parse(data) is None:
        raise ValueError(f"bad callback data: {data!r}")
    return data


def parse(data: str | None) -> Press | None:
    """The button's meaning, or None for anything forged or garbled."""
    m = _DATA.match(data or "")
    return None if m is None else Press(int(m.group(1)), m.group(2) == "y")


def keyboard(user_id: int, lang: str) -> Keyboard:
    return Keyboard([[Button(t("l_fg_yes", lang), callback_data=encode(user_id, True)),
                      Button(t("l_fg_no", lang), callback_data=encode(user_id, False))]])


async def forgetme(update: Update, context: Ctx) -> None:
    """Ask the user to confirm that everything about them should be deleted."""
    u = await user_ctx(update, context)
    if context.chat.type != ChatType.PRIVATE:
        await context.message.reply_text(
            t("l_fg_private", u.lang), reply_markup=open_private_button(context.bot.username, u.lang))
        return
    await context.message.reply_text(t("l_fg_confirm", u.lang), reply_markup=keyboard(u.id, u.lang))


async def pressed(update: Update, context: Ctx) -> None:
    """Delete (or keep) the user's data; only the user themself can press it."""
    u = await user_ctx(update, context)
    query = context.query
    press = parse(query.data)
    if press is None:
        await ack(query, t("button_unknown", u.lang), show_alert=True)
        return
    if press.user_id != u.id:
        await ack(query, t("l_fg_not_yours", u.lang), show_alert=True)
        return
    if not press.confirm:
        await ack(query)
        await query.edit_message_text(t("l_fg_cancelled", u.lang))
        return
    gone = await forget_user(context.services.db, u.id)
    await ack(query)
    await query.edit_message_text(t("l_fg_done", u.lang, attempts=tn("n_exam_attempt", gone.attempts, u.lang),
                                    daily=tn("n_daily_answer", gone.daily_answers, u.lang)))
