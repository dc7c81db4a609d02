"""Updates from one user are handled in order; different users are handled concurrently.

A candidate's quick taps (toggle, toggle, Submit) must not race each other, while 200 candidates
answering at once must not wait for each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


class PerUserUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = 256):
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = _key(update)
        if key is None:
            await coroutine
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._users[key] -= 1
            if not self._users[key]:  # forget idle users so the map stays small
                del self._users[key]
                self._locks.pop(key, None)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def _key(update: object) -> int | None:
    if isinstance(update, Update) and update.effective_user is not None:
        return update.effective_user.id
    return None
