"""`proctor run` on a PostgreSQL record: active or standby (docs/leadership.md).

Before it polls, the process runs for the lease (proctor.storage.campaign.Campaign). As a standby it
heartbeats (the campaign's thread) and says whom it waits for, and does nothing else: no getUpdates,
no jobs, no sends. Once it leads, its campaign is the record's fence (`Database.fencing`: every write
transaction checks the epoch) and the bot starts as a bot alone does: it takes back the updates left
unfinished, arms the jobs from the record, starts the outbox, and polls or sets the webhook to its own
URL. The record carries what the last active left: update claims, the outbox's marks, the jobs'
times, each exam at its question.

When it stops leading (a renew found the lease taken, none answered within the step-down on the
process's own clock, or a write met a newer epoch) the process exits at once with `EXIT_STOOD_DOWN`,
from the campaign's thread: polling, jobs and sends end with it whatever the event loop is waiting on
(a statement on a cut connection included), as they would on a kill -9, which the record is built to
survive. Its supervisor starts it again, as a standby. A SQLite record has one process and no campaign.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys

from bot.lifecycle import STOP_SIGNALS
from proctor.storage.campaign import Campaign, Stop, StopReason, db_errors
from proctor.storage.db import Database
from proctor.storage.lease import LeaseStatus, Timings, connect, status
from proctor.storage.location import PostgresUrl

log = logging.getLogger(__name__)

# the exit status of a process that stopped leading: EX_TEMPFAIL (sysexits.h), "start me again"
EXIT_STOOD_DOWN = 75
WHO_EVERY = 5.0  # seconds between a standby's looks at which process it waits for


def stood_down(stop: Stop) -> None:
    """The campaign's `on_stopped`: a process that stopped leading exits now, saying why in one line.
    A clean stop (the process ends, its campaign closes) is the process's own business."""
    if stop.reason is StopReason.closed:
        return
    log.error("stopped leading (epoch %d, %s): exiting with status %d; a supervisor starts this process "
              "again as a standby", stop.epoch, stop.reason.value, EXIT_STOOD_DOWN)
    for handler in logging.getLogger().handlers:
        with contextlib.suppress(Exception):
            handler.flush()
    with contextlib.suppress(Exception):
        sys.stderr.flush()
        sys.stdout.flush()
    os._exit(EXIT_STOOD_DOWN)  # no clean-up: the next active goes on from the record


def wait_to_lead(loop: asyncio.AbstractEventLoop, db: Database, url: PostgresUrl,
                 timings: Timings = Timings()) -> Campaign | None:
    """Runs `loop` until this process leads, then returns its campaign, set as `db`'s fence; None when
    a stop signal (SIGINT, SIGTERM) came first (the campaign is closed: it never led)."""
    led = asyncio.Event()
    stop = asyncio.Event()

    def on_active(epoch: int) -> None:  # on the campaign's thread
        loop.call_soon_threadsafe(led.set)

    campaign = Campaign(url.conninfo(), on_active=on_active, on_stopped=stood_down, timings=timings)
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        campaign.start()
        loop.run_until_complete(_stand_by(url, led, stop, timings))
    except BaseException:
        campaign.close()
        raise
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    if stop.is_set():
        campaign.close()  # a lease taken meanwhile is released
        return None
    db.fencing = campaign
    return campaign


async def _stand_by(url: PostgresUrl, led: asyncio.Event, stop: asyncio.Event, timings: Timings) -> None:
    """Waits until this process leads or is told to stop, saying whom it waits for when that changes."""
    said: tuple[str, int] | None = None
    while not led.is_set() and not stop.is_set():
        try:
            now = await asyncio.to_thread(_read, url, timings)
        except db_errors() as e:
            log.info("standby: cannot read the lease: %s", str(e).strip().splitlines()[0] if str(e).strip() else e)
        else:
            who = (now.holder, now.epoch) if now.active and now.holder is not None else None
            if who is not None and who != said and not led.is_set():
                log.info("standby: waiting for the active %s (epoch %d)", *who)
            said = who
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(WHO_EVERY):
                await _either(led, stop)


async def _either(a: asyncio.Event, b: asyncio.Event) -> None:
    waits = [asyncio.ensure_future(a.wait()), asyncio.ensure_future(b.wait())]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


def _read(url: PostgresUrl, timings: Timings) -> LeaseStatus:
    with connect(url.conninfo(), timings) as conn:
        return status(conn, timings=timings)


def status_lines(now: LeaseStatus, timings: Timings = Timings()) -> list[str]:
    """What `proctor status` says about leadership on PostgreSQL: the active process (holder, since,
    epoch), the standbys seen within `timings.standby_seen`, and this machine's clock against PostgreSQL's."""
    if now.active and now.holder is not None and now.since is not None and now.renewed_at is not None:
        renewed = (now.db_now - now.renewed_at).total_seconds()
        lines = [f"active: {now.holder} (epoch {now.epoch}, since {now.since:%Y-%m-%d %H:%M:%S %Z}, "
                 f"renewed {renewed:.1f} s ago)"]
    elif now.holder is not None and now.expires_at is not None:
        lines = [f"active: none (the lease of {now.holder}, epoch {now.epoch}, ran out at "
                 f"{now.expires_at:%Y-%m-%d %H:%M:%S %Z})"]
    else:
        lines = ["active: none (no process has led)"]
    if now.standbys:
        lines += [f"standby: {s.holder} (seen {(now.db_now - s.seen_at).total_seconds():.1f} s ago)"
                  for s in now.standbys]
    else:
        lines.append(f"standby: none seen in the last {timings.standby_seen:.0f} s: if the active dies, the bot stops")
    skew = -now.skew  # this machine's clock minus PostgreSQL's
    warn = " (over 1 s: keep both on NTP)" if abs(skew) > timings.skew_warn else ""
    lines.append(f"clock: this machine's differs from PostgreSQL's by {skew:+.2f} s{warn}")
    return lines


async def read_status(url: PostgresUrl) -> LeaseStatus:
    """The lease as `proctor status` shows it, read on a connection of its own."""
    return await asyncio.to_thread(_read, url, Timings())
