"""An update is marked done after its handlers return, in a round trip of its own (bot/core.py
`ProctorApplication`), whatever else is in flight; a repeat is dropped at the door (bot/intake.py):
it is never queued, so nothing of it runs."""

from __future__ import annotations

import pytest

from proctor.storage import updates
from tests.harness import BotEnv
from tests.reads import unfinished_updates
from tests.round_trips import RoundTrips


# SQLite only: each test counts hops to aiosqlite's thread (tests/round_trips.py)
@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path)
    await e.start()
    yield e
    await e.close()


async def _done(env: BotEnv, update_id: int) -> bool:
    return await updates.is_done(env.db, env.app.bot.id, update_id)


async def test_an_update_is_marked_done_when_its_handlers_return_while_another_is_in_flight(env):
    ann, bob = env.api.user(301, "Ann", language_code="en"), env.api.user(302, "Bob", language_code="en")
    hold = env.api.hold("sendMessage", chat_id=bob.id)
    await bob.send("/help")
    bobs = env.api.state.updates.last_pushed
    await hold.reached.wait()  # Bob's handler waits on its reply: his update is in flight

    trips = RoundTrips(env.app)
    await ann.send("/start")
    first = env.api.state.updates.last_pushed
    await ann.wait_message()
    await env.api.wait_for(lambda: trips.steps, what="Ann's /start handled")
    assert await _done(env, first)  # not waiting for Bob's update, nor for anybody's next trip
    assert [s.calls for s in trips.steps] == [["transaction", "transaction"]]  # its claim, its mark
    assert not await _done(env, bobs)  # still in flight: claimed, not done

    hold.release()
    await bob.wait_message()
    await env.idle()
    for update_id in (bobs, first):
        assert await _done(env, update_id), update_id
    assert await unfinished_updates(env.db, env.app.bot.id) == []


async def test_a_repeat_reaches_no_handler_and_is_not_marked_again(env):
    ann = env.api.user(303, "Ann", language_code="en")
    help_ = {"update_id": 800_001, "message": {
        "message_id": 1, "date": 1_800_000_000, "text": "/help",
        "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        "chat": {"id": ann.id, "type": "private", "first_name": "Ann"},
        "from": {"id": ann.id, "is_bot": False, "first_name": "Ann", "language_code": "en"}}}
    env.api.inject_update(help_)
    await ann.wait_message()
    await env.idle()
    assert await _done(env, 800_001)
    trips = RoundTrips(env.app)
    env.api.inject_update(help_)  # delivered again
    await env.api.wait_for(lambda: len(env.api.state.updates) == 0, what="the repeat taken and confirmed")
    await env.api.wait_idle()
    assert trips.steps == []  # the claim refused it at the door: never queued
    assert len([m for m in ann.chat() if m.from_bot]) == 1
