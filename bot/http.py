"""The HTTP client the bot talks to the Bot API with (bot/aiohttp_request.py), claiming the update first."""

from __future__ import annotations

from typing import Any

from telegram.error import TelegramError

from bot.aiohttp_request import AiohttpRequest
from proctor.storage.db import run_carried
from proctor.storage.updates import Repeated


class RepeatedUpdate(TelegramError):
    """The update was handled before: nothing is sent for it (bot.core.on_error stops its handler)."""


class ClaimFirstRequest(AiohttpRequest):
    """Nothing reaches Telegram for an update before its claim: a handler whose first act is a
    Bot API call (not a round trip to the database, which carries the claim) claims here, and a
    repeat stops before anything is sent. (PTB's `post` is final; `do_request` is the hook it
    offers, and it turns any other exception into a NetworkError: hence a TelegramError here.)"""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            await run_carried()
        except Repeated as e:
            raise RepeatedUpdate(f"update {e} delivered again") from e
        return await super().do_request(*args, **kwargs)
