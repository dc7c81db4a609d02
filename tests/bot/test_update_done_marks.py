"""An update is marked done after its handlers return; while another is in flight, the mark rides on
the next round trip anybody makes (here the next update's, which carries its claim too), and the
last update in flight marks whatever is left (bot/core.py ProctorApplication,
proctor/storage/updates.py). A repeat is dropped all along."""

from __future__ import annotations

import pytest

from bot.services import services
from proctor.storage import updates
from tests.harness import BotEnv
from tests.round_trips import RoundTrips


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path)
    await e.start()
    yield e
    await e.close()


async def _done(env: BotEnv, update_id: int) -> bool:
    return await updates.is_done(env.db, env.app.bot.id, update_id)


async def test_a_finished_update_is_marked_done_by_the_next_claim_while_another_is_in_flight(env):
    ann, bob = env.api.user(301, "Ann", language_code="en"), env.api.user(302, "Bob", language_code="en")
    hold = env.api.hold("sendMessage", chat_id=bob.id)
    await bob.send("/help")
    bobs = env.api.state.updates.last_pushed
    await hold.reached.wait()  # Bob's handler waits on its reply: his update is in flight

    await ann.send("/help")
    first = env.api.state.updates.last_pushed
    await ann.wait_message()
    await env.api.wait_for(lambda: first in services(env.app).finished, what="Ann's /help finished")
    assert not await _done(env, first)  # no trip of its own: Bob's update is still in flight

    trips = RoundTrips(env.app)
    await ann.send("/start")
    second = env.api.state.updates.last_pushed
    await ann.wait_message()
    await env.api.wait_for(lambda: second in services(env.app).finished, what="Ann's /start finished")
    assert await _done(env, first)  # carried by the /start's claim
    # its claim carried the mark: no trip of its own, and this update's own done is not one either
    assert [s.hops for s in trips.steps if s.kind == "/start"] == [1], trips.table()
    assert not await _done(env, second)

    await ann.send("/start")
    third = env.api.state.updates.last_pushed
    await ann.wait_message()

    hold.release()  # Bob's handler returns: nothing else in flight, so every mark is written now
    await bob.wait_message()
    await env.api.wait_for(lambda: not services(env.app).finished and not services(env.app).in_flight, what="all marked")
    await env.idle()
    for update_id in (bobs, first, second, third):
        assert await _done(env, update_id), update_id
    assert await updates.unfinished(env.db, env.app.bot.id) == []


async def test_with_nothing_else_in_flight_an_update_is_marked_done_at_once(env):
    ann = env.api.user(303, "Ann", language_code="en")
    await ann.send("/help")
    update_id = env.api.state.updates.last_pushed
    await ann.wait_message()
    await env.idle()
    assert await _done(env, update_id)
    assert not services(env.app).finished
