"""The mechanism features use to load their handlers' modules on first use (bot/feature.py), through
the real Application: the loader runs once, at the first update that reaches it, and never for an
update the admins-only guard passes on (a candidate's typed text)."""

from __future__ import annotations

import pytest
from telegram import Update
from telegram.ext import MessageHandler, filters

from bot.context import Ctx
from bot.feature import Handler, for_admins, on_first_use
from tests.harness import BotEnv

ADMIN, CANDIDATE = 9001, 1001


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path, admins=(ADMIN,))
    await e.start()
    yield e
    await e.close()


async def test_an_admins_only_handler_loads_at_an_admins_first_text_and_once(env):
    loads: list[str] = []
    seen: list[int] = []

    async def handler(update: Update, context: Ctx) -> None:
        seen.append(context.user.id)

    def load() -> Handler:
        loads.append("loaded")
        return handler

    text = filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND
    env.app.add_handler(MessageHandler(text, for_admins(on_first_use(load))), group=-2)
    ann, lea = env.api.user(CANDIDATE, "Ann", language_code="en"), env.api.user(ADMIN, "Lea", language_code="en")
    await ann.send("my answer")
    await ann.wait_message()  # the text went on to the later groups (the exam's hint: no exam running)
    assert loads == [] and seen == []  # a candidate's text never loads it
    await lea.send("first")
    await lea.wait_message()
    await lea.send("second")
    await lea.wait_message()
    assert loads == ["loaded"] and seen == [ADMIN, ADMIN]


async def test_a_stand_in_forwards_every_argument_and_the_result():
    calls: list[str] = []

    def load():
        calls.append("load")
        return lambda a, *, b: a + b

    add = on_first_use(load)
    assert calls == []  # registering loads nothing
    assert add(1, b=2) == 3 and add(3, b=4) == 7
    assert calls == ["load"]
