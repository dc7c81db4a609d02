"""A person's own data: /forgetme deletes it after they confirm."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot.feature import Parts
from bot.menus import Command, Where
from bot.people import forget

COMMANDS: list[Command] = [
    Command("forgetme", "Delete all your data", "删除你的全部数据", where=Where.private),
]


def register(app: Application) -> None:
    """Add /forgetme and its confirmation buttons."""
    app.add_handler(CommandHandler("forgetme", forget.forgetme))
    app.add_handler(CallbackQueryHandler(forget.pressed, pattern=r"^f:"))


FEATURE = Parts("people", COMMANDS, register)
