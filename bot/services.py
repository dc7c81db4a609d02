"""What handlers need, opened once at start-up (post_init) and kept in `application.bot_data`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from telegram.ext import Application, CallbackContext

from bot.settings import Settings
from proctor.clock import Clock
from proctor.daily.candidates import CandidatePool
from proctor.storage.db import Database
from proctor.storage.updates import new_run

T = TypeVar("T")

# what holds bot_data: an Application, or the context a handler or job receives
HasBotData = CallbackContext[Any, Any, Any, Any] | Application[Any, Any, Any, Any, Any, Any]


@dataclass
class Services:
    """Created in post_init once the database is open (bot/app.py): every handler and job runs after."""

    settings: Settings
    clock: Clock
    db: Database
    run: str = field(default_factory=new_run)  # names this process's claims on updates
    candidates: CandidatePool = field(default_factory=CandidatePool)  # daily practice's, kept while unchanged

    def now(self) -> float:
        return self.clock.now()

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.settings.admins


KEY = "services"


def services(ctx: HasBotData) -> Services:
    """The running bot's services (handlers may also use `context.services`, bot/context.py)."""
    svc = ctx.bot_data.get(KEY)
    if not isinstance(svc, Services):
        raise RuntimeError("the bot has not started: its services are opened in post_init")
    return svc


class Slot(Generic[T]):
    """One piece of per-Application state a feature owns (its registry, cache or lock), typed and
    kept in bot_data under the feature's own key; made on first use. Never the record: that is SQLite."""

    def __init__(self, key: str, factory: Callable[[], T]) -> None:
        self.key = key
        self.factory = factory

    def of(self, ctx: HasBotData) -> T:
        data = ctx.bot_data
        if self.key not in data:
            data[self.key] = self.factory()
        return cast(T, data[self.key])
