"""One user's flood of updates stalls nobody else (issue 9), and the flood is told, not dropped silently."""

import asyncio
import contextlib

import pytest
from telegram import Update
from telegram.ext import TypeHandler

from bot.ordering import BURST
from tests.harness import BotEnv

FLOODER, OTHER = 7001, 7002
FLOOD = 300  # more than the 256 shared slots


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, meter=True)
    await e.start()
    yield e
    await e.close()


def _helps(user) -> list:
    return [m for m in user.chat() if m.from_bot and m.text.startswith("What you can do here:")]


def _notices(user) -> list:
    return [m for m in user.chat() if m.from_bot and "faster than I can answer" in m.text]


@contextlib.asynccontextmanager
async def flood_held(env):
    """The flooder's FLOOD /help updates, all fetched by the bot, the first one held in its handler."""
    gate = asyncio.Event()

    async def hold_the_flooder(update: Update, context) -> None:
        if update.effective_user and update.effective_user.id == FLOODER:
            await gate.wait()

    env.app.add_handler(TypeHandler(Update, hold_the_flooder), group=-2)
    flooder = env.api.user(FLOODER, "Flo")
    for _ in range(FLOOD):
        await flooder.send("/help")
    try:
        await env.api.wait_for(lambda: env.api.state.updates.undelivered == 0, timeout=30, what="the flood fetched")
        yield flooder
    finally:
        gate.set()  # a failure inside must not leave the held updates blocking the teardown


async def test_a_users_queue_holds_one_shared_slot_at_most(env):
    processor = env.app.update_processor
    processor.burst = processor.max_pending_per_user = FLOOD + 1  # no metering: all of them wait
    async with flood_held(env) as flooder:
        other = env.api.user(OTHER, "Ann")
        await other.send("/help")
        await other.wait_message(lambda m: m.text.startswith("What you can do here:"), timeout=10)  # not behind the flood
        assert _helps(flooder) == []
    await env.api.wait_for(lambda: len(_helps(flooder)) == FLOOD, timeout=60, what="the whole flood handled")
    assert processor.dropped == 0 and _notices(flooder) == []


async def test_a_flood_beyond_the_burst_is_dropped_with_one_notice(env):
    # the meter's clock stands still while the flood arrives: fetching 300 updates takes seconds on a
    # busy machine, and a real clock would refill the allowance (5/s) meanwhile and admit more than BURST
    processor = env.app.update_processor
    start = processor.clock()
    processor.clock = lambda: start
    async with flood_held(env) as flooder:
        other = env.api.user(OTHER, "Ann")
        await other.send("/help")
        await other.wait_message(lambda m: m.text.startswith("What you can do here:"), timeout=10)
        assert env.app.update_processor.dropped == FLOOD - BURST
    await env.api.wait_for(lambda: len(_helps(flooder)) == BURST, timeout=30, what="the admitted updates")
    await env.idle()
    assert len(_helps(flooder)) == BURST
    assert len(_notices(flooder)) == 1  # one notice for the whole flood, not one per dropped update

    # a minute later the flooder is an ordinary user again (the meter's clock, moved by the test)
    later = start + 60
    processor.clock = lambda: later
    await flooder.send("/help")
    await env.api.wait_for(lambda: len(_helps(flooder)) == BURST + 1, what="a later /help")
    assert len(_notices(flooder)) == 1
