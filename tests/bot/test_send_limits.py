"""The bot paces its sends at Telegram's limits (bot.app.send_limiter); the tests' harness runs the
same limiter faster (tests/harness.py), so this is where the production pace is pinned."""

from __future__ import annotations

from bot.app import build_application
from bot.settings import Settings


def test_the_bot_sends_at_most_30_messages_a_second_and_20_a_minute_to_a_group(tmp_path):
    settings = Settings(TELEGRAM_BOT_TOKEN="123456:TEST-fake-token-for-limits", PROCTOR_DB=tmp_path / "p.db")
    limiter = build_application(settings).bot.rate_limiter
    # PTB's AIORateLimiter keeps its rates in private slots: there is no public accessor
    assert (limiter._base_limiter.max_rate, limiter._base_limiter.time_period) == (3, 0.1)  # 30/s, bursts of 3
    assert (limiter._group_max_rate, limiter._group_time_period) == (20, 60)
    assert limiter._max_retries == 3  # a 429 is retried after its retry_after
    assert build_application(settings, rate_limiter=False).bot.rate_limiter is None
