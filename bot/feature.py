"""What bot/app.py needs from a feature (bot/exam, bot/daily, bot/boards, bot/people, bot/leads,
bot/invites, bot/authoring, bot/live): each exposes one `FEATURE`, and app.py lists them in the order
they register.

A feature's package `__init__` imports its handlers' modules at the top and registers their
callables in one `register` function: its handlers, jobs, outbox senders, deep links and reports.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import Update
from telegram.ext import Application

from bot.context import Ctx
from bot.menus import Command

App = Application[Any, Any, Any, Any, Any, Any]
Handler = Callable[[Update, Ctx], Coroutine[Any, Any, None]]  # a PTB handler's callback


class Feature(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def commands(self) -> Sequence[Command]:
        """Its entries in the command menu (each has a CommandHandler: tests/bot/test_bot_context.py)."""
        ...

    def register(self, app: App) -> None:
        """Add its handlers, job kinds, outbox senders, deep links (at build time: nothing is open)."""
        ...

    def on_startup(self, app: App) -> Awaitable[None]:
        """Rebuild its jobs from SQLite (post_init, the database open)."""
        ...


async def _nothing(app: App) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Parts:
    """A Feature made of its package's functions."""

    name: str
    commands: Sequence[Command]
    register: Callable[[App], None]
    on_startup: Callable[[App], Awaitable[None]] = _nothing


def for_admins(handler: Handler) -> Handler:
    """`handler` for a configured admin's update only: anyone else's goes on to the next handler
    group at once, without a query (an exam candidate's typed answers pass the text handlers of
    /editq, /newpaper and /newquestion, which only configured admins can have)."""

    async def admins_only(update: Update, context: Ctx) -> None:
        user = update.effective_user
        if user is not None and context.services.is_admin(user.id):
            await handler(update, context)

    return admins_only
