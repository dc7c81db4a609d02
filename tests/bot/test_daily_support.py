"""Shared steps of the daily integration tests (no tests here; named to sit with the daily tests)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.daily import counts, push
from proctor.daily import delivery as delivery_store
from tests.harness import BotEnv
from tests.papers_fixture import small_paper

HEADER = "📅 Daily quiz"
GROUP = -100123


def ts(*args) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def fast(env: BotEnv, pace: float = 0.02, edits: float = 0.2) -> None:
    """No flood limits in the fake server here: shorten pacing and edit debounce (real seconds)."""
    push.pacer(env.app).interval = pace
    counts.editor(env.app).interval = edits


async def make_env(tmp_path, **kw) -> BotEnv:
    env = BotEnv(tmp_path, admins=(1,), **kw)
    await env.seed(small_paper("demo"), small_paper("hire", exam_only=True))
    await env.start()
    fast(env)
    return env


def questions(messages) -> list:
    return [m for m in messages if m.from_bot and (m.text or "").startswith(HEADER)]


async def run_job(env: BotEnv, name: str) -> None:
    """Run the real APScheduler job now, as if its trigger had fired."""
    jobs = env.app.job_queue.get_jobs_by_name(name)
    assert jobs, f"no job {name!r}"
    await jobs[0].run(env.app)


async def close_open_quizzes(env: BotEnv) -> int:
    """Every quiz still open (or closed without its keys): its close job run at its close time, as the
    scheduler would; how many there were."""
    open_ones = await delivery_store.unfinished(env.db)
    for quiz in sorted(open_ones, key=lambda d: d.closes_at):
        env.clock.set(max(env.clock.now(), quiz.closes_at))
        await run_job(env, f"daily-close:{quiz.id}")
    await env.idle()
    return len(open_ones)


async def subscribe_group(env: BotEnv, args: str = "09:00 Asia/Shanghai"):
    lead = env.api.user(1, "Lea")
    group = env.api.group(GROUP, "Team")
    await lead.send(f"/daily on {args}", chat=group)
    reply = await lead.wait_message(chat=group)
    assert reply.text.startswith("✅ Daily quiz on"), reply.text
    return lead, group
