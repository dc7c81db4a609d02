"""An answer sent before the deadline counts though the bot handles it after (proctor/exams/deadline.py):
a typed message by Telegram's date, while the attempt still runs; the hand-in waits a grace for it,
and after a restart past the deadline the grace runs from the start, so what Telegram kept for the
bot while it was down (a takeover's gap, a crash) is handled first. A press carries no time: judged
when it is handled. Driven through the fake Bot API, whose message dates follow the test's clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot import scheduling
from bot.exam.jobs import START_SPACING
from bot.scheduling import JobKind
from proctor.exams.deadline import GRACE, hand_in_at, hand_in_due, time_is_up
from proctor.exams.states import AttemptStatus, FinishReason
from tests.harness import T0, BotEnv, attempt_message, hand_in_expired, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, attempts_of, the_attempt

GPU = "GPU的中文全称"  # the paper's first fill-in question; its key is 图形处理器


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=False)
    await e.seed(small_paper(minutes=1))
    await e.start()
    yield e
    await e.close()


async def _at_the_fill_in(env, ann):
    """Ann started the one-minute paper and skipped to its first fill-in question."""
    await start_exam(env, ann)
    while GPU not in attempt_message(ann.chat()).text:
        await ann.press(attempt_message(ann.chat()), "Skip ▶")
        await env.idle()
    return (await the_attempt(env.db)).deadline


async def _card(env, ann):
    hand_in_expired(env)
    return await ann.wait_message(lambda m: "Score:" in (m.text or ""))


async def test_a_typed_answer_sent_in_time_while_the_bot_was_down_counts(env):
    ann = env.api.user(3101, "Ann", language_code="en")
    deadline = await _at_the_fill_in(env, ann)
    await env.stop_app()
    env.clock.advance(deadline - env.clock.now() - 2)
    await ann.send("图形处理器")  # 2 s before the deadline: Telegram keeps it for the bot
    env.clock.advance(30)  # the bot comes back half a minute after the deadline
    await env.start_app()
    await env.idle()
    assert (await the_attempt(env.db)).status == AttemptStatus.running  # handed in a grace after the start
    assert [a.response for a in (await answers_of(env.db)).values()] == ["图形处理器"]
    card = await _card(env, ann)
    assert "Score: 1/15" in card.text and "Time ran out" in card.text
    done = await the_attempt(env.db)
    assert (done.finish_reason, done.finished_at) == (FinishReason.timeout, deadline)


async def test_a_typed_answer_sent_after_the_deadline_does_not_count(env):
    ann = env.api.user(3102, "Ann", language_code="en")
    deadline = await _at_the_fill_in(env, ann)
    await env.stop_app()
    env.clock.advance(deadline - env.clock.now() + 2)
    await ann.send("图形处理器")  # 2 s late: it hands the paper in, and is not in it
    await env.start_app()
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "Score: 0/15" in card.text
    assert await answers_of(env.db) == {}


async def test_a_press_is_judged_when_it_is_handled(env):
    """Telegram says nothing of when a button was pressed: a press kept while the bot was down and
    handled after the deadline hands the paper in without it."""
    ann = env.api.user(3103, "Ann", language_code="en")
    await start_exam(env, ann)
    deadline = (await the_attempt(env.db)).deadline
    screen = attempt_message(ann.chat())
    await env.stop_app()
    env.clock.advance(deadline - env.clock.now() - 2)
    await ann.press(screen, "C")  # Q1's key, 2 s before the deadline
    env.clock.advance(30)
    await env.start_app()
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "Score: 0/15" in card.text
    assert await answers_of(env.db) == {}


async def test_a_running_bot_refuses_a_typed_answer_dated_after_the_deadline_at_once(env):
    ann = env.api.user(3104, "Ann", language_code="en")
    deadline = await _at_the_fill_in(env, ann)
    env.clock.advance(deadline - env.clock.now() + 1)  # the deadline passed a second ago: the job waits
    await ann.send("图形处理器")  # Telegram dates it a second late: too late, the paper is handed in
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "Score: 0/15" in card.text


def test_the_rule():
    assert not time_is_up(None, T0)
    assert not time_is_up(T0, T0 - 1) and time_is_up(T0, T0)
    assert not time_is_up(T0, T0 + 60, sent_at=T0)  # sent in time, handled late
    assert time_is_up(T0, T0 + 60, sent_at=T0 + 1)
    assert hand_in_at(T0, T0 - 600) == T0 + GRACE  # armed while running: a grace after the deadline
    assert hand_in_at(T0, T0 + 600) == T0 + 600 + GRACE  # a start after the deadline: a grace from now
    assert not hand_in_due(T0, T0 + GRACE - 0.1) and hand_in_due(T0, T0 + GRACE) and not hand_in_due(None, T0)


async def test_attempts_expired_while_down_are_handed_in_a_grace_after_the_start_one_by_one(env):
    """After an outage the hand-ins are spread out, earliest deadline first, so the answers handled at
    the same time wait for one hand-in at most, not for all of them."""
    ann, bob = env.api.user(3105, "Ann", language_code="en"), env.api.user(3106, "Bob", language_code="en")
    await start_exam(env, bob)
    env.clock.advance(1)
    await start_exam(env, ann)
    env.clock.advance(600)
    await env.restart()
    by_user = {a.user_id: a.id for a in await attempts_of(env.db)}
    due = {user: env.app.job_queue.get_jobs_by_name(scheduling.name(JobKind.deadline, attempt))[0].next_t
           for user, attempt in by_user.items()}
    now = datetime.now(UTC)
    assert GRACE - 0.5 < (due[bob.id] - now).total_seconds() <= GRACE
    assert (due[ann.id] - due[bob.id]).total_seconds() == pytest.approx(START_SPACING, abs=0.02)
    hand_in_expired(env)
    for user in (ann, bob):
        await user.wait_message(lambda m: "Score:" in (m.text or ""))
