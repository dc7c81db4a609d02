"""`proctor run`'s standby on a real PostgreSQL (bot/leadership.py), in this process: it waits while
another process leads, saying whom for, leads once that lease ends and becomes the record's fence; a
stop signal while it waits ends it without leading; `proctor status` says who leads, who waits, and
the clocks."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
from collections.abc import Iterator

import psycopg
import pytest

from bot.cli import main
from bot.leadership import status_lines, wait_to_lead
from proctor.clock import ShiftedClock
from proctor.storage.campaign import Role
from proctor.storage.db import Database
from proctor.storage.lease import connect, heartbeat, status
from proctor.storage.location import PostgresUrl
from tests.proctor.test_lease_campaign import FAST, Seen, campaign


def other_leads(url: str, epoch: int = 7) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO leader_lease VALUES ('proctor', 'other', %s, now(), now(), now() + interval '1 hour')",
                     (epoch,))


def other_releases(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE leader_lease SET expires_at = clock_timestamp()")


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A loop of the test's own: `wait_to_lead` runs it, as `proctor run` does."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.fixture
def db(loop, pg_record_url) -> Iterator[Database]:
    opened = loop.run_until_complete(Database.open(pg_record_url))
    yield opened
    loop.run_until_complete(opened.close())


def test_a_standby_waits_for_the_active_then_leads_and_fences_the_record(loop, db, pg_record_url, caplog):
    caplog.set_level(logging.INFO)
    other_leads(pg_record_url)
    loop.call_later(1.0, other_releases, pg_record_url)
    led = wait_to_lead(loop, db, PostgresUrl(pg_record_url), FAST)
    try:
        assert led is not None and led.role is Role.active and led.epoch == 8
        assert db.fencing is led
        assert "standby: waiting for the active other (epoch 7)" in caplog.text
    finally:
        if led is not None:
            led.close()


def test_a_stop_signal_while_standing_by_ends_it_without_leading(loop, db, pg_record_url):
    other_leads(pg_record_url)
    loop.call_later(0.5, os.kill, os.getpid(), signal.SIGTERM)
    assert wait_to_lead(loop, db, PostgresUrl(pg_record_url), FAST) is None
    assert db.fencing is None
    with connect(pg_record_url) as conn:
        now = status(conn)
    assert (now.holder, now.epoch, now.active) == ("other", 7, True)


def test_status_says_who_leads_who_waits_and_the_clocks(pg_record_url, capsys):
    seen = Seen()
    active = campaign(pg_record_url, seen, "host-a:101:aaaaaa")
    active.start()
    try:
        assert seen.active.wait(5)
        with connect(pg_record_url) as conn:
            heartbeat(conn, "host-b:202:bbbbbb")
        assert main(["--db", pg_record_url, "status"]) == 0
    finally:
        active.close()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("active: host-a:101:aaaaaa (epoch 1, since ")
    assert out[1].startswith("standby: host-b:202:bbbbbb (seen ")
    assert out[2].startswith("clock: this machine's differs from PostgreSQL's by ") and "NTP" not in out[2]
    assert out[3].startswith("attempts: ")


def test_status_says_when_nobody_leads_or_waits(pg_record_url):
    other_leads(pg_record_url, epoch=4)
    other_releases(pg_record_url)
    with connect(pg_record_url) as conn:
        lines = status_lines(status(conn))
    assert lines[0].startswith("active: none (the lease of other, epoch 4, ran out at ")
    assert lines[1] == "standby: none seen in the last 5 s: if the active dies, the bot stops"


def test_status_warns_when_this_machines_clock_is_over_a_second_off(pg_record_url):
    with connect(pg_record_url) as conn:
        lines = status_lines(status(conn, clock=ShiftedClock(-2.5)))  # this machine runs 2.5 s behind
    said = re.fullmatch(r"clock: this machine's differs from PostgreSQL's by (-\d+\.\d\d) s \(over 1 s: keep both on NTP\)",
                        lines[-1])
    assert said is not None, lines[-1]
    assert abs(float(said.group(1)) + 2.5) < 0.5  # measured around a query: less the trip's half
