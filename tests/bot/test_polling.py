"""The bot's own polling loop (bot/polling.py) meets the Bot API as PTB's Updater does: it deletes a
webhook before polling (keeping the updates waiting), backs off after a failed poll or a Conflict
(1 s, then 1.5 times longer), waits out a 429, and stops for a rejected token; stopping cancels a
long poll at once."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from bot.polling import POLLER, Poller
from sandbox.fakeapi import ApiError
from tests.harness import BotEnv


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.start()
    yield e
    await e.close()


def _waits(caplog) -> list[float]:
    return [float(m.group(1)) for r in caplog.records if r.name == "bot.polling"
            and (m := re.search(r"polling again in ([\d.]+) s", r.getMessage()))]


async def test_polling_begins_by_deleting_a_webhook_and_keeps_what_waits(tmp_path):
    env = BotEnv(tmp_path)
    await env.api.start()
    try:
        env.api.state.webhook.url = "http://127.0.0.1:9/hook"  # left by a run in webhook mode
        ann = env.api.user(601, "Ann", language_code="en")
        await ann.send("/start")  # sent while the bot was down
        await env.start_app()
        assert (await ann.wait_message()).text.startswith("Hi Ann")
        assert env.api.calls_to("deleteWebhook") == [{"drop_pending_updates": False}]
    finally:
        await env.close()


async def test_failed_polls_back_off_and_a_429_is_waited_out(env, caplog):
    caplog.set_level(logging.INFO, logger="bot.polling")
    ann = env.api.user(602, "Ann", language_code="en")
    began = time.monotonic()
    env.api.fail("getUpdates", ApiError.server_error(502))
    env.api.fail("getUpdates", ApiError(409, "Conflict: terminated by other getUpdates request"))
    env.api.fail("getUpdates", ApiError.retry_after(1))
    await env.api.wait_for(lambda: not env.api.state.faults, timeout=15, what="three failed polls")
    assert time.monotonic() - began >= 1.0 + 1.5 - 0.1  # the waits after the first two
    await ann.send("/start")  # fetched once the 429's wait is over
    assert (await ann.wait_message(timeout=15)).text.startswith("Hi Ann")
    assert time.monotonic() - began >= 1.0 + 1.5 + 1.5 - 0.1
    # as PTB's Updater: 1 s, then 1.5 times the last wait; a 429 its retry_after and half a second more
    assert _waits(caplog) == [1.0, 1.5, 1.5]


async def test_a_rejected_token_stops_polling(env, caplog):
    caplog.set_level(logging.ERROR, logger="bot.polling")
    poller = POLLER.of(env.app)
    env.api.fail("getUpdates", ApiError(401, "Unauthorized"))
    assert poller.task is not None
    await asyncio.wait_for(asyncio.shield(poller.task), 10)
    assert poller.rejected
    assert "rejected TELEGRAM_BOT_TOKEN" in caplog.text


async def test_stopping_cancels_a_long_poll_at_once(env):
    await POLLER.of(env.app).stop()
    poller = Poller()
    await poller.start(env.app, timeout=30)
    await asyncio.sleep(0.2)  # the first getUpdates is under way and waits for up to 30 s
    began = time.monotonic()
    await poller.stop()
    assert time.monotonic() - began < 2
    ann = env.api.user(603, "Ann", language_code="en")
    await ann.send("/start")  # nobody polls now: Telegram keeps it
    await asyncio.sleep(0.2)
    assert len(env.api.state.updates) == 1 and [m for m in ann.chat() if m.from_bot] == []
