"""Private text has one handler, above the exam and daily practice (bot/private_text.py): neither
feature imports the other, and the daily quiz's step runs under its chat's lock."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from telegram import Update

from bot import private_text
from bot.daily.locks import chat_lock
from tests.bot.test_daily_support import make_env
from tests.reads import daily_answers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def env(tmp_path, db_location):
    e = await make_env(tmp_path, location=db_location)
    yield e
    await e.close()


def test_the_exam_and_daily_practice_never_import_each_other():
    """import-linter keeps the contract (tests/project/test_layers.py runs it)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "independence" and set(c["modules"]) == {"bot.exam", "bot.daily"} for c in contracts)


async def test_a_candidates_private_text_goes_to_the_one_router(env):
    """Of the handlers a private text matches, all but the admin-only ones (bot.feature.for_admins,
    which pass a candidate on) are the router: the exam and the daily quiz register none."""
    text = Update.de_json({"update_id": 1, "message": {
        "message_id": 1, "date": 1_800_000_000, "text": "A",
        "chat": {"id": 7, "type": "private", "first_name": "Ann"},
        "from": {"id": 7, "is_bot": False, "first_name": "Ann"}}}, env.app.bot)
    matching = [h.callback for group in env.app.handlers.values() for h in group if h.check_update(text)]
    assert [c for c in matching if c.__module__ != "bot.feature"] == [private_text.private_text]


async def test_a_daily_answer_typed_in_private_waits_for_the_chats_lock(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily now")
    question = await ann.wait_message(lambda m: m.text.startswith("📅"))
    await env.idle()
    lock = chat_lock(env.app, 7)
    await lock.acquire()  # a push or an answer-and-next of this chat in progress
    try:
        await ann.send("A")
        await env.api.wait_for(lambda: lock._waiters, what="the text waits for the chat's lock")
        assert await daily_answers(env.db) == []
    finally:
        lock.release()
    await env.api.wait_for(lambda: "Your answer" in question.text, what="answered once the lock is free")
    assert len(await daily_answers(env.db)) == 1
