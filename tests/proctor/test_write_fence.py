"""The write path's fence on a real PostgreSQL (proctor/storage/db.py with proctor/storage/campaign.py):
while a process leads, each of its write transactions ends with the fence, so a write after a takeover
rolls back and steps the process down; a database without a campaign (the CLI's) is not fenced; the
write connection has PostgreSQL end a session left idle inside a transaction."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest

from proctor.storage.campaign import Campaign, Role, StopReason
from proctor.storage.db import Database
from proctor.storage.lease import StaleEpoch
from tests.postgres_fixtures import drop_own_table
from tests.proctor.test_lease_campaign import FAST, Seen


def insert(value: int):
    def write(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO notes (value) VALUES (?)", (value,))
    return write


@pytest.fixture
async def db(pg_record_url):
    with psycopg.connect(pg_record_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (value bigint NOT NULL)")
    opened = await Database.open(pg_record_url)
    yield opened
    await opened.close()
    drop_own_table(pg_record_url, "notes")


async def values(db: Database) -> list[int]:
    return [r[0] for r in await db.fetchall("SELECT value FROM notes ORDER BY value")]


async def test_a_leaders_writes_pass_the_fence_and_one_after_a_takeover_rolls_back_and_steps_down(db, pg_record_url):
    seen = Seen()
    campaign = Campaign(pg_record_url, on_active=seen.on_active, on_stopped=seen.on_stopped, timings=FAST,
                        holder="a")
    campaign.start()
    try:
        assert seen.active.wait(5)
        db.fencing = campaign
        await db.run_write(insert(1))
        with psycopg.connect(pg_record_url, autocommit=True) as conn:
            conn.execute("UPDATE leader_lease SET holder = 'b', epoch = epoch + 1")  # b took over
        with pytest.raises(StaleEpoch):
            await db.run_write(insert(2))
        assert await values(db) == [1]  # rolled back
        assert seen.stopped.is_set() and seen.stop is not None
        assert seen.stop.reason in (StopReason.fenced, StopReason.lost)  # the renew may notice first
        assert campaign.role is Role.stopped
        with pytest.raises(StaleEpoch):  # stopped: refused without asking PostgreSQL
            await db.run_write(insert(3))
        assert await values(db) == [1]
    finally:
        campaign.close()


async def test_a_standby_campaign_refuses_writes(db, pg_record_url):
    with psycopg.connect(pg_record_url, autocommit=True) as conn:  # another process leads
        conn.execute("INSERT INTO leader_lease VALUES ('proctor', 'other', 7, now(), now(), now() + interval '1 hour')")
    seen = Seen()
    campaign = Campaign(pg_record_url, on_active=seen.on_active, on_stopped=seen.on_stopped, timings=FAST,
                        holder="a")
    campaign.start()
    try:
        db.fencing = campaign
        with pytest.raises(StaleEpoch):
            await db.run_write(insert(1))
        assert await values(db) == [] and campaign.role is Role.standby
    finally:
        campaign.close()


async def test_a_database_without_a_campaign_is_not_fenced(db, pg_record_url):
    with psycopg.connect(pg_record_url, autocommit=True) as conn:  # a bot leads; the CLI writes anyway
        conn.execute("INSERT INTO leader_lease VALUES ('proctor', 'bot', 3, now(), now(), now() + interval '1 hour')")
    await db.run_write(insert(1))
    assert await values(db) == [1]


async def test_the_write_connection_has_postgresql_end_a_session_idle_inside_a_transaction(db):
    assert await db.scalar("SHOW idle_in_transaction_session_timeout") == "2s"
