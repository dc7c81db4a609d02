"""`proctor --log-level DEBUG run --webhook URL`: DEBUG lines are written (PTB logs setWebhook's
parameters at DEBUG), and neither the token nor the webhook secret ever reaches stdout or stderr."""

from __future__ import annotations

import aiohttp
import pytest

from tests.process_helpers import SECRET, STARTUP, TOKEN, ProctorProcess, child_env, free_port

CHOSEN = "chosen-webhook-secret-0123456789"



@pytest.mark.parametrize("configured", [None, CHOSEN], ids=["random-secret", "PROCTOR_WEBHOOK_SECRET"])
async def test_debug_log_of_a_webhook_run_shows_no_secret(tmp_path, api, configured):
    port = free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    env = child_env(tmp_path, api, PROCTOR_WEBHOOK_PORT=str(port), PROCTOR_WEBHOOK_LISTEN="127.0.0.1",
                    PROCTOR_WEBHOOK_SECRET=configured)
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "--log-level", "debug", "run", "--webhook", hook],
                                     env=env, cwd=tmp_path)
    try:
        [params] = await api.wait_for(lambda: api.calls_to("setWebhook"), STARTUP, "setWebhook")
        secret = params["secret_token"]
        assert secret == configured if configured else len(secret) >= 16
        ann = api.user(1006, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message(timeout=10)
        await api.wait_idle(timeout=10)
        update = {"update_id": 998, "message": {"message_id": 1, "date": 0, "text": "/help",
                                                "chat": {"id": 1006, "type": "private"}}}
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "wrong"}
        async with aiohttp.ClientSession() as session, session.post(hook, json=update, headers=wrong) as r:
            assert r.status == 403
        await bot.wait_output("setWebhook", stream="stderr", timeout=10)
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()

    output = bot.stdout + bot.stderr
    # DEBUG is reachable, PTB's lines included (PTB logs the Bot API's URL, token and all)
    assert " DEBUG telegram.ext.ExtBot: Calling Bot API endpoint `setWebhook`" in output
    assert " DEBUG telegram.ext.ExtBot: Set Bot API URL: " in output
    assert "<webhook secret>" in output and "<token>" in output  # the lines that held them are there, redacted
    for leaked in (secret, TOKEN, SECRET):
        assert leaked not in output


@pytest.mark.parametrize("value", ["short", "has spaces in it, 16+ chars"])
async def test_a_malformed_webhook_secret_is_one_line(tmp_path, value):
    env = child_env(tmp_path, TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_WEBHOOK_SECRET=value)
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "run", "--webhook", "http://127.0.0.1:9/h"],
                                     env=env, cwd=tmp_path)
    try:
        assert await bot.wait(timeout=15) == 2
    finally:
        await bot.cleanup()
    [line] = bot.stderr.strip().splitlines()
    assert line.startswith("proctor: bad setting: PROCTOR_WEBHOOK_SECRET") and value not in line


async def test_a_lower_case_token_runs_the_bot_and_no_setting_secret_reaches_the_log(tmp_path, api):
    """pydantic-settings reads `telegram_bot_token` as TELEGRAM_BOT_TOKEN; the redaction takes its secrets
    from the settings by their own rule, so that token and a password inside a URL setting are redacted
    (PTB logs the Bot API's URL, password and token included, at DEBUG)."""
    password = "api-password-0123"
    api_url = api.base_url.replace("http://", f"http://ann:{password}@")
    env = child_env(tmp_path, TELEGRAM_BOT_TOKEN=None, telegram_bot_token=api.token, PROCTOR_BOT_API_URL=api_url)
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "--log-level", "debug", "run"],
                                     env=env, cwd=tmp_path)
    try:
        ann = api.user(1006, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message(timeout=STARTUP)  # the bot runs on the lower-case name
        await api.wait_idle(timeout=10)
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()

    output = bot.stdout + bot.stderr
    assert " DEBUG telegram.ext.ExtBot: Set Bot API URL: " in output
    assert "<token>" in output and "ann:<password>@" in output  # the lines that held them are there, redacted
    for leaked in (api.token, SECRET, password):
        assert leaked not in output
