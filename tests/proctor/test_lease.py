"""The leadership lease on a real PostgreSQL: taking, renewing, running out, taking over with the next
epoch, and the fence that refuses the write of a process whose lease was taken (proctor/storage/lease.py).
PostgreSQL's clock is driven through `at`, so nothing here sleeps for the lease to run out."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from proctor.clock import ManualClock
from proctor.errors import ProctorError
from proctor.storage.lease import (
    WRITE_SESSION_OPTIONS,
    StaleEpoch,
    Timings,
    acquire,
    connect,
    fence,
    heartbeat,
    release,
    renew,
    status,
)
from tests.postgres_fixtures import drop_own_table

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
TTL = 3.0


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def conn(pg_record_url):
    with connect(pg_record_url) as c:
        c.execute("CREATE TABLE counter (epoch bigint NOT NULL)")
        yield c
    drop_own_table(pg_record_url, "counter")


def counted(conn) -> list[int]:
    return [epoch for (epoch,) in conn.execute("SELECT epoch FROM counter ORDER BY epoch")]


def write_fenced(url: str, epoch: int) -> None:
    """One write transaction of a process that leads with `epoch`."""
    with psycopg.connect(url, autocommit=True) as w, w.transaction():
        w.execute("INSERT INTO counter VALUES (%s)", (epoch,))
        fence(w, epoch)


def test_the_first_to_ask_takes_the_lease_with_epoch_1_and_the_second_waits(conn):
    first = acquire(conn, "a", TTL, at=at(0))
    assert first is not None and first.epoch == 1 and first.expires_at == at(TTL)
    assert acquire(conn, "b", TTL, at=at(1)) is None
    assert acquire(conn, "a", TTL, at=at(1)) is None  # taking is not renewing


def test_a_renew_extends_only_the_holders_lease_of_its_epoch(conn):
    acquire(conn, "a", TTL, at=at(0))
    term = renew(conn, "a", 1, TTL, at=at(1))
    assert term is not None and term.expires_at == at(1 + TTL) and term.db_now == at(1)
    assert renew(conn, "b", 1, TTL, at=at(1.5)) is None
    assert renew(conn, "a", 2, TTL, at=at(1.5)) is None
    assert acquire(conn, "b", TTL, at=at(3.5)) is None  # the renew at 1 s holds it until 4 s


def test_a_lease_that_ran_out_goes_to_the_next_with_the_next_epoch(conn):
    acquire(conn, "a", TTL, at=at(0))
    assert acquire(conn, "b", TTL, at=at(2.999)) is None
    taken = acquire(conn, "b", TTL, at=at(3))
    assert taken is not None and taken.epoch == 2
    assert renew(conn, "a", 1, TTL, at=at(3.1)) is None  # a's renew, late, finds it gone
    assert status(conn).holder == "b"


def test_a_lease_that_ran_out_is_gone_even_if_nobody_took_it(conn):
    acquire(conn, "a", TTL, at=at(0))
    assert renew(conn, "a", 1, TTL, at=at(3)) is None
    again = acquire(conn, "a", TTL, at=at(3.5))
    assert again is not None and again.epoch == 2  # a new term, a new token


def test_released_the_lease_is_taken_at_once(conn):
    acquire(conn, "a", TTL)
    assert release(conn, "a", 1)
    assert not release(conn, "a", 1)
    taken = acquire(conn, "b", TTL)
    assert taken is not None and taken.epoch == 2


def test_the_fence_lets_the_holders_write_through_and_refuses_it_after_a_takeover(conn, pg_record_url):
    acquire(conn, "a", TTL, at=at(0))
    write_fenced(pg_record_url, 1)
    acquire(conn, "b", TTL, at=at(10))  # a froze; its lease ran out and b took it
    with pytest.raises(StaleEpoch, match=r"epoch 2, this process holds 1") as refused:
        write_fenced(pg_record_url, 1)  # a wakes and writes
    assert isinstance(refused.value, ProctorError)
    write_fenced(pg_record_url, 2)
    assert counted(conn) == [1, 2]  # a's late write rolled back


def test_the_fence_refuses_a_write_when_nobody_ever_led(conn, pg_record_url):
    with pytest.raises(StaleEpoch):
        write_fenced(pg_record_url, 1)


def test_a_takeover_waits_for_a_fenced_write_to_commit_so_none_slips_between_check_and_commit(conn, pg_record_url):
    """The fence holds the lease row FOR SHARE until the commit: a takeover that comes after the check
    waits, and the write commits under the epoch it checked, before the next epoch begins."""
    acquire(conn, "a", TTL, at=at(0))
    taken = []
    with psycopg.connect(pg_record_url, autocommit=True) as w:
        with w.transaction():
            w.execute("INSERT INTO counter VALUES (1)")
            fence(w, 1)

            def take_over():
                with connect(pg_record_url) as b:
                    taken.append(acquire(b, "b", TTL, at=at(10)))

            thread = threading.Thread(target=take_over)
            thread.start()
            thread.join(0.5)
            assert thread.is_alive(), "the takeover went through while a's write was between check and commit"
        thread.join(2)
    assert taken[0] is not None and taken[0].epoch == 2
    assert counted(conn) == [1]


def test_a_holder_frozen_inside_a_write_does_not_hold_up_the_takeover(conn, pg_record_url):
    """A fenced write session ends by PostgreSQL's idle_in_transaction_session_timeout: a process frozen
    (SIGSTOP) between its fence and its commit loses the transaction, and the standby takes over."""
    acquire(conn, "a", TTL, at=at(0))
    frozen = psycopg.connect(pg_record_url, autocommit=True, options=WRITE_SESSION_OPTIONS)
    frozen.execute("BEGIN")
    frozen.execute("INSERT INTO counter VALUES (1)")
    fence(frozen, 1)
    began = time.monotonic()
    taken = None
    while taken is None and time.monotonic() - began < 4:
        try:
            taken = acquire(conn, "b", TTL, at=at(10))
        except psycopg.errors.LockNotAvailable:
            pass  # the standby polls again
    assert taken is not None and taken.epoch == 2
    assert time.monotonic() - began < 3.5
    with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
        frozen.execute("COMMIT")  # it wakes: its session is gone
    frozen.close()
    assert counted(conn) == []


def test_status_names_the_active_its_epoch_since_when_and_the_standbys_seen_lately(conn):
    empty = status(conn)
    assert empty.holder is None and not empty.active and empty.standbys == ()
    acquire(conn, "a", TTL)
    assert acquire(conn, "b", TTL) is None
    heartbeat(conn, "b")
    heartbeat(conn, "gone", at=datetime.now(UTC) - timedelta(seconds=30))
    now = status(conn)
    assert now.holder == "a" and now.epoch == 1 and now.active
    assert now.since is not None and now.since <= now.db_now
    assert [s.holder for s in now.standbys] == ["b"]
    assert abs(now.skew) < 1


def test_status_measures_this_machines_clock_against_postgresqls(conn):
    ahead = ManualClock(time.time() + 30)
    assert status(conn, clock=ahead).skew == pytest.approx(-30, abs=1)


def test_taking_the_lease_clears_the_takers_own_standby_heartbeat(conn):
    heartbeat(conn, "b")
    acquire(conn, "b", TTL)
    assert status(conn).standbys == ()


def test_the_timings_let_a_standby_take_over_within_5_s_and_the_active_stop_before_its_lease_ends():
    timings = Timings()
    assert timings.ttl + timings.poll_every <= 5  # the lease runs out, then the standby's next poll
    assert timings.renew_every == 1 and timings.step_down <= 2 and timings.step_down < timings.ttl
    with pytest.raises(ValueError):
        Timings(step_down=3, ttl=3)


def test_a_heartbeat_drops_the_standbys_not_seen_for_a_day(conn):
    heartbeat(conn, "long-gone", at=datetime.now(UTC) - timedelta(days=2))
    heartbeat(conn, "b")
    assert [h for (h,) in conn.execute("SELECT holder FROM leader_standby")] == ["b"]
