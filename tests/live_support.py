"""Shared steps of the live-round tests (tests/bot/test_live*.py, tests/process/test_live_crash.py)."""

from __future__ import annotations

from bank.kinds import Kind, MultiPolicy
from bank.models import Paper, PaperSettings, Question, Section
from sandbox.fakeapi import StoredMessage
from tests.harness import BotEnv

GROUP = -100777
JOB = "live:1"  # the first round of a fresh database


def live_paper(slug: str = "live", n: int = 8, *, exam_only: bool = False,
               policy: MultiPolicy = MultiPolicy.partial) -> Paper:
    """`n` single-choice questions whose key is the first option, and one multiple (A and C right)."""
    singles = [Question(number=i + 1, kind=Kind.single, stem=f"{slug} question {i + 1}?",
                        options=[f"right {i + 1}", f"wrong {i + 1}a", f"wrong {i + 1}b"], answer="A",
                        explanation=f"Because {i + 1}.") for i in range(n)]
    return Paper(slug=slug, title=f"Live paper {slug}", settings=PaperSettings(exam_only=exam_only, multi_policy=policy),
                 sections=[Section(kind=Kind.single, title="Singles", questions=singles)])


def multi_paper(slug: str = "multi", policy: MultiPolicy = MultiPolicy.partial) -> Paper:
    q = Question(number=1, kind=Kind.multi, stem="Which are even?", options=["2", "3", "4", "5"], answer="AC")
    return Paper(slug=slug, title=f"Multi paper {slug}", settings=PaperSettings(multi_policy=policy),
                 sections=[Section(kind=Kind.multi, title="Multiple", questions=[q])])


def polls(env: BotEnv, chat_id: int = GROUP) -> list[StoredMessage]:
    return [m for m in env.api.chat_view(chat_id) if m.from_bot and m.poll is not None]


def bot_texts(env: BotEnv, chat_id: int = GROUP) -> list[str]:
    return [m.text for m in env.api.chat_view(chat_id) if m.from_bot and m.text]


def right_options(message: StoredMessage) -> list[int]:
    """The options a quiz poll marks right (what Telegram shows a player once they answered)."""
    assert message.poll is not None and message.poll["type"] == "quiz"
    return list(message.poll["correct_option_ids"])


async def run_job(env: BotEnv, name: str = JOB) -> None:
    """Run the real APScheduler job now, as if its trigger had fired."""
    jobs = env.app.job_queue.get_jobs_by_name(name)
    assert jobs, f"no job {name!r}"
    await jobs[0].run(env.app)


async def tick(env: BotEnv, seconds: float, name: str = JOB) -> None:
    """Move the clock and let the round's job do what is due."""
    env.clock.advance(seconds)
    await run_job(env, name)
    await env.idle()
