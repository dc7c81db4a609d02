"""`proctor run` polls with the bot's own loop (bot/polling.py): a token Telegram rejects while the
bot runs (revoked with @BotFather) ends the run with exit code 1 and one line saying why, as PTB's
Updater ended its polling."""

from __future__ import annotations

from sandbox.fakeapi import ApiError
from tests.process.test_process import _run
from tests.process_helpers import STARTUP


async def test_a_token_rejected_while_running_ends_the_run_with_1(tmp_path, api):
    bot = await _run(tmp_path, api, tmp_path / "p.db")
    try:
        ann = api.user(1001, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message(timeout=STARTUP)
        api.fail("getUpdates", ApiError(401, "Unauthorized"))
        assert await bot.wait(timeout=30) == 1
    finally:
        await bot.cleanup()
    assert "the Bot API rejected TELEGRAM_BOT_TOKEN (revoked?): polling stops" in bot.stderr, bot.stderr
    assert "Traceback" not in bot.stderr
