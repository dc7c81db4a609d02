"""Updates from one user are handled in order; different users are handled concurrently.

A candidate's quick taps (toggle, toggle, Submit) must not race each other, while 200 candidates
answering at once must not wait for each other.

One user cannot stall the others: an update waits for its user's turn *before* it takes one of the
shared slots, so a user's queue holds at most one slot (were the slot taken first, as PTB's own
process_update does, 1,500 queued updates from one user would hold all 256 slots while waiting for
their user's lock, and someone else's /help would wait 41 s).

A user's updates are also metered: a burst of BURST, then RATE a second, and at most
MAX_PENDING_PER_USER waiting or running. Past that they are dropped and the user is told once
(again only after they have slowed down enough to refill the burst), not once per dropped update.
No person types or taps that fast, only a script does. What the meter protects is shared: the
bot's 30 messages a second to Telegram (a flooder answered as fast as its queue goes would take
half of them and slow everyone's replies by hundreds of ms, see bench/bench_flood.py), the CPU,
and memory; and a capped queue stops the bot from working through minutes of stale updates. The
notice means nothing is dropped silently: the user knows to look and send again. A dropped update
was claimed when it came in (bot/intake.py): `on_drop` marks it done, so no later run handles it.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)

BURST = 20  # updates one user may send at once (a quick run of taps is 3-10)
RATE = 5.0  # updates a second one user may keep sending after the burst
MAX_PENDING_PER_USER = 50

OverflowNotice = Callable[[Update], Awaitable[None]]
DropHook = Callable[[object], Awaitable[None]]


@dataclass
class _Allowance:
    tokens: float
    at: float
    told: bool = False  # about dropped updates, since the allowance was last full


class PerUserUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = 256, *, burst: int = BURST, rate: float = RATE,
                 max_pending_per_user: int = MAX_PENDING_PER_USER, clock: Callable[[], float] = time.monotonic,
                 on_overflow: OverflowNotice | None = None, on_drop: DropHook | None = None):
        super().__init__(max_concurrent_updates)
        self.burst, self.rate, self.max_pending_per_user = burst, rate, max_pending_per_user
        self.clock = clock
        self.on_overflow = on_overflow  # awaited with the first dropped update of a flood
        self.on_drop = on_drop  # awaited with every dropped update
        self._locks: dict[int, asyncio.Lock] = {}
        self._pending: dict[int, int] = {}  # user -> updates waiting for their turn or running
        self._allowances: dict[int, _Allowance] = {}
        self.dropped = 0

    # PTB marks process_update @final (a typing marker only) and takes the shared slot before
    # do_process_update; the order must be the other way round here, so it is overridden.
    async def process_update(self, update: object, coroutine: Awaitable[Any]) -> None:  # type: ignore[misc]
        key = _key(update)
        if key is None:
            async with self._semaphore:
                await coroutine
            return
        allowance = self._allowance(key)
        if allowance.tokens < 1 or self._pending.get(key, 0) >= self.max_pending_per_user:
            await self._drop(allowance, key, update, coroutine)
            return
        allowance.tokens -= 1
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._pending[key] = self._pending.get(key, 0) + 1
        try:
            async with lock, self._semaphore:
                await self.do_process_update(update, coroutine)
        finally:
            self._pending[key] -= 1
            if not self._pending[key]:  # forget idle users so the maps stay small
                del self._pending[key]
                self._locks.pop(key, None)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        await coroutine

    def _allowance(self, key: int) -> _Allowance:
        """The user's allowance, refilled for the time since it was last used."""
        now = self.clock()
        found = self._allowances.get(key)
        if found is None:
            if len(self._allowances) > 10_000:  # forget users whose allowance is full again
                self._allowances = {k: a for k, a in self._allowances.items()
                                    if a.tokens + (now - a.at) * self.rate < self.burst}
            found = self._allowances[key] = _Allowance(float(self.burst), now)
        found.tokens = min(float(self.burst), found.tokens + max(0.0, now - found.at) * self.rate)
        found.at = now
        if found.tokens >= self.burst and not self._pending.get(key):
            found.told = False  # slowed down: a new flood gets a new notice
        return found

    async def _drop(self, allowance: _Allowance, key: int, update: object, coroutine: Awaitable[Any]) -> None:
        if inspect.iscoroutine(coroutine):
            coroutine.close()  # never started: no "was never awaited" warning
        self.dropped += 1
        if self.on_drop is not None:
            try:
                await self.on_drop(update)
            except Exception:  # left claimed: handled at the next start, never lost; the loop goes on
                log.warning("could not mark a dropped update of user %s done", key, exc_info=True)
        if allowance.told:
            return
        allowance.told = True
        log.warning("user %s sends faster than %d at once and %g a second: dropping their excess updates",
                    key, self.burst, self.rate)
        if self.on_overflow is not None and isinstance(update, Update):
            try:
                await self.on_overflow(update)
            except Exception:  # the notice is a courtesy; never let it break the update loop
                log.warning("could not tell user %s about dropped updates", key, exc_info=True)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def _key(update: object) -> int | None:
    if isinstance(update, Update) and update.effective_user is not None:
        return update.effective_user.id
    return None
