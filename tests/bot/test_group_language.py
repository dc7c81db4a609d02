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
async def env(tmp_path, db_location):
    e = await make_env(tmp_path, location=db_location)
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
    assert (await lead.wait_message(chat=group)).text == "本群題目現以繁體顯示。"  # what the bot says, in the group's script
    assert await group_prefs(env.db, GROUP) == ("zh", "hant")
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    await env.idle()
    shown = [m for m in env.api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith("📅 每日一練")]
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


async def test_replies_in_a_group_follow_its_language_whoever_asks(env):
    """Lee reads Chinese privately; in a group set to English every reply there is English, and
    back in Chinese when its admins say so; Lee's private chat keeps Lee's language."""
    lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
    lee = env.api.user(40, "Lee", language_code="zh")
    await lead.send("/lang en", chat=group)
    assert (await lead.wait_message(chat=group)).text == "This group's language is now English."
    await lee.send("/help", chat=group)
    assert (await lee.wait_message(chat=group)).text.startswith("What you can do in this group")
    await lee.send("/dispute", chat=group)
    assert (await lee.wait_message(chat=group)).text.startswith("To dispute a question")
    await lee.send("/help")
    assert (await lee.wait_message()).text.startswith("你")  # privately: Lee's own language
    ann = env.api.user(41, "Ann")
    await lead.send("/lang zh", chat=group)
    await lead.wait_message(chat=group)
    await ann.send("/dispute", chat=group)
    assert (await ann.wait_message(chat=group)).text.startswith("对题目提出异议")


async def test_a_leads_private_card_keeps_their_language_while_the_group_hears_its_own(env):
    lead, group = env.api.user(1, "Lea", language_code="zh"), env.api.group(GROUP, "Team")
    await lead.send("/start")
    await lead.wait_message()
    await lead.send("/lang en", chat=group)
    await lead.wait_message(chat=group)
    await lead.send("/report", chat=group)
    assert (await lead.wait_message(chat=group)).text == "📬 Sent to you in a private chat."
    card = await lead.wait_message()
    assert "团队" in (card.caption or card.text or "")


async def test_a_members_consent_is_told_to_the_group_in_its_language(env):
    """The newcomer hour: after `/lang zh` in the group, "✅ Ann accepted and is on the team roster."
    still came in English (the bot's default language, not the group's)."""
    lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
    ann = env.api.user(41, "Ann", language_code="en", username="ann")
    group.add_members(41)
    await ann.send("/start")
    await ann.wait_message()
    await lead.send("/lang zh", chat=group)
    await lead.wait_message(chat=group)
    await ann.send("/team", chat=group)  # the bot sees Ann in the group, so @ann names her
    await ann.wait_message(chat=group)
    await lead.send("/team add @ann", chat=group)
    await lead.wait_message(chat=group)
    asked = await ann.wait_message(lambda m: any("Join" in b for b in m.button_texts))
    await (await ann.press(asked, next(b for b in asked.button_texts if "Join" in b))).wait()
    told = await env.api.wait_for(lambda: next((m for m in env.api.chat_view(GROUP) if m.from_bot
                                                and "Ann" in (m.text or "") and m.text.startswith("✅")), None),
                                  what="the group is told")
    assert told.text == "✅ Ann 已同意并加入团队名单。"
