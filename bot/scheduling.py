"""Every job the bot runs, armed and disarmed in one place: exam deadlines, daily pushes, closes,
resumes and retries, the weekly digests, the outbox's delivery job, the command menu's registration.

A job's name is stable (`deadline:<attempt>`, `daily:<chat>`, ...; the builders below are its one
home) and is also its APScheduler id, so arming a job that exists replaces it in O(1) and finding
or removing one is a dict look-up, not a scan of every job (3,000 chats, 6,000 jobs).

This module imports no feature: a feature hands its callbacks over when it registers
(`register(app, JobKind.deadline, callback)`), and any module then arms a job of that kind by name
(`once(app, JobKind.deadline, key, delay)`) without importing the feature that runs it. That is what keeps
`exam/hand_in` and `exam/jobs`, `daily/push` and `daily/jobs` out of import circles.

Every job is rebuilt from SQLite at start-up by its feature's `on_startup` (nothing is stored in
the scheduler). Recurring jobs use APScheduler's cron trigger in the chat's zone, so a push at
09:00 stays at 09:00 local time across a DST change. A job that could not start on time (a busy
loop) still runs, once: misfire_grace_time None, coalesce.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]  # APScheduler 3 ships no types
from telegram.ext import Application, JobQueue

from bot.context import Ctx
from bot.services import Slot

Callback = Callable[[Ctx], Coroutine[Any, Any, Any]]


class JobKind(StrEnum):
    """The kinds of job; a job's name is "<kind>:<key>" (or the kind alone for a single job)."""
    deadline = "deadline"  # an attempt's hand-in at its deadline (bot/exam/jobs.py)
    daily_push = "daily"  # a chat's daily push, cron (bot/daily/jobs.py)
    daily_catchup = "daily-catchup"  # a push missed today, run at start-up
    daily_retry = "daily-retry"  # a push that hit a network error, tried again
    daily_resume = "daily-resume"  # what an interrupted push (or a held-back private quiz) still lacks
    daily_close = "daily-close"  # a quiz's close: keys and the day's top
    daily_release = "daily-release"  # an exam was handed in: its user's held-back daily questions go out
    digest = "leads-digest"  # a group's weekly digest (bot/leads/digest.py)
    outbox = "outbox"  # the one must-deliver job (bot/outbox.py)
    set_commands = "set-commands"  # the command menu's registration after start-up, and its retry (bot/app.py)
    exam_timer = "exam-timer"  # an attempt's header refresh at 10/5/1 minutes left (bot/exam/timer.py)
    live = "live"  # a live round's next step: countdown, poll, close and standings, podium (bot/live/jobs.py)


_REGISTRY: Slot[dict[JobKind, Callback]] = Slot("scheduling", dict)  # kind -> callback


def name(kind: JobKind, key: object | None = None) -> str:
    """The stable name (and id) of the job of `kind` for `key`."""
    return kind.value if key is None else f"{kind.value}:{key}"


def register(app: Application, kind: JobKind, callback: Callback) -> None:
    """A feature hands over the callback that runs its jobs of `kind` (at registration)."""
    callbacks = _REGISTRY.of(app)
    if callbacks.get(kind, callback) is not callback:
        raise ValueError(f"job kind {kind!r} registered twice")
    callbacks[kind] = callback


def callback_of(app: Application, kind: JobKind) -> Callback:
    try:
        return _REGISTRY.of(app)[kind]
    except KeyError:
        raise LookupError(f"no feature registered the job kind {kind!r}") from None


def kinds(app: Application) -> dict[JobKind, Callback]:
    """Each job kind's registered callback."""
    return dict(_REGISTRY.of(app))


def _queue(app: Application) -> JobQueue[Any]:
    if app.job_queue is None:  # PTB builds it when APScheduler is installed (a dependency)
        raise RuntimeError("the Application has no JobQueue: install python-telegram-bot[job-queue]")
    return app.job_queue


def _kwargs(job_name: str, overlap: bool = False) -> dict[str, Any]:
    # APScheduler skips a run that comes due while the job's previous run is still going; a one-off
    # job re-armed from inside (or during) that run would then be lost. `overlap` lets the new run
    # start beside it (the job must serialise itself: the outbox's flush holds a lock)
    return {"id": job_name, "replace_existing": True, "misfire_grace_time": None, "coalesce": True,
            "max_instances": 2 if overlap else 1}


def once(app: Application, kind: JobKind, key: object | None = None, delay: float = 0.0, *,
         data: object | None = None, callback: Callback | None = None, overlap: bool = False) -> str:
    """(Re)arm the one-off job `kind:key` to run in `delay` seconds (0: now), replacing any job of
    that name. `data` (the key by default) is the job's data. Returns the job's name."""
    job_name = name(kind, key)
    _queue(app).run_once(callback or callback_of(app, kind), max(0.0, delay),
                           data=key if data is None else data, name=job_name, job_kwargs=_kwargs(job_name, overlap))
    return job_name


def daily(app: Application, kind: JobKind, key: object, at: time, *, data: object | None = None) -> str:
    """(Re)arm the recurring job `kind:key` every day at `at` (a time with its tzinfo: the cron
    trigger counts in that zone, so DST moves nothing)."""
    job_name = name(kind, key)
    _queue(app).run_daily(callback_of(app, kind), at, data=key if data is None else data,
                            name=job_name, job_kwargs=_kwargs(job_name))
    return job_name


def once_unless_sooner(app: Application, kind: JobKind, delay: float, *, overlap: bool = False) -> None:
    """Arm the single job `kind` in `delay` seconds, unless it is already due by then (a run in
    progress is not "due": with `overlap` the new run starts beside it, see _kwargs)."""
    job_name = name(kind)
    existing = _queue(app).scheduler.get_job(job_name)
    wanted = datetime.now(UTC) + timedelta(seconds=max(0.0, delay))
    if existing is not None and existing.next_run_time is not None and existing.next_run_time <= wanted:
        return
    once(app, kind, None, delay, overlap=overlap)


def disarm(app: Application, kind: JobKind, key: object | None = None) -> None:
    """Remove the job `kind:key` if it is armed (one look-up by id)."""
    if app.job_queue is None:
        return
    with contextlib.suppress(JobLookupError):
        app.job_queue.scheduler.remove_job(name(kind, key))


def armed(app: Application, kind: JobKind, key: object | None = None) -> bool:
    """Whether the job `kind:key` is waiting to run."""
    return app.job_queue is not None and app.job_queue.scheduler.get_job(name(kind, key)) is not None
