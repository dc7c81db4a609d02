"""What bot/app.py needs from a feature (bot/exam, bot/daily, bot/leads, bot/invites): each exposes
one `FEATURE`, and app.py lists them in the order they register."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from telegram.ext import Application

Command = tuple[str, str, str]  # (command, English description, Chinese description) for the menu
App = Application[Any, Any, Any, Any, Any, Any]


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
