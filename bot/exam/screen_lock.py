"""An attempt's screen is written by one coroutine at a time.

A handler's next question, the timer's refresh and the outbox's result card each call Telegram about
the attempt's screen while holding the attempt's lock. Without it, a step stored while the attempt ran
could have its reply go out after the hand-in: the reply waits for a turn at the pacer while the card,
an edit in the screen's place, takes none, and the late reply would then edit the card back into a
question or delete it as the old screen.

The card sender marks the attempt under the lock (`card_turn`); a screen shown for a step that saw the
attempt running is dropped once its card was marked (`screen_turn`). The mark is this process's
memory of its own screens, not the record: a step and its reply run in one process, and the card of
an attempt comes only after its hand-in, so after its step.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from weakref import WeakValueDictionary

from bot.services import HasBotData, Slot
from proctor.exams.model import Attempt


class Screens:
    """One lock per attempt whose screen someone is writing (dropped when nobody holds or awaits it),
    and the attempts whose card was shown lately (the last `KEPT`: far more than a deadline minute's
    cards, the window in which a late reply can follow its card)."""

    KEPT = 10_000

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._carded: OrderedDict[int, None] = OrderedDict()

    def lock(self, attempt_id: int) -> asyncio.Lock:
        lock = self._locks.get(attempt_id)
        if lock is None:
            lock = self._locks[attempt_id] = asyncio.Lock()
        return lock

    def carded(self, attempt_id: int) -> None:
        self._carded[attempt_id] = None
        self._carded.move_to_end(attempt_id)
        while len(self._carded) > self.KEPT:
            self._carded.popitem(last=False)

    def has_card(self, attempt_id: int) -> bool:
        return attempt_id in self._carded


_SCREENS: Slot[Screens] = Slot("exam_screens", Screens)


def screen_lock(ctx: HasBotData, attempt_id: int) -> asyncio.Lock:
    """The lock over `attempt_id`'s screen in this process (one process sends: bot/leadership.py)."""
    return _SCREENS.of(ctx).lock(attempt_id)


@asynccontextmanager
async def card_turn(ctx: HasBotData, attempt_id: int) -> AsyncIterator[None]:
    """Hold the screen for the attempt's result card: from here on the screen is the card's, even if a
    call below fails (the outbox tries again), so no late reply shows a question there."""
    screens = _SCREENS.of(ctx)
    async with screens.lock(attempt_id):
        screens.carded(attempt_id)
        yield


@asynccontextmanager
async def screen_turn(ctx: HasBotData, seen: Attempt) -> AsyncIterator[bool]:
    """Hold the screen for a step's reply; yields False when `seen` (the attempt as the step left it)
    was running and the attempt's card has been shown since: nothing may then touch its screen."""
    screens = _SCREENS.of(ctx)
    async with screens.lock(seen.id):
        yield not (seen.running and screens.has_card(seen.id))
