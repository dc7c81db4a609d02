"""What handlers need, opened once at start-up and kept in `application.bot_data`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application, CallbackContext

from bot.settings import Settings
from proctor.clock import Clock
from proctor.people.users import UserPrefs
from proctor.storage.db import Database
from proctor.storage.updates import new_run


@dataclass
class Services:
    settings: Settings
    clock: Clock
    db: Database | None = None  # opened in post_init
    extra: dict[str, Any] = field(default_factory=dict)  # per-feature caches (never the record)
    run: str = field(default_factory=new_run)  # names this process's claims on updates
    claimed: set[int] = field(default_factory=set)  # update ids this run claimed and is handling
    # per claimed update: its user's record, read with the claim (bot.userctx takes it once)
    seen: dict[int, UserPrefs] = field(default_factory=dict)

    def now(self) -> float:
        return self.clock.now()

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.settings.admins


KEY = "services"


def services(ctx: CallbackContext | Application) -> Services:
    data = ctx.bot_data
    return data[KEY]
