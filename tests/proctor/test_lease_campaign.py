"""Campaigns in one process on a real PostgreSQL, on a fast clock (tenths of a second): one leads and
one waits, a clean stop hands over at once, a lease taken from under the active stops it, and an active
cut off from PostgreSQL stops `step_down` after its last renew began (proctor/storage/campaign.py)."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time

import psycopg
import pytest

from proctor.clock import ManualClock
from proctor.storage.campaign import Campaign, Role, Stop, StopReason, overdue
from proctor.storage.lease import Timings, connect, status
from tests.tcp_proxy import TcpProxy

FAST = Timings(renew_every=0.1, ttl=0.9, step_down=0.6, poll_every=0.1, call_timeout=0.4, standby_seen=1.0)


class Seen:
    """A campaign's callbacks, as events a test waits on."""

    def __init__(self) -> None:
        self.active = threading.Event()
        self.stopped = threading.Event()
        self.epoch = 0
        self.stop: Stop | None = None
        self.stopped_at = 0.0

    def on_active(self, epoch: int) -> None:
        self.epoch = epoch
        self.active.set()

    def on_stopped(self, stop: Stop) -> None:
        self.stop, self.stopped_at = stop, time.monotonic()
        self.stopped.set()


def campaign(url: str, seen: Seen, holder: str, timings: Timings = FAST, **options) -> Campaign:
    return Campaign(url, on_active=seen.on_active, on_stopped=seen.on_stopped, timings=timings, holder=holder,
                    **options)


@pytest.fixture
def url(pg_record_url):
    return pg_record_url  # at the newest schema: the lease's tables are migration 042


def test_overdue_counts_from_when_the_last_good_renew_began():
    assert not overdue(10.0, 11.74, Timings())
    assert overdue(10.0, 11.75, Timings())


def test_one_leads_one_waits_and_a_clean_stop_hands_over_at_once(url):
    a_seen, b_seen = Seen(), Seen()
    a, b = campaign(url, a_seen, "a"), campaign(url, b_seen, "b")
    a.start()
    try:
        assert a_seen.active.wait(5) and a_seen.epoch == 1 and a.role is Role.active
        b.start()
        with connect(url) as conn:
            deadline = time.monotonic() + 5
            while not (now := status(conn, timings=FAST)).standbys and time.monotonic() < deadline:
                time.sleep(FAST.poll_every)
        assert now.holder == "a" and [s.holder for s in now.standbys] == ["b"]
        assert b.role is Role.standby and not b_seen.active.is_set()
        a.close()
        closed = time.monotonic()
        assert a_seen.stop is not None and a_seen.stop.reason is StopReason.closed
        assert b_seen.active.wait(5) and b_seen.epoch == 2
        assert time.monotonic() - closed < FAST.poll_every + 0.5  # released: no waiting for it to run out
    finally:
        a.close()
        b.close()


def test_an_active_whose_lease_was_taken_from_under_it_stops(url):
    seen = Seen()
    a = campaign(url, seen, "a")
    a.start()
    try:
        assert seen.active.wait(5)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE leader_lease SET holder = 'x', epoch = epoch + 1")
        assert seen.stopped.wait(FAST.renew_every + 0.5)
        assert seen.stop is not None and seen.stop.reason is StopReason.lost and a.role is Role.stopped
    finally:
        a.close()


def test_the_active_warns_when_no_standby_waits_and_says_when_one_does(url, caplog):
    caplog.set_level(logging.INFO, logger="proctor.storage.campaign")
    a_seen, b_seen = Seen(), Seen()
    a, b = campaign(url, a_seen, "a"), campaign(url, b_seen, "b")
    a.start()
    try:
        assert a_seen.active.wait(5)
        time.sleep(2 * FAST.renew_every)
        assert "no standby has been seen" in caplog.text
        b.start()
        deadline = time.monotonic() + 2
        while "a standby waits" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "a standby waits" in caplog.text
    finally:
        b.close()
        a.close()


async def test_an_active_cut_off_from_postgresql_stops_step_down_after_its_last_renew_began(url):
    proxy = await TcpProxy.to(url)
    seen = Seen()
    a = campaign(proxy.url(url), seen, "a")
    try:
        a.start()
        assert await asyncio.to_thread(seen.active.wait, 2)
        await asyncio.sleep(0.25)
        proxy.cut()
        cut = time.monotonic()
        assert await asyncio.to_thread(seen.stopped.wait, 2)
        stop = seen.stop
        assert stop is not None and stop.reason is StopReason.overdue
        assert stop.last_renew < cut
        assert FAST.step_down <= seen.stopped_at - stop.last_renew < FAST.step_down + 0.25
    finally:
        await asyncio.to_thread(a.close)
        await proxy.close()


def test_a_campaign_warns_when_its_clock_and_postgresqls_differ_by_more_than_a_second(url, caplog):
    caplog.set_level(logging.WARNING, logger="proctor.storage.campaign")
    seen = Seen()
    made = time.monotonic()
    a = campaign(url, seen, "a", clock=ManualClock(time.time() + 30))  # 30 s ahead, and it stands still
    a.start()
    try:
        assert seen.active.wait(5)
        [said] = re.findall(r"this machine's clock differs from PostgreSQL's by \+(\d+\.\d) s", caplog.text)
        # 30 s less the real time gone by since the clock was made (it stands still, PostgreSQL's runs)
        assert 30 - (time.monotonic() - made) - 0.1 <= float(said) <= 30.05, said
    finally:
        a.close()


def test_one_dropped_connection_costs_the_active_nothing(url):
    """A failed renew is tried again soon on a new connection, before the step-down: with a renew every
    0.5 s and a step-down at 0.8 s, waiting for the next regular renew would stop the active."""
    seen = Seen()
    a = campaign(url, seen, "a", Timings(renew_every=0.5, ttl=1.2, step_down=0.8, poll_every=0.1, call_timeout=0.4))
    a.start()
    try:
        assert seen.active.wait(5)
        time.sleep(0.6)  # renewing every 0.5 s
        with psycopg.connect(url, autocommit=True) as admin:
            lease_backend = ("SELECT pid FROM pg_stat_activity WHERE application_name = 'proctor lease' "
                             "AND datname = current_database()")  # the server may serve other tests too
            (pid,) = admin.execute(lease_backend).fetchone()
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            time.sleep(1.2)
            assert admin.execute(lease_backend).fetchone() not in (None, (pid,))  # it reconnected
        assert not seen.stopped.is_set() and a.role is Role.active and a.epoch == 1
    finally:
        a.close()
