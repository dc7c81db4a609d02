"""A group's own language and script (/lang, /script by its administrators): everything the bot
posts there follows it, daily quizzes and live rounds included; a member's /lang there changes nothing."""

from __future__ import annotations

import pytest

from proctor.chats import group_prefs
from proctor.live.plan import COUNTDOWN
from proctor.people.users import find_prefs
from tests.bot.test_daily_support import GROUP, make_env, questions, run_job, subscribe_group, ts
from tests.live_support import polls, tick


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


async def test_an_admins_lang_sets_the_groups_and_the_daily_quiz_follows(env):
    lead, group = await subscribe_group(env)
    member = env.api.user(30, "Max")
    await member.send("/lang zh", chat=group)
    assert (await member.wait_message(chat=group)).text == "Only this group's administrators can set its language."
    assert await group_prefs(env.db, GROUP) == (None, None)
    await lead.send("/lang zh", chat=group)
    assert (await lead.wait_message(chat=group)).text == "本群的语言已设为中文。"
    await lead.send("/script hant", chat=group)
    assert (await lead.wait_message(chat=group)).text.startswith("本群题目现以")
    assert await group_prefs(env.db, GROUP) == ("zh", "hant")
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    await env.idle()
    shown = [m for m in env.api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith("📅 每日一练")]
    assert shown and not questions(env.api.chat_view(GROUP))  # every question in Chinese, none in English
    assert any("梯度累積" in m.text for m in shown)  # and in Traditional characters
    # the lead's own (private) language is untouched
    prefs = await find_prefs(env.db, lead.id)
    assert prefs is not None and (prefs.language, prefs.script) == (None, "orig")


async def test_a_live_round_speaks_the_groups_language(env):
    lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
    await lead.send("/lang zh", chat=group)
    await lead.wait_message(chat=group)
    await lead.send("/live 1q 10s", chat=group)
    countdown = await lead.wait_message(chat=group)
    assert countdown.text.startswith("⚡ 抢答开始：共 1 题")
    await env.idle()
    await tick(env, COUNTDOWN, "live:1")
    assert polls(env, GROUP)
    await lead.send("/lang auto", chat=group)
    assert (await lead.wait_message(chat=group)).text == "This group's language is now English."
