"""`/tick 1h` in the sandbox: move the bot's clock forward and run what fell due meanwhile.

The sandbox's clock is the system clock plus an offset (ShiftedClock). A job armed before the tick
was armed for a real time `delay` seconds ahead; after a tick of `seconds` it is due that much
earlier: jobs now due run at once (awaited, in order, as if their trigger fired), the others are
moved earlier. A daily job runs once per tick that passes its hour.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from apscheduler.triggers.date import DateTrigger
from telegram.ext import Application

from proctor.clock import ShiftedClock

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])", re.IGNORECASE)


def parse_duration(text: str) -> float | None:
    """Seconds in `1h`, `90m`, `1d12h`, `2w`; None if that's not a duration (or it is zero)."""
    text = text.strip().replace(" ", "")
    if not text or _PART.sub("", text):
        return None
    seconds = sum(float(n) * _UNITS[u.lower()] for n, u in _PART.findall(text))
    return seconds or None


async def tick(app: Application, clock: ShiftedClock, seconds: float) -> int:
    """Moves the clock; runs the jobs that fell due and moves the others earlier. Returns how many ran."""
    clock.advance(seconds)
    now = datetime.now(UTC)
    due = []
    for job in app.job_queue.jobs():
        when = job.next_t
        if when is None:
            continue
        moved = when - timedelta(seconds=seconds)
        if moved <= now:
            due.append((moved, job))
        else:
            job.job.modify(next_run_time=moved)
    ran = 0
    for _, job in sorted(due, key=lambda pair: pair[0]):
        if isinstance(job.job.trigger, DateTrigger):
            job.schedule_removal()  # a one-off: it runs here, not again later
        else:  # a recurring job: its next time as its trigger counts it from now
            job.job.modify(next_run_time=job.job.trigger.get_next_fire_time(None, now + timedelta(seconds=1)))
        await job.run(app)
        ran += 1
    return ran
