"""The bank's authoring in chat, for configured admins: a file previewed before Import, /newquestion
step by step, /editq (fix a question) and /newpaper (compose a paper)."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.authoring import buttons, editq, newpaper, newquestion, upload, wizard_text
from bot.feature import Parts, for_admins
from bot.menus import Command, Where, Who
from bot.open_work import add_ender

COMMANDS: list[Command] = [
    Command("newquestion", "Add a question step by step (or send a question file)",
            "逐步添加题目（或直接发送题目文件）", who=Who.admin, where=Where.private),
    Command("editq", "Fix a question's key, text, option or explanation", "修改题目的答案、题干、选项或解析",
            who=Who.admin, where=Where.private, usage="<question>", usage_zh="<题目>"),
    Command("newpaper", "Compose a paper from the bank", "从题库组卷", who=Who.admin, where=Where.private),
]


def register(app: Application) -> None:
    """Add file uploads, /newquestion, /editq, /newpaper, their buttons and the text their steps wait for."""
    app.add_handler(MessageHandler(filters.Document.ALL, upload.received))
    app.add_handler(CommandHandler("newquestion", newquestion.newquestion))
    app.add_handler(CommandHandler("editq", editq.editq))
    app.add_handler(CommandHandler("newpaper", newpaper.newpaper))
    app.add_handler(CallbackQueryHandler(buttons.on_button, pattern=r"^a:"))
    # only configured admins have an open /editq, /newpaper or draft: anyone else's text passes on
    # without a query (to the exam's typed answers, group 2: bot/private_text.py)
    text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    # group 0: the text an open /editq or /newpaper asked for
    app.add_handler(MessageHandler(text, for_admins(wizard_text.on_text)), group=0)
    # group 1: a /newquestion draft waiting for text takes it and stops there; without one it goes on
    app.add_handler(MessageHandler(text, for_admins(newquestion.typed)), group=1)
    add_ender(app, wizard_text.end_open, admins_only=True)  # /cancel ends an open /editq or /newpaper
    add_ender(app, newquestion.end_draft, admins_only=True)
    add_ender(app, upload.end_uploads, admins_only=True)


FEATURE = Parts("authoring", COMMANDS, register)
