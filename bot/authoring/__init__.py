"""Leads bring questions in chat: a file previewed before Import, and /newquestion step by step."""

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.authoring import callbacks as cb
from bot.authoring import newquestion, upload
from bot.context import Ctx
from bot.core import ack
from bot.feature import Parts
from bot.i18n import t

COMMANDS: list[tuple[str, str, str]] = [
    ("newquestion", "Admins: add a question step by step (or send a question file)",
     "管理员：逐步添加题目（或直接发送题目文件）"),
]


async def on_button(update: Update, context: Ctx) -> None:
    """An upload's Import/Cancel or a /newquestion step."""
    press = cb.parse(context.query.data)
    if isinstance(press, cb.UploadPress):
        await upload.pressed(update, context, press)
    elif isinstance(press, cb.DraftPress):
        await newquestion.pressed(update, context, press)
    else:
        await ack(context.query, t("l_button_bad", "en"), show_alert=True)


def register(app: Application) -> None:
    """Add file uploads, /newquestion, their buttons, and the draft's typed steps."""
    app.add_handler(MessageHandler(filters.Document.ALL, upload.received))
    app.add_handler(CommandHandler("newquestion", newquestion.newquestion))
    app.add_handler(CallbackQueryHandler(on_button, pattern=r"^a:[uq]:"))
    # group 1: after /editq's and /newpaper's text (group 0), before the exam's typed answers (group 2):
    # a draft waiting for text takes it and stops there; without one the text goes on. Only configured
    # admins have drafts, and only their text costs a query (newquestion.typed checks the role first).
    drafting = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(drafting, newquestion.typed), group=1)


FEATURE = Parts("authoring", COMMANDS, register)
