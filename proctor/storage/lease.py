"""The leadership lease on PostgreSQL: one row names the active process, its epoch (the fencing token)
and when its lease runs out; standbys leave a heartbeat beside it.

The lease keeps one clock, PostgreSQL's `clock_timestamp()`: a process's own wall clock never decides
who leads. Each statement takes `at` to stand in for that clock, so the tests move time instead of
sleeping. Taking the lease bumps the epoch; a write transaction of the active calls `fence` as its
last statement, which share-locks the lease row until the commit, so a takeover (an UPDATE of that row)
waits for the write to end, and a write after a takeover sees the new epoch and aborts. The tables are
PostgreSQL's migration 042 (migrations/postgres/042_leader_lease.sql). The process
side (renewing, standing by, stepping down on the process's own monotonic clock) is
`proctor.storage.campaign`; docs/leadership.md tells the whole story.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from proctor.clock import Clock, SystemClock
from proctor.errors import ProctorError

if TYPE_CHECKING:
    import psycopg  # heavy: only a process on a postgresql:// record campaigns (pyproject.toml)

LEASE_NAME = "proctor"


class StaleEpoch(ProctorError):
    """The lease was taken over since this process took it: its write is refused."""


@dataclass(frozen=True)
class Timings:
    """The lease's clock, in seconds. A standby takes over at most `ttl + poll_every` after the active
    dies (its lease runs out, then the standby's next poll); the active stops `step_down` after its last
    good renew began, before its lease can run out."""

    renew_every: float = 1.0  # the active renews this often
    ttl: float = 3.0  # a lease runs this long past PostgreSQL's clock at its renew
    step_down: float = 1.75  # the active stops when no renew begun this long ago has answered (2 s with its wake-up)
    poll_every: float = 1.0  # a standby tries to take the lease this often
    call_timeout: float = 1.5  # no lease statement waits longer (statement_timeout; a silent socket is shut)
    standby_seen: float = 5.0  # a standby whose heartbeat is older does not count as waiting
    skew_warn: float = 1.0  # the log warns when this machine's clock and PostgreSQL's differ by more

    def __post_init__(self) -> None:
        if not 0 < self.renew_every < self.step_down < self.ttl:
            raise ValueError("lease timings need 0 < renew_every < step_down < ttl")


@dataclass(frozen=True)
class Term:
    """The lease as a statement of ours left it: our epoch, when it runs out, PostgreSQL's clock then,
    and when another process last said it stands by (None: never)."""

    epoch: int
    expires_at: datetime
    db_now: datetime
    standby_seen_at: datetime | None


@dataclass(frozen=True)
class Standby:
    holder: str
    seen_at: datetime


@dataclass(frozen=True)
class LeaseStatus:
    """What `proctor status` says about leadership. `holder` is None when no process ever led."""

    holder: str | None
    epoch: int
    since: datetime | None
    renewed_at: datetime | None
    expires_at: datetime | None
    db_now: datetime
    standbys: tuple[Standby, ...]
    skew: float  # PostgreSQL's clock minus this machine's, in seconds

    @property
    def active(self) -> bool:
        return self.expires_at is not None and self.expires_at > self.db_now


def holder_id() -> str:
    """This process's name in the lease: host, pid and a random suffix (a pid is reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def connect_options(timings: Timings = Timings()) -> dict[str, Any]:
    """psycopg.connect's options for the lease's own connection: a connect, a statement or a lock wait
    that would hang fails instead, and a dead peer is noticed by TCP within the step-down budget."""
    ms = int(timings.call_timeout * 1000)
    return {
        "autocommit": True,
        "connect_timeout": 2,  # libpq's (and psycopg's) least
        "keepalives": 1, "keepalives_idle": 1, "keepalives_interval": 1, "keepalives_count": 1,
        "tcp_user_timeout": ms,
        "application_name": "proctor lease",
        "options": f"-c statement_timeout={ms} -c lock_timeout={ms * 2 // 3}",
    }


# The fenced write sessions' settings: a process frozen or cut off inside a write transaction holds
# the lease row (and the write lock) until PostgreSQL ends its session; a takeover waits for no longer.
WRITE_IDLE_TIMEOUT_MS = 2000
WRITE_SESSION_OPTIONS = f"-c idle_in_transaction_session_timeout={WRITE_IDLE_TIMEOUT_MS}"


def connect(url: str, timings: Timings = Timings()) -> psycopg.Connection[tuple[Any, ...]]:
    import psycopg  # heavy: only a process on a postgresql:// record campaigns

    return psycopg.connect(url, **connect_options(timings))


def skew_of(db_now: datetime, before: float, after: float) -> float:
    """PostgreSQL's clock minus ours, ours read before and after the statement (the midpoint)."""
    return db_now.timestamp() - (before + after) / 2


def acquire(conn: psycopg.Connection[Any], holder: str, ttl: float, *, name: str = LEASE_NAME,
            at: datetime | None = None) -> Term | None:
    """Takes the lease if nobody holds it or its holder's has run out, with the next epoch; None if
    another's lease still runs. One statement: of two standbys racing, one wins."""
    row = conn.execute(
        """
        INSERT INTO leader_lease AS l (name, holder, epoch, acquired_at, renewed_at, expires_at)
        SELECT %(name)s, %(holder)s, 1, t.now, t.now, t.now + %(ttl)s * interval '1 second'
        FROM (SELECT coalesce(%(at)s::timestamptz, clock_timestamp()) AS now) AS t
        ON CONFLICT (name) DO UPDATE
        SET holder = excluded.holder, epoch = l.epoch + 1, acquired_at = excluded.acquired_at,
            renewed_at = excluded.renewed_at, expires_at = excluded.expires_at
        WHERE l.expires_at <= excluded.acquired_at
        RETURNING epoch, expires_at, renewed_at
        """,
        {"name": name, "holder": holder, "ttl": ttl, "at": at},
    ).fetchone()
    if row is None:
        return None
    conn.execute("DELETE FROM leader_standby WHERE name = %s AND holder = %s", (name, holder))
    return Term(row[0], row[1], row[2], None)


def renew(conn: psycopg.Connection[Any], holder: str, epoch: int, ttl: float, *, name: str = LEASE_NAME,
          at: datetime | None = None) -> Term | None:
    """Extends our lease by `ttl` from now; None if it is no longer ours (taken over, or run out)."""
    row = conn.execute(
        """
        UPDATE leader_lease AS l
        SET renewed_at = t.now, expires_at = t.now + %(ttl)s * interval '1 second'
        FROM (SELECT coalesce(%(at)s::timestamptz, clock_timestamp()) AS now) AS t
        WHERE l.name = %(name)s AND l.holder = %(holder)s AND l.epoch = %(epoch)s AND l.expires_at > t.now
        RETURNING l.epoch, l.expires_at, t.now,
            (SELECT max(s.seen_at) FROM leader_standby AS s WHERE s.name = l.name AND s.holder <> l.holder)
        """,
        {"name": name, "holder": holder, "epoch": epoch, "ttl": ttl, "at": at},
    ).fetchone()
    return None if row is None else Term(row[0], row[1], row[2], row[3])


def release(conn: psycopg.Connection[Any], holder: str, epoch: int, *, name: str = LEASE_NAME) -> bool:
    """Ends our lease now (a clean stop), so a standby need not wait for it to run out."""
    cur = conn.execute(
        "UPDATE leader_lease SET expires_at = clock_timestamp() "
        "WHERE name = %s AND holder = %s AND epoch = %s AND expires_at > clock_timestamp()",
        (name, holder, epoch),
    )
    return cur.rowcount == 1


def heartbeat(conn: psycopg.Connection[Any], holder: str, *, name: str = LEASE_NAME,
              at: datetime | None = None) -> datetime:
    """A standby says it waits; returns PostgreSQL's clock. Heartbeats a day old are dropped."""
    row = conn.execute(
        """
        WITH t AS (SELECT coalesce(%(at)s::timestamptz, clock_timestamp()) AS now),
        gone AS (DELETE FROM leader_standby WHERE name = %(name)s AND seen_at < (SELECT now FROM t) - interval '1 day')
        INSERT INTO leader_standby AS s (name, holder, seen_at) SELECT %(name)s, %(holder)s, t.now FROM t
        ON CONFLICT (name, holder) DO UPDATE SET seen_at = excluded.seen_at
        RETURNING seen_at
        """,
        {"name": name, "holder": holder, "at": at},
    ).fetchone()
    assert row is not None  # an upsert always returns its row
    seen: datetime = row[0]
    return seen


def fence(conn: psycopg.Connection[Any], epoch: int, *, name: str = LEASE_NAME) -> None:
    """Refuses a write transaction of a process whose lease was taken over: call it inside the write
    transaction, as its last statement. FOR SHARE holds the lease row until the commit, so a takeover
    waits for this write to end (FOR KEY SHARE would not: a takeover changes no key).

    Raises StaleEpoch when the lease's epoch is no longer `epoch`; the caller's transaction rolls back.
    """
    row = conn.execute("SELECT epoch FROM leader_lease WHERE name = %s FOR SHARE", (name,)).fetchone()
    current = None if row is None else row[0]
    if current != epoch:
        raise StaleEpoch(f"leadership moved on (epoch {current}, this process holds {epoch}): "
                         "this process's write was refused")


def status(conn: psycopg.Connection[Any], *, name: str = LEASE_NAME, timings: Timings = Timings(),
           clock: Clock = SystemClock()) -> LeaseStatus:
    """Who is active and since when, the epoch, the standbys seen within `timings.standby_seen`, and
    the skew between this machine's clock and PostgreSQL's."""
    before = clock.now()
    lease = conn.execute(
        "SELECT clock_timestamp(), l.holder, l.epoch, l.acquired_at, l.renewed_at, l.expires_at "
        "FROM (SELECT 1) AS one LEFT JOIN leader_lease AS l ON l.name = %s",
        (name,),
    ).fetchone()
    after = clock.now()
    assert lease is not None  # the left join always gives a row
    standbys = conn.execute(
        "SELECT holder, seen_at FROM leader_standby "
        "WHERE name = %s AND holder IS DISTINCT FROM %s AND seen_at > %s - %s * interval '1 second' "
        "ORDER BY seen_at DESC",
        (name, lease[1], lease[0], timings.standby_seen),
    ).fetchall()
    db_now, holder, epoch, since, renewed_at, expires_at = lease
    return LeaseStatus(holder, epoch or 0, since, renewed_at, expires_at, db_now,
                       tuple(Standby(h, seen) for h, seen in standbys), skew_of(db_now, before, after))
