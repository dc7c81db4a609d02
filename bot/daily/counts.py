"""The answer count under a group question, edited at most once every few seconds per message.

Telegram limits edits too, so taps are coalesced: the first edit goes out at once, later ones
wait until EDIT_INTERVAL has passed since the previous edit, and the count is read when the edit
is made, so the last change always lands.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.ext import Application

from bot.daily import push, render
from bot.services import Slot, services
from proctor.daily import answers as answer_store
from proctor.daily import delivery as dstore

log = logging.getLogger(__name__)

EDIT_INTERVAL = 3.0  # seconds between two edits of one question message


class CountEditor:
    """Debounced edits of question messages, keyed by (delivery, pos)."""

    def __init__(self, interval: float = EDIT_INTERVAL):
        self.interval = interval
        self.last: dict[tuple[int, int], float] = {}
        self.waiting: set[tuple[int, int]] = set()
        self.edits = 0  # edits made, for tests and benchmarks

    def touch(self, app: Application, delivery_id: int, pos: int) -> None:
        """An answer came in: make sure an edit follows, soon but not too soon."""
        key = (delivery_id, pos)
        if key in self.waiting:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self.last.get(key, -1e9) + self.interval - loop.time())
        self.waiting.add(key)
        app.create_task(self._edit_later(app, key, delay), name=f"daily-count:{delivery_id}:{pos}")

    async def _edit_later(self, app: Application, key: tuple[int, int], delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        # leave the waiting set before reading the count: an answer from now on schedules another edit
        self.waiting.discard(key)
        self.last[key] = asyncio.get_running_loop().time()
        try:
            await refresh(app, *key)
            self.edits += 1
        except Exception:
            log.warning("could not refresh the answer count of %s", key, exc_info=True)


_EDITOR: Slot[CountEditor] = Slot("daily_counts", CountEditor)


def editor(app: Application) -> CountEditor:
    return _EDITOR.of(app)


async def refresh(app: Application, delivery_id: int, pos: int) -> None:
    """Re-render a group question with its current answer count."""
    svc = services(app)
    delivery = await dstore.get_delivery(svc.db, delivery_id)
    item = await dstore.get_item(svc.db, delivery_id, pos)
    if item.message_id is None:
        return
    view = next(v for v in await push.views(app, delivery) if v.pos == pos)
    there = await push.prefs(app, delivery.chat_id, False)
    lang, script = there.lang, there.script
    count = await answer_store.answer_count(svc.db, delivery_id, pos)
    text = render.question_text(view, lang, script, private=False, count=count)
    markup = render.question_keyboard(view, lang) if delivery.accepts_answers else None
    await push.safe_edit(app, delivery.chat_id, item.message_id, text, markup)
