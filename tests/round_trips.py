"""Counting database round trips per update: every call that hops to aiosqlite's thread.

aiosqlite runs each call (execute, executemany, execute_fetchall, a cursor's fetch or close,
commit...) as one function queued to the connection's thread: `Connection._execute`. The counter
wraps that on the bot's connection and credits each hop to the update being handled in the task
that made it (tasks the handler spawns, jobs and the outbox are not the update's). The claim is the
polling loop's, one per batch as it comes in (bot/intake.py): its hops are credited to the next
update whose handling begins, the first of its batch (the tests send one update at a time).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import defaultdict
from dataclasses import dataclass, field

from telegram import Update

from bot.daily import callbacks as daily_cb
from bot.exam import callbacks as exam_cb
from bot.polling import POLLER
from bot.services import services

_STEP: contextvars.ContextVar[Step | None] = contextvars.ContextVar("round_trip_step", default=None)


@dataclass
class Step:
    kind: str
    task: asyncio.Task | None
    hops: int = 0
    calls: list[str] = field(default_factory=list)


def kind_of(update: object) -> str:
    """What an update is, for the table: the button's action, 'typed', or the command."""
    if not isinstance(update, Update):
        return "other"
    if update.callback_query is not None:
        data = update.callback_query.data or ""
        if data.startswith("d:"):
            press = daily_cb.parse(data)
            return f"daily {press.action}" if press else "daily ?"
        parsed = exam_cb.parse(data)
        return f"exam {getattr(parsed, 'action', 'pick')}" if parsed else "?"
    if update.poll_answer is not None:
        return "poll answer"
    text = update.effective_message.text if update.effective_message else ""
    if text and text.startswith("/"):
        return text.split()[0]
    return "typed reply" if update.effective_message.reply_to_message else "typed"


class RoundTrips:
    def __init__(self, app, *, prefix: str = ""):
        self.steps: list[Step] = []
        self.prefix = prefix
        self._door: list[str] = []  # the polling loop's calls since an update's handling last began
        conn = services(app).db.conn
        original = conn._execute
        poller = POLLER.of(app).task

        async def counted(fn, *args, **kwargs):
            step = _STEP.get()
            task = asyncio.current_task()
            if step is not None and step.task is task:
                step.hops += 1
                step.calls.append(getattr(fn, "__name__", repr(fn)))
            elif task is poller and poller is not None:
                self._door.append(getattr(fn, "__name__", repr(fn)))
            return await original(fn, *args, **kwargs)

        conn._execute = counted
        processor = app.update_processor
        do = processor.do_process_update

        async def per_update(update, coroutine):
            step = Step(self.prefix + kind_of(update), asyncio.current_task(), len(self._door), self._door)
            self._door = []
            token = _STEP.set(step)
            try:
                await do(update, coroutine)
            finally:
                _STEP.reset(token)
                self.steps.append(step)

        processor.do_process_update = per_update

    def most(self) -> dict[str, int]:
        """The most round trips any update of each kind took."""
        out: dict[str, int] = defaultdict(int)
        for s in self.steps:
            out[s.kind] = max(out[s.kind], s.hops)
        return dict(out)

    def table(self) -> str:
        return "\n".join(f"{k:24} {v}" for k, v in sorted(self.most().items()))
