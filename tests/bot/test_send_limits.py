"""The bot paces its sends at Telegram's limits (bot.app.send_limiter); the tests' harness runs the
same pacer faster (tests/harness.py), so this is where the production pace is pinned."""

from __future__ import annotations

from bot.app import build_application
from bot.pacing import Pace, Pacer
from bot.settings import Settings


def test_the_bot_sends_at_most_30_messages_a_second_1_a_chat_and_20_a_minute_to_a_group(tmp_path):
    settings = Settings(TELEGRAM_BOT_TOKEN="123456:TEST-fake-token-for-limits", PROCTOR_DB=tmp_path / "p.db")
    limiter = build_application(settings).bot.rate_limiter
    assert isinstance(limiter, Pacer)
    assert limiter.pace == Pace(per_second=30, burst=3, chat_per_second=1, chat_burst=2, group_per_minute=20,
                                group_burst=3, max_retries=3)
    assert build_application(settings, rate_limiter=False).bot.rate_limiter is None
