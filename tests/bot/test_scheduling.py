"""bot/scheduling.py on the real PTB JobQueue (APScheduler): stable names that are job ids, arm,
replace, disarm, DST-correct daily jobs, and every job rebuilt from SQLite after a restart."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest
from telegram.ext import ApplicationBuilder

from bot import outbox, scheduling
from bot.scheduling import JobKind
from tests.bot.test_daily_support import GROUP, make_env, subscribe_group


@pytest.fixture
async def app():
    application = ApplicationBuilder().token("123:abc").build()  # nothing is sent: no network
    await application.job_queue.start()
    yield application
    await application.job_queue.stop(wait=False)


def _jobs(app, name):
    return [j for j in app.job_queue.scheduler.get_jobs() if j.id == name]


async def test_a_job_is_armed_under_its_stable_name_with_the_registered_callback(app):
    seen = []

    async def deadline(context):
        seen.append(context.job.data)

    scheduling.register(app, JobKind.deadline, deadline)
    name = scheduling.once(app, JobKind.deadline, 7, 60)
    assert name == "deadline:7" and scheduling.armed(app, JobKind.deadline, 7)
    [job] = app.job_queue.get_jobs_by_name("deadline:7")
    assert job.job.id == "deadline:7" and job.data == 7
    await job.run(app)  # the real job, as if its trigger had fired
    assert seen == [7]


async def test_arming_again_replaces_the_job(app):
    async def close(context):
        pass

    scheduling.register(app, JobKind.daily_close, close)
    scheduling.once(app, JobKind.daily_close, 3, 3600)
    first = _jobs(app, "daily-close:3")[0].next_run_time
    scheduling.once(app, JobKind.daily_close, 3, 60)
    [job] = _jobs(app, "daily-close:3")
    assert job.next_run_time < first
    assert len(app.job_queue.scheduler.get_jobs()) == 1


async def test_disarm_removes_only_its_job_and_is_harmless_twice(app):
    async def push(context):
        pass

    scheduling.register(app, JobKind.daily_resume, push)
    scheduling.once(app, JobKind.daily_resume, 1, 60)
    scheduling.once(app, JobKind.daily_resume, 2, 60)
    scheduling.disarm(app, JobKind.daily_resume, 1)
    scheduling.disarm(app, JobKind.daily_resume, 1)
    assert not scheduling.armed(app, JobKind.daily_resume, 1)
    assert scheduling.armed(app, JobKind.daily_resume, 2)


async def test_a_single_job_moves_sooner_never_later(app):
    async def flush(context):
        pass

    scheduling.register(app, JobKind.outbox, flush)
    scheduling.once_unless_sooner(app, JobKind.outbox, 100)
    at_100 = _jobs(app, "outbox")[0].next_run_time
    scheduling.once_unless_sooner(app, JobKind.outbox, 500)
    assert _jobs(app, "outbox")[0].next_run_time == at_100
    scheduling.once_unless_sooner(app, JobKind.outbox, 10)
    assert _jobs(app, "outbox")[0].next_run_time < at_100


async def test_a_daily_job_keeps_its_local_time_across_dst(app):
    async def push(context):
        pass

    scheduling.register(app, JobKind.daily_push, push)
    zone = ZoneInfo("America/New_York")
    scheduling.daily(app, JobKind.daily_push, -5, time(9, 0, tzinfo=zone))
    [job] = _jobs(app, "daily:-5")
    before = job.trigger.get_next_fire_time(None, datetime(2027, 3, 13, 12, tzinfo=UTC))  # EST
    after = job.trigger.get_next_fire_time(None, datetime(2027, 3, 14, 12, tzinfo=UTC))  # EDT
    assert before.astimezone(zone).hour == after.astimezone(zone).hour == 9
    assert before.astimezone(UTC).hour == 14 and after.astimezone(UTC).hour == 13


async def test_an_unregistered_kind_or_a_second_callback_is_refused(app):
    async def one(context):
        pass

    async def other(context):
        pass

    with pytest.raises(LookupError):
        scheduling.once(app, JobKind.digest, 1)
    scheduling.register(app, JobKind.digest, one)
    scheduling.register(app, JobKind.digest, one)  # the same callback again: fine
    with pytest.raises(ValueError):
        scheduling.register(app, JobKind.digest, other)


async def test_every_job_is_rebuilt_from_sqlite_after_a_restart(tmp_path, db_location):
    env = await make_env(tmp_path, location=db_location)
    try:
        await subscribe_group(env)  # 09:00 Asia/Shanghai
        assert scheduling.armed(env.app, JobKind.daily_push, GROUP)
        await env.restart()  # a new Application, a new JobQueue: only SQLite remembers
        await env.idle()
        [job] = env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}")
        assert job.job.id == f"daily:{GROUP}"
        assert job.callback is scheduling.callback_of(env.app, JobKind.daily_push)
        assert str(job.job.trigger.timezone) == "Asia/Shanghai"
    finally:
        await env.close()


async def test_a_job_rearmed_while_it_runs_runs_again_when_it_may_overlap(app):
    # the outbox's race (a card queued while a flush was finishing waited for the next retry): a
    # one-off job armed again during its own run is skipped by APScheduler unless it may overlap
    started: list[int] = []
    gate = asyncio.Event()

    async def job(context) -> None:
        started.append(len(started))
        if len(started) == 1:
            await gate.wait()

    scheduling.register(app, JobKind.outbox, job)
    scheduling.once_unless_sooner(app, JobKind.outbox, 0, overlap=True)
    await _until(lambda: started == [0])
    scheduling.once_unless_sooner(app, JobKind.outbox, 0, overlap=True)  # during the first run
    try:
        await _until(lambda: started == [0, 1])
    finally:
        gate.set()


async def test_the_outbox_job_may_overlap_a_finishing_flush(tmp_path, db_location):
    env = await make_env(tmp_path, location=db_location)
    try:
        outbox.arm(env.app, env.clock.now() + 3600)
        job = env.app.job_queue.scheduler.get_job(scheduling.name(JobKind.outbox))
        assert job is not None and job.max_instances == 2
    finally:
        await env.close()


async def _until(predicate, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_every_kind_of_job_has_its_feature_s_callback(tmp_path, db_location):
    env = await make_env(tmp_path, location=db_location)
    try:
        for kind in JobKind:
            assert callable(scheduling.callback_of(env.app, kind)), kind
    finally:
        await env.close()
