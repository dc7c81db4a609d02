"""Leads bring questions in chat: a file previewed before Import, and /newquestion step by step.

Light: its handlers' modules load on first use (bot/feature.py)."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.feature import Handler, Parts, for_admins, on_first_use
from bot.menus import Command, Where, Who
from bot.open_work import Ender, add_ender

COMMANDS: list[Command] = [
    Command("newquestion", "Add a question step by step (or send a question file)",
            "逐步添加题目（或直接发送题目文件）", who=Who.admin, where=Where.private),
]


def register(app: Application) -> None:
    """Add file uploads, /newquestion, their buttons, and the draft's typed steps."""
    app.add_handler(MessageHandler(filters.Document.ALL, on_first_use(_received)))
    app.add_handler(CommandHandler("newquestion", on_first_use(_newquestion)))
    app.add_handler(CallbackQueryHandler(on_first_use(_on_button), pattern=r"^a:[uq]:"))
    # group 1: after /editq's and /newpaper's text (group 0), before the exam's typed answers (group 2):
    # a draft waiting for text takes it and stops there; without one the text goes on. Only configured
    # admins have drafts: anyone else's text passes without loading /newquestion's module, and only an
    # admin's text costs a query (newquestion.typed)
    drafting = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(drafting, for_admins(on_first_use(_typed))), group=1)
    add_ender(app, on_first_use(_end_draft), admins_only=True)  # /cancel
    add_ender(app, on_first_use(_end_uploads), admins_only=True)


# The loaders: each imports the module holding the real callable when first called.

def _received() -> Handler:
    from bot.authoring.upload import received

    return received


def _newquestion() -> Handler:
    from bot.authoring.newquestion import newquestion

    return newquestion


def _on_button() -> Handler:
    from bot.authoring.buttons import on_button

    return on_button


def _typed() -> Handler:
    from bot.authoring.newquestion import typed

    return typed


def _end_draft() -> Ender:
    from bot.authoring.newquestion import end_draft

    return end_draft


def _end_uploads() -> Ender:
    from bot.authoring.upload import end_uploads

    return end_uploads


FEATURE = Parts("authoring", COMMANDS, register)
