"""Running for leadership: a process stands by until it takes the lease (proctor.storage.lease), then
renews it every `renew_every`, and stops leading when no renew has answered for `step_down`, counted on
its own monotonic clock, so a frozen or cut-off process decides alone and before its lease runs out.

Two daemon threads, not the event loop: the lease's connection is synchronous (psycopg), and a renew
stuck on a cut connection must hold up neither the bot's loop nor its shutdown (asyncio.to_thread's
pool is joined when the loop ends; a daemon thread is not). The lease thread runs the statements; the
watchdog thread stops an active that is overdue and shuts the socket of a statement that overran
`call_timeout`, which frees the lease thread to reconnect. `on_active` and `on_stopped` run on those
threads: the bot hands them to its loop with `loop.call_soon_threadsafe`. A campaign ends when it stops
leading; the process then exits and its supervisor starts it again as a standby.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from proctor.clock import Clock, SystemClock
from proctor.storage.lease import (
    LEASE_NAME,
    StaleEpoch,
    Term,
    Timings,
    acquire,
    connect,
    fence,
    heartbeat,
    holder_id,
    release,
    renew,
    skew_of,
)

if TYPE_CHECKING:
    import psycopg  # heavy: only a process on a postgresql:// record campaigns (pyproject.toml)

log = logging.getLogger(__name__)


class Role(StrEnum):
    standby = "standby"
    active = "active"
    stopped = "stopped"


class StopReason(StrEnum):
    overdue = "overdue"  # no renew answered within step_down
    lost = "lost"  # a renew found the lease no longer ours
    fenced = "fenced"  # a write found a newer epoch (StaleEpoch)
    closed = "closed"  # the process stopped and released its lease


@dataclass(frozen=True)
class Stop:
    reason: StopReason
    epoch: int
    last_renew: float  # time.monotonic() when the last good renew (or the take) began


def overdue(last_renew: float, now: float, timings: Timings) -> bool:
    """Whether an active must stop: its last good renew began `step_down` or more ago (monotonic)."""
    return now - last_renew >= timings.step_down


def db_errors() -> tuple[type[Exception], ...]:
    """What a lease statement raises when PostgreSQL or the network fails: psycopg's errors, a socket's."""
    import psycopg  # heavy: only a process on a postgresql:// record campaigns

    return (psycopg.Error, OSError)


def abort(conn: psycopg.Connection[Any]) -> None:
    """Shuts the connection's socket, so a statement waiting on it (on another thread) fails now."""
    try:
        with socket.socket(fileno=os.dup(conn.fileno())) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except db_errors():
        pass  # already closed


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class Campaign:
    """One process's run for the lease named `name` on the database at `url`."""

    def __init__(self, url: str, *, on_active: Callable[[int], None], on_stopped: Callable[[Stop], None],
                 timings: Timings = Timings(), name: str = LEASE_NAME, holder: str | None = None,
                 clock: Clock = SystemClock()) -> None:
        self.url = url
        self.on_active = on_active
        self.on_stopped = on_stopped
        self.timings = timings
        self.name = name
        self.holder = holder or holder_id()
        self.clock = clock  # this machine's wall clock, read only to measure its skew from PostgreSQL's
        self._cond = threading.Condition()
        self._role = Role.standby
        self._epoch = 0
        self._last_renew = 0.0
        self._call_began: float | None = None
        self._pg: psycopg.Connection[tuple[Any, ...]] | None = None
        self._closing = threading.Event()
        self._skewed = False
        self._standby_missing = False
        self._threads = [threading.Thread(target=self._lease_loop, name="lease", daemon=True),
                         threading.Thread(target=self._watch, name="lease-watchdog", daemon=True)]

    @property
    def role(self) -> Role:
        with self._cond:
            return self._role

    @property
    def epoch(self) -> int:
        """The epoch this process leads with (the fencing token); 0 before it first leads."""
        with self._cond:
            return self._epoch

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def step_down(self, reason: StopReason) -> None:
        """Stops leading now (a write met a newer epoch, or the process ends)."""
        self._stop(reason)

    def fence(self, conn: psycopg.Connection[Any]) -> None:
        """The write path's fence (proctor.storage.db.Fencing), inside a write transaction as its last
        statement: refuses the write (StaleEpoch; the caller rolls back) unless this process leads, on its
        own monotonic clock and on the lease's epoch. A newer epoch steps the process down."""
        with self._cond:
            role, epoch, last_renew = self._role, self._epoch, self._last_renew
        if role is not Role.active or overdue(last_renew, time.monotonic(), self.timings):
            raise StaleEpoch(f"this process no longer leads (epoch {epoch}): its write was refused")
        try:
            fence(conn, epoch, name=self.name)
        except StaleEpoch:
            self.step_down(StopReason.fenced)
            raise

    def close(self) -> None:
        """Stops campaigning; an active releases its lease, so a standby takes over at its next poll."""
        self._closing.set()
        self._stop(StopReason.closed)
        for thread in self._threads:
            if thread.ident is not None and thread is not threading.current_thread():
                thread.join(self.timings.call_timeout + 0.5)

    def _stop(self, reason: StopReason) -> None:
        with self._cond:
            was = self._role
            self._role = Role.stopped
            self._cond.notify_all()
            stop = Stop(reason, self._epoch, self._last_renew)
            if reason is StopReason.overdue and self._call_began is not None and self._pg is not None:
                abort(self._pg)  # the renew still waiting on a cut connection returns; the lease thread ends
        if was is Role.active:  # on_stopped says it in the process's log, and what the process does next
            self.on_stopped(stop)

    # the lease thread

    def _lease_loop(self) -> None:
        while not self._closing.is_set():
            began = time.monotonic()
            role = self.role
            if role is Role.stopped:
                break
            try:
                self._step(role, began)
                pause = self.timings.renew_every if self.role is Role.active else self.timings.poll_every
            except db_errors() as e:
                self._drop_connection()
                if role is Role.active:
                    # again soon on a new connection: one dropped connection need not cost a takeover
                    log.warning("lease: renew failed: %s", first_line(e))
                    pause = self.timings.renew_every / 4
                else:
                    log.info("lease: %s", first_line(e))
                    pause = self.timings.poll_every
            self._closing.wait(max(0.0, began + pause - time.monotonic()))
        self._finish()

    def _step(self, role: Role, began: float) -> None:
        conn = self._pg_connection()
        if role is Role.active:
            with self._calling(began):
                before = self.clock.now()
                term = renew(conn, self.holder, self._epoch, self.timings.ttl, name=self.name)
                after = self.clock.now()
            if term is None:
                self._stop(StopReason.lost)
                return
            with self._cond:
                if self._role is Role.active:
                    self._last_renew = began
                    self._cond.notify_all()
            self._note_skew(term.db_now, before, after)
            self._note_standby(term)
            return
        with self._calling(began):
            before = self.clock.now()
            term = acquire(conn, self.holder, self.timings.ttl, name=self.name)
            db_now = heartbeat(conn, self.holder, name=self.name) if term is None else term.db_now
            after = self.clock.now()
        self._note_skew(db_now, before, after)
        if term is None:
            return
        with self._cond:
            self._epoch = term.epoch
            if self._role is not Role.standby:
                return  # closed meanwhile: _finish releases it
            self._role, self._last_renew = Role.active, began
            self._cond.notify_all()
        log.warning("leading with epoch %d (%s)", term.epoch, self.holder)
        self.on_active(term.epoch)

    @contextmanager
    def _calling(self, began: float) -> Iterator[None]:
        with self._cond:
            self._call_began = began
            self._cond.notify_all()
        try:
            yield
        finally:
            with self._cond:
                self._call_began = None

    def _pg_connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        if self._pg is None or self._pg.closed:
            conn = connect(self.url, self.timings)
            with self._cond:
                self._pg = conn
        return self._pg

    def _drop_connection(self) -> None:
        with self._cond:
            conn, self._pg = self._pg, None
        if conn is not None:
            conn.close()

    def _finish(self) -> None:
        with self._cond:
            epoch, conn = self._epoch, self._pg
        if epoch and conn is not None and not conn.closed:
            try:
                release(conn, self.holder, epoch, name=self.name)
            except db_errors():
                pass  # it runs out by itself
        self._drop_connection()

    def _note_skew(self, db_now: datetime, before: float, after: float) -> None:
        skew = skew_of(db_now, before, after)
        skewed = abs(skew) > self.timings.skew_warn
        if skewed and not self._skewed:
            log.warning("this machine's clock differs from PostgreSQL's by %+.1f s: keep both on NTP", -skew)
        elif self._skewed and not skewed:
            log.info("this machine's clock agrees with PostgreSQL's again (%+.1f s)", -skew)
        self._skewed = skewed

    def _note_standby(self, term: Term) -> None:
        seen = term.standby_seen_at
        missing = seen is None or (term.db_now - seen).total_seconds() > self.timings.standby_seen
        if missing and not self._standby_missing:
            log.warning("no standby has been seen for %.0f s: if this process dies, the bot stops",
                        self.timings.standby_seen)
        elif self._standby_missing and not missing:
            log.info("a standby waits")
        self._standby_missing = missing

    # the watchdog thread

    def _watch(self) -> None:
        if self._wait_until_overdue():
            self._stop(StopReason.overdue)

    def _wait_until_overdue(self) -> bool:
        """Sleeps until the active is overdue (True) or the campaign ends (False); meanwhile shuts the
        socket of a statement that overran its time."""
        with self._cond:
            while self._role is not Role.stopped and not self._closing.is_set():
                now = time.monotonic()
                deadlines = []
                if self._role is Role.active:
                    if overdue(self._last_renew, now, self.timings):
                        return True
                    deadlines.append(self._last_renew + self.timings.step_down)
                if self._call_began is not None:
                    due = self._call_began + self.timings.call_timeout
                    if now < due:
                        deadlines.append(due)
                    else:
                        if self._pg is not None:
                            abort(self._pg)
                        self._call_began = None
                self._cond.wait(min(deadlines) - now if deadlines else None)
            return False
