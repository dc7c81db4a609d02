"""One helper edits a message and takes Telegram's *message is not modified* as done (bot/edits.py:
the exam's screen, its buttons and the daily quiz's push all use it)."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest

from bot.edits import edit_text, message_gone
from tests.fakeapi_fixtures import fake_api  # noqa: F401


async def test_an_unchanged_edit_is_no_error_and_others_still_raise(fake_api):  # noqa: F811
    user = fake_api.user(1001, "Ann")
    async with Bot(fake_api.token, base_url=fake_api.base_url) as bot:
        sent = await bot.send_message(user.id, "one")
        assert await edit_text(bot, user.id, sent.message_id, "two") is True
        assert await edit_text(bot, user.id, sent.message_id, "two") is False  # "not modified"
        with pytest.raises(BadRequest):
            await edit_text(bot, user.id, sent.message_id + 99, "three")  # no such message
    assert user.chat()[-1].text == "two"


async def test_a_message_gone_is_told_by_telegrams_own_words(fake_api):  # noqa: F811
    """`except BadRequest` passes over exactly these (bot/exam/show.py, bot/exam/buttons.py); the
    errors are the fake Bot API's, in Telegram's wording."""
    user = fake_api.user(1001, "Ann")
    async with Bot(fake_api.token, base_url=fake_api.base_url) as bot:
        sent = await bot.send_message(user.id, "one")
        errors = []
        for call in (lambda: bot.delete_message(user.id, sent.message_id + 99),
                     lambda: bot.edit_message_reply_markup(user.id, sent.message_id + 99, reply_markup=None),
                     lambda: bot.send_message(user.id + 5, "to nobody")):
            with pytest.raises(BadRequest) as raised:
                await call()
            errors.append(raised.value)
    assert [message_gone(e) for e in errors] == [True, True, False]


def test_no_other_copy_of_the_rule():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "bot"
    copies = [p for p in root.rglob("*.py") if '"not modified"' in p.read_text(encoding="utf-8")]
    assert [p.name for p in copies] == ["edits.py"]
