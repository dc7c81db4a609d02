"""A live round across restarts and send failures (in process: the same Application code, restarted
on the same database): it goes on where it was, posts nothing twice, and a 403 ends it cleanly."""

from __future__ import annotations

import pytest

from proctor.live import rounds
from proctor.live.plan import COUNTDOWN, gap
from proctor.live.states import ItemStatus, RoundStatus
from sandbox.fakeapi import ApiError
from tests.harness import BotEnv
from tests.live_support import GROUP, bot_texts, live_paper, polls, right_options, run_job, tick


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(1,), shuffle=False)
    await e.seed(live_paper("live", 8))
    await e.start()
    yield e
    await e.close()


async def _start(env: BotEnv, args: str):
    lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
    group.add_members(11)  # Ann, the player: in the group (a vote from outside it is not scored)
    await lead.send(f"/live {args}", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    return lead, group


async def test_a_restart_past_the_polls_time_stops_it_and_goes_on(env):
    await _start(env, "2q 10s")
    await tick(env, COUNTDOWN)
    [poll] = polls(env)
    await env.stop_app()
    ann = env.api.user(11, "Ann")
    env.clock.advance(3)
    await ann.answer_poll(poll, right_options(poll))  # while the bot is down, 3 s in
    env.clock.advance(20)  # the bot comes back after the poll's time
    await env.start_app()
    await env.idle()  # the answer kept by Telegram arrives first
    await run_job(env)  # the round's job, re-armed by start-up
    await env.idle()
    assert env.api.calls_to("stopPoll", GROUP)  # closed late: stopped, not left to Telegram alone
    r, items = await rounds.load(env.db, 1)
    assert items[0].status == ItemStatus.closed and items[1].status == ItemStatus.pending
    assert "Ann — 500" in bot_texts(env)[-1]  # received after the poll's time: the slowest right answer
    await tick(env, gap(10))
    assert len(polls(env)) == 2  # the next question, once


async def test_a_poll_telegram_took_but_the_bot_did_not_hear_of_is_posted_once_more(env):
    await _start(env, "2q 10s")
    hold = env.api.hold("sendPoll", chat_id=GROUP, error=ApiError.server_error(502))
    await tick(env, COUNTDOWN)
    assert hold.reached.is_set() and len(polls(env)) == 1  # in the chat; the bot heard a 502
    r, items = await rounds.load(env.db, 1)
    assert items[0].status == ItemStatus.sending and items[0].poll_id is None
    await tick(env, 5)  # the step is tried again
    assert len(polls(env)) == 2  # one duplicate, never more
    _, items = await rounds.load(env.db, 1)
    assert items[0].status == ItemStatus.open and items[0].poll_id == polls(env)[-1].poll["id"]


async def test_the_bot_removed_from_the_group_ends_the_round(env):
    await _start(env, "3q 10s")
    env.api.group(GROUP).kicked = True
    await tick(env, COUNTDOWN)
    r, _ = await rounds.load(env.db, 1)
    assert r.status == RoundStatus.gone and r.ended_at is not None
    env.api.group(GROUP).kicked = False
    await tick(env, 60)  # its job finds nothing left to do: no poll, no podium
    assert polls(env) == [] and not [t for t in bot_texts(env) if t.startswith(("🏁", "🛑"))]
    lead = env.api.user(1, "Lea")
    await lead.send("/live 1q", chat=env.api.group(GROUP))  # a new round may start
    await lead.wait_message(lambda m: m.text.startswith("⚡"), chat=env.api.group(GROUP))
