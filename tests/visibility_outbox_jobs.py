"""The matrix's drivers of the outbox kinds and the job kinds: every message of a kind the seeded
history (or the run) queued is queued again and the outbox job delivers it as it would the first
time (its sender reads what it renders at send time); every job kind runs by its name through the
real scheduler, for every key it has in the world (each group, each open quiz, each candidate)."""

from __future__ import annotations

import sqlite3

from bot import outbox, scheduling
from bot.scheduling import JobKind
from proctor import outbox as box
from proctor.daily import delivery as deliveries
from proctor.live import rounds
from proctor.teams import digest as dg
from tests.visibility_drive import Matrix
from tests.visibility_world import CANDIDATES, GROUPS, PEOPLE, Who

FAR = 3600.0  # a job armed here for running now waits this long on its own (never: it runs at once)


def redeliver(kind: box.Kind):
    """Queue every message of `kind` again (pending, due now) and let the outbox job deliver them."""
    async def drive(m: Matrix) -> None:
        now = m.env.clock.now()

        def transaction(conn: sqlite3.Connection) -> int:
            return conn.execute(  # the test's own write: a message queued anew, as when it was first queued
                "UPDATE outbox SET state='pending', tries=0, next_try=?, done_at=NULL WHERE kind=?",
                (now, kind.value)).rowcount

        assert await m.env.db.run_write(transaction), f"the seeded history has no {kind} message"
        outbox.kick(m.env.app)

    return drive


async def run_job(m: Matrix, kind: JobKind, key: object | None = None, data: object | None = None) -> None:
    """Run the job `kind:key` now: the armed one, or one armed for it here."""
    app = m.env.app
    jobs = app.job_queue.get_jobs_by_name(scheduling.name(kind, key))
    if not jobs:
        scheduling.once(app, kind, key, FAR, data=data)
        jobs = app.job_queue.get_jobs_by_name(scheduling.name(kind, key))
    await jobs[0].run(app)


async def _group_deliveries(m: Matrix) -> list[int]:
    found = []
    for g in GROUPS:
        latest = await deliveries.latest_delivery(m.env.db, g.chat_id)
        if latest is not None:
            found.append(latest.id)
    return found


def per_group(kind: JobKind, *, hours: float = 0):
    """The job of `kind` for every group (the clock first moved on by `hours`)."""
    async def drive(m: Matrix) -> None:
        m.env.clock.advance(hours * 3600)
        for g in GROUPS:
            await run_job(m, kind, g.chat_id)

    return drive


async def digest(m: Matrix) -> None:
    """Every group's weekly digest job, as if this week's were not posted yet."""
    for g in GROUPS:
        await dg.release_week(m.env.db, g.chat_id, None)
        await run_job(m, JobKind.digest, g.chat_id)


async def daily_resume(m: Matrix) -> None:
    for delivery in await _group_deliveries(m):
        await run_job(m, JobKind.daily_resume, delivery)
    for who in Who:
        latest = await deliveries.latest_delivery(m.env.db, PEOPLE[who].user_id)
        if latest is not None:
            await run_job(m, JobKind.daily_resume, latest.id)


async def daily_close(m: Matrix) -> None:
    """Every open quiz closes at its time (the clock moves there): the groups' and each viewer's
    private one (a group's keys are posted)."""
    chats = [g.chat_id for g in GROUPS] + [PEOPLE[w].user_id for w in Who]
    for chat in chats:
        latest = await deliveries.latest_delivery(m.env.db, chat)
        if latest is not None:
            if latest.closes_at > m.env.clock.now():
                m.env.clock.advance(latest.closes_at - m.env.clock.now() + 1)
            await run_job(m, JobKind.daily_close, latest.id)


async def daily_release(m: Matrix) -> None:
    for who in Who:
        await run_job(m, JobKind.daily_release, PEOPLE[who].user_id)


async def deadline(m: Matrix) -> None:
    """Every attempt's deadline job (a running one not yet due is armed again; finished ones do nothing)."""
    for attempt in [*m.running.values(), *m.sat.values()]:
        await run_job(m, JobKind.deadline, attempt)


async def deadlines_passed(m: Matrix) -> None:
    """The clock passes the candidates' deadlines and their deadline jobs hand their exams in."""
    for kind, who in CANDIDATES.items():
        m.ended.setdefault(who, set()).add(kind)
    m.env.clock.advance(5001 * 60)
    for attempt in m.running.values():
        await run_job(m, JobKind.deadline, attempt)


async def exam_timer(m: Matrix) -> None:
    for attempt in m.running.values():
        if m.env.app.job_queue.get_jobs_by_name(scheduling.name(JobKind.exam_timer, attempt)):
            await run_job(m, JobKind.exam_timer, attempt)


async def outbox_job(m: Matrix) -> None:
    await run_job(m, JobKind.outbox)


async def set_commands(m: Matrix) -> None:
    await run_job(m, JobKind.set_commands, None, 0)


def live(*, to_end: bool):
    """Every running live round goes on: the countdown and its first poll, or on to its end (each
    poll, its close, the standings, the podium)."""
    async def drive(m: Matrix) -> None:
        for g in GROUPS:
            for _ in range(12):
                found = await rounds.running(m.env.db, g.chat_id)
                if found is None:
                    break
                _, items = await rounds.load(m.env.db, found.id)
                if not to_end and any(i.poll_id for i in items):
                    break
                m.env.clock.advance(5)
                await run_job(m, JobKind.live, found.id)
                await m.env.idle()

    return drive
