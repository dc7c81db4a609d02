"""The `context` every handler, job and error handler receives: PTB's CallbackContext with the
bot's services, their clock and who is calling. Registered through `ContextTypes` in bot/app.py."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ExtBot

from bot import roles
from bot.services import Services, services


class ProctorContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """What a handler may ask its context for, typed."""

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any], chat_id: int | None = None,
                 user_id: int | None = None) -> None:
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self._update: Update | None = None  # the update being handled; None in a job

    @classmethod
    def from_update(cls, update: object, application: Application[Any, Any, Any, Any, Any, Any]) -> ProctorContext:
        ctx = super().from_update(update, application)
        if isinstance(update, Update):
            ctx._update = update
        return ctx

    @property
    def services(self) -> Services:
        return services(self)

    def now(self) -> float:
        """The services' clock (a ManualClock in tests, shifted in the sandbox)."""
        return self.services.now()

    @property
    def caller_id(self) -> int:
        """The id of the user whose update this is. Only for updates that have a user (commands,
        buttons, messages); a job has none: a bug, so it raises."""
        user = self._update.effective_user if self._update is not None else None
        if user is None:
            raise LookupError("this update has no user")
        return user.id

    async def caller_is_lead(self) -> bool:
        """Whether the caller is a lead in the chat of this update (bot/roles.py; checked every time)."""
        if self._update is None:
            return False
        chat = self._update.effective_chat
        return await roles.is_team_lead(self, self.caller_id, chat.id if chat else None, chat.type if chat else None)


Ctx = ProctorContext  # the one name handlers annotate their `context` with
