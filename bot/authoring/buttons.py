"""The authoring buttons' dispatch: an upload's Import/Cancel or a /newquestion step."""

from __future__ import annotations

from telegram import Update

from bot.authoring import callbacks as cb
from bot.authoring import newquestion, upload
from bot.context import Ctx
from bot.core import ack
from bot.i18n import t


async def on_button(update: Update, context: Ctx) -> None:
    """An upload's Import/Cancel or a /newquestion step."""
    press = cb.parse(context.query.data)
    if isinstance(press, cb.UploadPress):
        await upload.pressed(update, context, press)
    elif isinstance(press, cb.DraftPress):
        await newquestion.pressed(update, context, press)
    else:
        await ack(context.query, t("l_button_bad", "en"), show_alert=True)
