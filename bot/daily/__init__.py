"""Daily practice: a quiz pushed on a schedule to private chats and team groups."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot import scheduling
from bot.daily import answering, handlers, jobs
from bot.feature import Parts
from bot.menus import Command
from bot.scheduling import JobKind

COMMANDS: list[Command] = [
    Command("daily", "Daily quiz: /daily on [HH:MM] [Area/City], off, now, status",
            "每日一练：/daily on [HH:MM] [时区]、off、now、status"),
]


def register(app: Application) -> None:
    """Add /daily, the quiz buttons and typed group replies (private text comes through bot.private_text)."""
    app.add_handler(CommandHandler("daily", handlers.daily))
    app.add_handler(CallbackQueryHandler(answering.button, pattern=r"^d:"))
    text = filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(filters.ChatType.GROUPS & filters.REPLY & text, answering.group_reply),
                    group=3)
    for kind, callback in ((JobKind.daily_push, jobs.push_job), (JobKind.daily_catchup, jobs.push_job),
                           (JobKind.daily_retry, jobs.push_job), (JobKind.daily_resume, jobs.resume_job),
                           (JobKind.daily_close, jobs.close_job), (JobKind.daily_release, jobs.release_job)):
        scheduling.register(app, kind, callback)


async def on_startup(app: Application) -> None:
    """Re-arm every chat's push, catch up what was missed today, resume and close the rest."""
    await jobs.recover(app)


FEATURE = Parts("daily", COMMANDS, register, on_startup)
