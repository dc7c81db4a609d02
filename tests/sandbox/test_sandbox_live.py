"""A live round in the sandbox: quiz polls print with numbered options, `ann: poll 1` answers as Ann."""

from __future__ import annotations

import re

import pytest

from proctor.live import answers
from proctor.live.plan import COUNTDOWN
from sandbox.session import SANDBOX_GROUP, SANDBOX_USER
from tests.harness import BotEnv
from tests.live_support import live_paper, run_job
from tests.sandbox.test_sandbox_group import drive


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(SANDBOX_USER,), shuffle=False)
    await e.seed(live_paper("live", 3))
    await e.start()
    yield e
    await e.close()


async def test_a_round_played_from_the_terminal(env):
    async def first_poll() -> str:
        env.clock.advance(COUNTDOWN)
        await run_job(env, "live:1")
        await env.idle()
        return "ann: poll 1"

    async def close() -> str:
        env.clock.advance(10)
        await run_job(env, "live:1")
        await env.idle()
        return "team: /live me"

    printed = await drive(env, "team: /live 1q 10s", first_poll, "bob: poll 9", "bob: poll 2", "ann: poll 2", close)
    text = "\n".join(printed)
    assert "⚡ Live round: 1 question, 10 s each" in text
    assert re.search(r"\[quiz, 10 s\] 1/1 · P\d+ · Q\d+\. live question", text) and "     (1) right" in text and "     (3) wrong" in text
    assert "(Ann answered 1)" in text and "(that poll has options 1 to 3)" in text
    assert "already answered" in text  # Telegram's quiz takes one answer each
    assert "🥇 Ann — 1000" in text
    st = await answers.standings(env.db, 1, 5)
    assert [(s.name, s.points) for s in st.top] == [("Ann", 1000), ("Bob", 0)]
    assert SANDBOX_GROUP in env.api.state.chats
