"""Daily practice: a quiz pushed on a schedule to private chats and team groups.

Light: its handlers' modules (and proctor.daily's) load on first use (bot/feature.py); start-up
loads them only when SQLite holds a schedule or an unfinished quiz for them to pick up."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot import scheduling
from bot.context import Ctx
from bot.daily import locks
from bot.exam import typed
from bot.feature import Handler, Parts, on_first_use
from bot.menus import Command
from bot.scheduling import Callback
from bot.services import services
from proctor.daily import pending

COMMANDS: list[Command] = [
    Command("daily", "Daily quiz: /daily on [HH:MM] [Area/City], off, now, status",
            "每日一练：/daily on [HH:MM] [时区]、off、now、status"),
]


def register(app: Application) -> None:
    """Add /daily, the quiz buttons, and typed answers (group replies, private text)."""
    app.add_handler(CommandHandler("daily", on_first_use(_daily)))
    app.add_handler(CallbackQueryHandler(on_first_use(_button), pattern=r"^d:"))
    text = filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(filters.ChatType.GROUPS & filters.REPLY & text, on_first_use(_group_reply)),
                    group=3)
    # private text: the exam's typed handler looks first and passes on what is not its own, found
    # and answered in its transaction (one round trip for both). It takes the chat's lock for every
    # private text, so the lock is light; the step loads on the database thread the first time the
    # exam passes text on (an exam's own typed answers never load it)
    typed.pass_text_to(app, typed.OtherText(on_first_use(_typed_in), locks.private_lock,
                                            on_first_use(_private_text)))
    push, resume, close = on_first_use(_push_job), on_first_use(_resume_job), on_first_use(_close_job)
    for kind, callback in ((scheduling.DAILY_PUSH, push), (scheduling.DAILY_CATCHUP, push),
                           (scheduling.DAILY_RETRY, push), (scheduling.DAILY_RESUME, resume),
                           (scheduling.DAILY_CLOSE, close), (scheduling.DAILY_RELEASE, _release)):
        scheduling.register(app, kind, callback)


async def on_startup(app: Application) -> None:
    """Re-arm every chat's push, catch up what was missed today, resume and close the rest (nothing
    to load when SQLite holds no schedule and no unfinished quiz)."""
    if await pending.anything_to_recover(services(app).db):
        from bot.daily.jobs import recover

        await recover(app)


async def _release(context: Ctx) -> None:
    """An exam was handed in (every hand-in arms this): the user's private quiz, if one is open, gets
    the questions it held back; daily practice loads only then."""
    if await pending.accepting_answers(context.services.db, context.job_key):  # a private chat's id is its user's
        await _release_job()(context)


# The loaders: each imports the module holding the real callable when first called.

def _daily() -> Handler:
    from bot.daily.handlers import daily

    return daily


def _button() -> Handler:
    from bot.daily.answering import button

    return button


def _group_reply() -> Handler:
    from bot.daily.answering import group_reply

    return group_reply


def _typed_in() -> Callable[[sqlite3.Connection, int, int, int | None, str, float], object]:
    from proctor.daily.steps import typed_in

    return typed_in


def _private_text() -> Callable[[Update, Ctx, object], Awaitable[None]]:
    from bot.daily.answering import private_text

    return private_text


def _push_job() -> Callback:
    from bot.daily.jobs import push_job

    return push_job


def _resume_job() -> Callback:
    from bot.daily.jobs import resume_job

    return resume_job


def _close_job() -> Callback:
    from bot.daily.jobs import close_job

    return close_job


def _release_job() -> Callback:
    from bot.daily.jobs import release_job

    return release_job


FEATURE = Parts("daily", COMMANDS, register, on_startup)
