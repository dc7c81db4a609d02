"""Statements that ride on another round trip (proctor/storage/db.py): a task's carried statements
run first in its next trip, and their failure stops that trip and every later one of the task;
`later` statements run at the start of the next trip anybody makes under the write lock."""

from __future__ import annotations

import asyncio

import pytest

from proctor.storage.db import Database, carried, run_carried
from proctor.storage.updates import Repeated


@pytest.fixture
async def db(tmp_path):
    d = await Database.open(tmp_path / "c.db")
    await d.run_write(lambda c: c.execute("CREATE TABLE log (n INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT)"))
    yield d
    await d.close()


def _log(what: str):
    return lambda conn: conn.execute("INSERT INTO log (what) VALUES (?)", (what,))


async def _logged(db: Database) -> list[str]:
    return [r[0] for r in await db.fetchall("SELECT what FROM log ORDER BY n")]


async def _hops(db: Database, work) -> int:
    """Round trips `work()` makes to the database thread."""
    calls = 0
    original = db.conn._execute

    async def counted(fn, *args, **kwargs):
        nonlocal calls
        calls += 1
        return await original(fn, *args, **kwargs)

    db.conn._execute = counted
    try:
        await work()
    finally:
        db.conn._execute = original
    return calls


async def test_a_carried_statement_runs_first_in_the_tasks_next_trip_and_costs_none_of_its_own(db):
    async def task():
        c = db.carry(lambda conn: _log("claim")(conn) and "prefs")
        assert not c.ran
        await db.run_write(_log("step"))
        assert c.ran and c.result == "prefs"
        await db.run_write(_log("step 2"))  # it runs once

    assert await _hops(db, lambda: asyncio.create_task(task())) == 2
    assert await _logged(db) == ["claim", "step", "step 2"]


async def test_a_carried_failure_stops_the_trip_before_its_statements_and_every_later_trip(db):
    async def task():
        db.carry(lambda conn: (_ for _ in ()).throw(Repeated(7)))
        with pytest.raises(Repeated):
            await db.run_write(_log("step"))
        with pytest.raises(Repeated):
            await db.run_each(_log("again"))
        with pytest.raises(Repeated):
            await db.fetchall("SELECT 1")
        with pytest.raises(Repeated):
            async with db.write() as conn:
                await conn.execute("INSERT INTO log (what) VALUES ('inside')")
        with pytest.raises(Repeated):
            await run_carried()

    await asyncio.create_task(task())
    assert await _logged(db) == []


async def test_a_task_that_reads_first_runs_its_carried_statements_in_a_trip_of_their_own(db):
    async def task():
        c = db.carry(_log("claim"))
        assert [r[0] for r in await db.fetchall("SELECT what FROM log")] == ["claim"]  # before the read
        assert c.ran

    await asyncio.create_task(task())


async def test_carried_statements_belong_to_their_task_alone(db):
    async def task():
        db.carry(_log("claim"))
        other = asyncio.create_task(db.run_write(_log("someone else")))  # a copy of this task's context
        await other
        assert carried() is not None and not carried().ran
        await run_carried()

    await asyncio.create_task(task())
    assert await _logged(db) == ["someone else", "claim"]


async def test_later_statements_ride_on_the_next_write_trip_whoever_makes_it(db):
    db.later(_log("mark 1"))
    db.later(_log("mark 2"))
    assert await _hops(db, lambda: db.fetchall("SELECT 1")) == 1  # a read does not take them
    assert await _logged(db) == []
    assert await _hops(db, lambda: db.run_write(_log("step"))) == 1
    assert await _logged(db) == ["mark 1", "mark 2", "step"]
    db.later(_log("mark 3"))
    await db.flush_later()
    await db.flush_later()  # nothing waits: no trip
    assert await _logged(db) == ["mark 1", "mark 2", "step", "mark 3"]


async def test_a_later_statement_that_fails_does_not_fail_the_trip_it_rides_on(db):
    db.later(lambda conn: conn.execute("INSERT INTO nowhere VALUES (1)"))
    await db.run_write(_log("step"))
    assert await _logged(db) == ["step"]


async def test_what_a_trip_carries_commits_with_its_transaction_and_waits_again_after_a_rollback(db):
    async def task():
        c = db.carry(_log("claim"))
        db.later(_log("mark"))
        with pytest.raises(ZeroDivisionError):
            await db.run_write(lambda conn: (_log("step")(conn), 1 / 0))
        assert not c.ran  # rolled back with the step: the claim is still to be made
        await db.run_write(_log("step"))  # the next trip carries both again, in its transaction
        assert c.ran

    await asyncio.create_task(task())
    assert await _logged(db) == ["mark", "claim", "step"]


async def test_a_failed_write_block_leaves_what_it_carried_waiting_for_the_next_trip(db):
    db.later(_log("mark"))
    with pytest.raises(KeyError):
        async with db.write() as conn:
            await conn.execute("INSERT INTO log (what) VALUES ('inside')")
            raise KeyError("no")
    assert await _logged(db) == []
    await db.run_each(_log("next"))
    assert await _logged(db) == ["mark", "next"]


async def test_a_detached_carry_lets_its_task_flush_what_waits_after_a_repeat(db):
    async def task():
        c = db.carry(lambda conn: (_ for _ in ()).throw(Repeated(8)))
        with pytest.raises(Repeated):
            await db.run_write(_log("step"))
        db.later(_log("mark"))  # somebody else's bookkeeping, waiting
        c.detach()  # the update's handling is over (bot.core)
        await db.flush_later()

    await asyncio.create_task(task())
    assert await _logged(db) == ["mark"]
