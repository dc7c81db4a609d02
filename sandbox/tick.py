"""`/tick 1h` in the sandbox: move the bot's clock forward and run, in order, what fell due meanwhile.

The sandbox's clock is the system clock plus an offset (ShiftedClock); a job is armed for a real
time, `delay` seconds of the bot's clock ahead, so its time on the bot's clock is its real time
plus the offset. A tick steps the clock from one due job to the next (each job runs with the clock
at its own time, as if the hours passed: a deadline, then the quiz's close, the next morning's
push...), then to the end of the tick, moving the waiting jobs earlier by each step. The scheduler
is paused meanwhile so that it fires nothing on its own. A daily job counts its hour on the bot's
clock.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from apscheduler.triggers.date import DateTrigger  # type: ignore[import-untyped]  # APScheduler 3 ships no types
from telegram.ext import Application, Job, JobQueue

from proctor.clock import Clock


class MovableClock(Clock, Protocol):
    """A clock /tick can move (proctor.clock's ShiftedClock, ManualClock)."""

    def advance(self, seconds: float) -> float: ...


def _queue(app: Application[Any, Any, Any, Any, Any, Any]) -> JobQueue[Any]:
    if app.job_queue is None:
        raise RuntimeError("the Application has no JobQueue")
    return app.job_queue

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])", re.IGNORECASE)
MAX_RUNS = 1000  # a job that re-arms itself at once must not spin a tick forever


def parse_duration(text: str) -> float | None:
    """Seconds in `1h`, `90m`, `1d12h`, `2w`; None if that's not a duration (or it is zero)."""
    text = text.strip().replace(" ", "")
    if not text or _PART.sub("", text):
        return None
    seconds = sum(float(n) * _UNITS[u.lower()] for n, u in _PART.findall(text))
    return seconds or None


def _offset(clock: Clock) -> float:
    return clock.now() - time.time()


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _due(job: Job, clock: Clock) -> float | None:
    """The job's time on the bot's clock."""
    return job.next_t.timestamp() + _offset(clock) if job.next_t is not None else None


def _rebase_recurring(app: Application, clock: Clock, after: float) -> None:
    """A recurring job's next time, counted on the bot's clock (its trigger counted real time)."""
    for job in _queue(app).jobs():
        if job.next_t is not None and not isinstance(job.job.trigger, DateTrigger):
            nxt = job.job.trigger.get_next_fire_time(None, _at(after))
            if nxt is not None:
                job.job.modify(next_run_time=_at(nxt.timestamp() - _offset(clock)))


def _advance(app: Application, clock: MovableClock, step: float) -> None:
    if step <= 0:
        return
    clock.advance(step)
    for job in _queue(app).jobs():  # the same time on the bot's clock is `step` sooner in real time
        if job.next_t is not None:
            job.job.modify(next_run_time=job.next_t - timedelta(seconds=step))


async def tick(app: Application, clock: MovableClock, seconds: float) -> int:
    """Moves the clock `seconds` forward, running each job that falls due at its time. Returns how many ran."""
    scheduler = _queue(app).scheduler
    scheduler.pause()
    ran = 0
    try:
        moved = 0.0  # how far the clock went so far; real time runs on meanwhile
        _rebase_recurring(app, clock, clock.now())
        while ran < MAX_RUNS:
            end = clock.now() + seconds - moved
            due = [(when, job) for job in _queue(app).jobs()
                   if (when := _due(job, clock)) is not None and when <= end]
            if not due:
                break
            when, job = min(due, key=lambda pair: pair[0])
            step = max(0.0, when - clock.now())
            _advance(app, clock, step)
            moved += step
            if isinstance(job.job.trigger, DateTrigger):
                job.schedule_removal()  # a one-off: it runs here, not again later
            else:
                _rebase_recurring(app, clock, clock.now() + 1)
            await job.run(app)
            ran += 1
        _advance(app, clock, seconds - moved)
    finally:
        scheduler.resume()
    return ran
