"""What bot/app.py needs from a feature (bot/exam, bot/daily, bot/leads, bot/invites, bot/authoring):
each exposes one `FEATURE`, and app.py lists them in the order they register.

A feature's package `__init__` stays light: it registers its handlers, jobs, outbox senders, deep
links and reports at build time, each as `on_first_use(loader)`, where `loader` is a function of
the package doing a function-level import of the module that holds the real callable and returning
it. The module loads on the first update, job or send that needs it, so a process that only runs
exams never loads daily practice, the lead's desk, invites or authoring (issue 14: cold start).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, Protocol, TypeVar

from telegram import Update
from telegram.ext import Application

from bot.context import Ctx
from bot.menus import Command

App = Application[Any, Any, Any, Any, Any, Any]
Handler = Callable[[Update, Ctx], Coroutine[Any, Any, None]]  # a PTB handler's callback

P = ParamSpec("P")
R = TypeVar("R")


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


@dataclass(frozen=True)
class Parts:
    """A Feature made of its package's functions."""

    name: str
    commands: Sequence[Command]
    register: Callable[[App], None]
    on_startup: Callable[[App], Awaitable[None]] = _nothing


def on_first_use(load: Callable[[], Callable[P, R]]) -> Callable[P, R]:
    """A stand-in for the callable `load` returns, registered in its place: `load` (a function-level
    import) runs at the first call, and every call goes to what it returned."""
    loaded: list[Callable[P, R]] = []

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        if not loaded:
            loaded.append(load())
        return loaded[0](*args, **kwargs)

    return call


def for_admins(handler: Handler) -> Handler:
    """`handler` for a configured admin's update only: anyone else's goes on to the next handler
    group at once, without loading it (an exam candidate's typed answers pass leads' /editq and
    /newpaper text and authoring's /newquestion drafts, which only configured admins can have)."""

    async def admins_only(update: Update, context: Ctx) -> None:
        user = update.effective_user
        if user is not None and context.services.is_admin(user.id):
            await handler(update, context)

    return admins_only
