"""Leads bring questions in chat: a file previewed before Import, and /newquestion step by step."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.authoring import buttons, newquestion, upload
from bot.feature import Parts, for_admins
from bot.menus import Command, Where, Who
from bot.open_work import add_ender

COMMANDS: list[Command] = [
    Command("newquestion", "Add a question step by step (or send a question file)",
            "逐步添加题目（或直接发送题目文件）", who=Who.admin, where=Where.private),
]


def register(app: Application) -> None:
    """Add file uploads, /newquestion, their buttons, and the draft's typed steps."""
    app.add_handler(MessageHandler(filters.Document.ALL, upload.received))
    app.add_handler(CommandHandler("newquestion", newquestion.newquestion))
    app.add_handler(CallbackQueryHandler(buttons.on_button, pattern=r"^a:[uq]:"))
    # group 1: after /editq's and /newpaper's text (group 0), before the exam's typed answers (group 2):
    # a draft waiting for text takes it and stops there; without one the text goes on. Only configured
    # admins have drafts: only an admin's text costs a query (newquestion.typed)
    drafting = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(drafting, for_admins(newquestion.typed)), group=1)
    add_ender(app, newquestion.end_draft, admins_only=True)  # /cancel
    add_ender(app, upload.end_uploads, admins_only=True)


FEATURE = Parts("authoring", COMMANDS, register)
