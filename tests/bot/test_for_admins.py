"""`bot.feature.for_admins` through the real Application: an admins-only text handler sees a
configured admin's text, and anyone else's goes on to the later handler groups untouched."""

from __future__ import annotations

import pytest
from telegram import Update
from telegram.ext import MessageHandler, filters

from bot.context import Ctx
from bot.feature import for_admins
from tests.harness import BotEnv

ADMIN, CANDIDATE = 9001, 1001


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.start()
    yield e
    await e.close()


async def test_an_admins_only_handler_sees_only_an_admins_text(env):
    seen: list[int] = []

    async def handler(update: Update, context: Ctx) -> None:
        seen.append(context.user.id)

    text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    env.app.add_handler(MessageHandler(text, for_admins(handler)), group=-2)
    ann, lea = env.api.user(CANDIDATE, "Ann", language_code="en"), env.api.user(ADMIN, "Lea", language_code="en")
    await ann.send("my answer")
    await ann.wait_message()  # the text went on to the later groups (the exam's hint: no exam running)
    assert seen == []
    await lea.send("first")
    await lea.wait_message()
    await lea.send("second")
    await lea.wait_message()
    assert seen == [ADMIN, ADMIN]
