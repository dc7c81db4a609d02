"""The `context` every handler, job and error handler receives: PTB's CallbackContext with the
bot's services, their clock and who is calling. Registered through `ContextTypes` in bot/app.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.ext import Application, CallbackContext, ExtBot

from bot import roles
from bot.services import Services, services
from proctor.people.users import UserPrefs

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Seen:
    """What an update's claim reads first: the user's record and, for a message in a group, the
    group's own (language, script)."""

    prefs: UserPrefs
    group: tuple[str | None, str | None] | None


@dataclass(frozen=True)
class Claim:
    """An update this run claimed (bot.core.ProctorApplication), on its handlers' context: `seen` is
    what the claim read for `bot.userctx.user_ctx`, None for an update without a user or once
    user_ctx has taken it (a later call reads anew)."""

    update_id: int
    seen: Seen | None


def _present(value: T | None, what: str) -> T:
    if value is None:  # a handler asked for what its update cannot have: a bug in its registration
        raise LookupError(f"this update has no {what}")
    return value


class ProctorContext(CallbackContext[ExtBot[Any], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """What a handler may ask its context for, typed."""

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any], chat_id: int | None = None,
                 user_id: int | None = None) -> None:
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self._update: Update | None = None  # the update being handled; None in a job
        self.claim: Claim | None = None  # the update's claim; None in a job or the error handler

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

    # The update's parts a handler's registration guarantees (a command has a message, a chat and a
    # user; a button has a query), typed without None. Asking for a missing one raises.
    @property
    def incoming(self) -> Update:
        return _present(self._update, "update (a job's context)")

    @property
    def message(self) -> Message:
        return _present(self.incoming.effective_message, "message")

    @property
    def chat(self) -> Chat:
        return _present(self.incoming.effective_chat, "chat")

    @property
    def user(self) -> User:
        return _present(self.incoming.effective_user, "user")

    @property
    def query(self) -> CallbackQuery:
        return _present(self.incoming.callback_query, "callback query")

    @property
    def caller_id(self) -> int:
        """The id of the user whose update this is."""
        return self.user.id

    @property
    def job_data(self) -> object:
        """In a job: what it was armed with (bot/scheduling.py)."""
        return _present(self.job, "job (an update's context)").data

    @property
    def job_key(self) -> int:
        """In a job armed with an id (an attempt's, a chat's, a delivery's, a user's): that id."""
        data = self.job_data
        if not isinstance(data, int):
            raise TypeError(f"job {self.job.name if self.job else ''!r} carries {data!r}, not an id")
        return data

    async def caller_is_lead(self) -> bool:
        """Whether the caller leads the team of this update's chat, or is a configured admin
        (bot/roles.py: asked again on every command, never remembered)."""
        return await roles.is_team_lead(self, self.caller_id, self.chat.id, self.chat.type)


Ctx = ProctorContext  # the one name handlers annotate their `context` with
