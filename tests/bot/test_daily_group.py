"""The daily quiz in a team group, through the fake Bot API: schedule, answers, privacy, close."""

import json
import re

import pytest

from bank.paper_store import get_questions
from bot.daily import counts
from proctor.daily import delivery
from proctor.daily.subscriptions import get_subscription
from proctor.teams import audit
from tests.bot.test_daily_support import GROUP, fast, make_env, questions, run_job, subscribe_group, ts
from tests.reads import daily_answers, deliveries, the_delivery


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


async def test_only_admins_and_leads_change_the_schedule(env):
    group = env.api.group(GROUP, "Team")
    group.set_admins([20])
    member = env.api.user(30, "Max")
    await member.send("/daily on 08:00", chat=group)
    refusal = await member.wait_message(chat=group)
    assert "Only this group's administrators and team leads" in refusal.text
    assert await get_subscription(env.db, GROUP) is None
    admin = env.api.user(20, "Ada")
    await admin.send("/daily on 08:00 Europe/Berlin", chat=group)
    assert "every day at 08:00 (Europe/Berlin)" in (await admin.wait_message(chat=group)).text
    await member.send("/daily off", chat=group)
    assert "Only this group's" in (await member.wait_message(chat=group)).text
    await member.send("/daily status", chat=group)
    status = await member.wait_message(chat=group)
    assert "Daily quiz: on" in status.text and "Your streak here: 🔥 0" in status.text


async def test_a_changed_schedule_replaces_the_chats_job_at_once(env):
    lead, group = await subscribe_group(env, "09:00 Asia/Shanghai")
    job = env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}")
    assert len(job) == 1 and job[0].next_t.astimezone(job[0].next_t.tzinfo).strftime("%H:%M") == "09:00"
    await lead.send("/daily on 18:30 Europe/Berlin", chat=group)
    await lead.wait_message(lambda m: "18:30" in m.text, chat=group)
    jobs = env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}")
    assert len(jobs) == 1
    assert str(jobs[0].next_t.tzinfo) == "Europe/Berlin" and jobs[0].next_t.strftime("%H:%M") == "18:30"
    await lead.send("/daily off", chat=group)
    await lead.wait_message(lambda m: "Daily quiz off" in m.text, chat=group)
    assert env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}") == ()


async def test_the_job_fires_the_push_at_nine_in_shanghai(env):
    await subscribe_group(env)
    # T0 is 16:00 in Shanghai: the next 09:00 is 2027-01-16 01:00 UTC
    env.clock.set(ts(2027, 1, 16, 0, 59))
    await run_job(env, f"daily:{GROUP}")
    assert questions(env.api.chat_view(GROUP)) == []  # not yet due
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    sent = questions(env.api.chat_view(GROUP))
    assert len(sent) == 5
    heads = [m.text.splitlines()[0] for m in sent]  # its place in the quiz, then the question's reference
    assert [h.split(" · P")[0] for h in heads] == [f"📅 Daily quiz · {i}/5" for i in range(1, 6)]
    assert all(re.fullmatch(r"📅 Daily quiz · \d/5 · P\d+ · Q\d+", h) for h in heads), heads
    quiz = await the_delivery(env.db, GROUP)
    assert (quiz.day, quiz.status) == ("2027-01-16", "open")
    # the trigger firing again the same day sends nothing more
    await run_job(env, f"daily:{GROUP}")
    assert len(questions(env.api.chat_view(GROUP))) == 5


async def _push_now(env):
    lead, group = await subscribe_group(env)
    await lead.send("/daily now", chat=group)
    await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="five questions")
    await env.idle()
    return lead, group


async def _question_of_kind(env, group, kind):
    """Today's sent question of `kind`: its message, its item (option order) and its key."""
    sent = [i for i in await delivery.items(env.db, (await the_delivery(env.db)).id) if i.message_id is not None]
    keys = await get_questions(env.db, [i.question_id for i in sent])
    found = [(i, keys[i.question_id].answer) for i in sent if keys[i.question_id].kind == kind]
    assert found, f"no {kind} question today"
    item, key = found[0]
    msg = next(m for m in group.chat() if m.message_id == item.message_id)
    return msg, item, key


async def test_three_members_answer_first_answer_counts_feedback_is_private(env):
    lead, group = await _push_now(env)
    msg, item, key = await _question_of_kind(env, group, "single")
    right = "ABCD"[item.option_order.index(key)]
    wrong = next(c for c in "ABCD" if c != right)
    ann, bob, cy = env.api.user(11, "Ann"), env.api.user(12, "Bob"), env.api.user(13, "Cy")
    group.add_members(11, 12, 13)
    before = len(group.chat())
    t_ann = await ann.press(msg, right)
    t_bob = await bob.press(msg, wrong)
    t_cy = await cy.press(msg, right)
    assert (await t_ann.wait()).startswith("✅ Correct!")
    assert (await t_bob.wait()).startswith("❌ Not quite.")
    assert f"Answer: {right}" in t_bob.text
    assert (await t_cy.wait()).startswith("✅")
    assert len(t_ann.text) <= 200
    # a later tap: "already answered", and the first answer stays
    again = await bob.press(msg, right)
    assert "already answered" in await again.wait()
    given = await daily_answers(env.db)
    assert [(a.user_id, a.verdict) for a in given] == [(11, "correct"), (12, "wrong"), (13, "correct")]
    # the count lands (debounced), and nothing in the group tells who was right
    await env.api.wait_for(lambda: "👥 Answered: 3" in msg.text, timeout=5, what="count edited to 3")
    assert len(group.chat()) == before
    for m in questions(group.chat()):
        assert "✅" not in m.text and "❌" not in m.text and "Correct" not in m.text
    # close: keys with explanations, and the day's top
    quiz = await the_delivery(env.db)
    env.clock.set(quiz.closes_at)
    await run_job(env, f"daily-close:{quiz.id}")
    close = group.last_message()
    assert close.text.startswith("🔑 Daily quiz 2027-01-15: the keys")
    assert "梯度累积可模拟大批次" in close.text or "1. " in close.text
    top = close.text.split("🏆 Today's top")[1]
    assert top.index("Ann") < top.index("Bob") and "Cy" in top
    late = await ann.press(msg, wrong)
    assert "closed" in await late.wait()
    # closing happens once
    await run_job(env, f"daily-close:{quiz.id}") if env.app.job_queue.get_jobs_by_name(
        f"daily-close:{quiz.id}") else None
    await env.idle()
    assert sum(1 for m in group.chat() if m.from_bot and m.text.startswith("🔑")) == 1


async def test_the_groups_board_counts_a_quiz_once_its_keys_are_posted_not_before(env):
    """A member's points while the quiz is open would tell the group who was right before the keys do."""
    lead, group = await _push_now(env)
    msg, item, key = await _question_of_kind(env, group, "single")
    right = "ABCD"[item.option_order.index(key)]
    wrong = next(c for c in "ABCD" if c != right)
    ann, bob = env.api.user(11, "Ann"), env.api.user(12, "Bob")
    group.add_members(11, 12)
    await (await ann.press(msg, right)).wait()
    await (await bob.press(msg, wrong)).wait()

    async def board() -> str:
        await ann.send("/leaderboard week", chat=group)  # the quiz closes the next morning: the same week
        return (await ann.wait_message(lambda m: "🏆" in (m.text or ""), chat=GROUP)).text

    quiz = await the_delivery(env.db)
    held = await board()
    assert "⏳ The open quiz counts here once it closes" in held and "Ann" not in held and "Bob" not in held
    env.clock.set(quiz.closes_at)
    await run_job(env, f"daily-close:{quiz.id}")
    counted = await board()
    assert "⏳" not in counted and re.search(r"\n1\. Ann — [1-9]", counted) and "\n2. Bob — 0 pts" in counted, counted


async def test_count_edits_are_debounced_and_the_last_change_lands(env):
    lead, group = await _push_now(env)
    fast(env, edits=1.0)
    msg, _, _ = await _question_of_kind(env, group, "truefalse")
    edits_before = msg.edits
    users = [env.api.user(100 + i, f"U{i}") for i in range(6)]
    toasts = [await u.press(msg, "✔ True") for u in users]
    for toast in toasts:
        await toast.wait()
    await env.api.wait_for(lambda: "👥 Answered: 6" in msg.text, timeout=5, what="count edited to 6")
    # six answers within a second: one edit at once, one after the interval
    assert msg.edits - edits_before <= 2
    assert counts.editor(env.app).edits <= 2


async def test_multiple_choice_in_a_group_toggles_privately_then_submits(env):
    lead, group = await _push_now(env)
    msg, item, _ = await _question_of_kind(env, group, "multi")
    order = item.option_order
    ann = env.api.user(11, "Ann")
    shown = sorted("ABCD"[order.index(c)] for c in "AB")
    t1 = await ann.press(msg, shown[0])
    assert (await t1.wait()).startswith("Selected:")
    t2 = await ann.press(msg, shown[1])
    assert shown[0] in await t2.wait()
    assert not any(b.text.startswith("☑") for row_ in msg.buttons for b in row_)  # shared buttons unchanged
    t3 = await ann.press(msg, "✅ Submit")
    assert (await t3.wait()).startswith("✅ Correct!")


async def test_a_fill_in_question_is_answered_by_replying(env):
    lead, group = await _push_now(env)
    msg, _, answer = await _question_of_kind(env, group, "fill")
    key = "、".join(alts[0] for alts in answer)
    assert "Reply to this message" in msg.text and not msg.buttons
    ann = env.api.user(11, "Ann")
    await ann.send("/start")  # Ann has a private chat with the bot: feedback goes there
    await ann.wait_message()
    before = len(group.chat())
    await ann.send(key, chat=group, reply_to=msg)
    dm = await ann.wait_message(lambda m: "Daily quiz in Team" in m.text)
    assert "✅ Correct!" in dm.text
    assert [a.verdict for a in await daily_answers(env.db, 11)] == ["correct"]
    await env.api.wait_for(lambda: "👥 Answered: 1" in msg.text, what="count edited")
    await env.idle()
    # the group sees the member's reply, the count and a neutral reaction: no verdict
    bot_new = [m for m in group.chat()[before:] if m.from_bot]
    assert bot_new == []
    reaction = env.api.calls_to("setMessageReaction", GROUP)[-1]["reaction"]
    reaction = json.loads(reaction) if isinstance(reaction, str) else reaction
    assert reaction[0]["emoji"] == "✍"
    # a second reply does not count
    await ann.send("不知道", chat=group, reply_to=msg)
    await ann.wait_message(lambda m: "already answered" in m.text)
    assert len(await daily_answers(env.db, 11)) == 1


async def test_forged_button_gets_a_polite_refusal(env):
    lead, group = await _push_now(env)
    msg = questions(group.chat())[0]
    other = questions(group.chat())[1]
    quiz = (await the_delivery(env.db)).id
    ann = env.api.user(11, "Ann")
    # a client can send any callback data: unknown quiz, option out of range, garbled, another message's
    for data in ("d:p:999:0:0", f"d:p:{quiz}:0:9", "d:zz", f"d:p:{quiz}:1:0"):
        msg.reply_markup = {"inline_keyboard": [[{"text": "X", "callback_data": data}]]}
        toast = await ann.press(msg, callback_data=data)
        assert "isn't valid" in await toast.wait(), data
    assert other.message_id != msg.message_id
    assert await daily_answers(env.db) == []


async def test_a_403_turns_the_subscription_off(env):
    lead, group = await subscribe_group(env)
    group.kicked = True
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    sub = await get_subscription(env.db, GROUP)
    assert (sub.enabled, sub.disabled_reason) == (False, "kicked")
    assert (await the_delivery(env.db)).status == "failed"
    assert env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}") == ()
    group.kicked = False
    await lead.send("/daily status", chat=group)
    assert "stopped, because I could not post here (removed from the group)" in (
        await lead.wait_message(chat=group)).text
    # back in the group: turned on again, today's quiz goes out after all, once
    await lead.send("/daily on", chat=group)
    await lead.wait_message(lambda m: "Daily quiz on" in m.text, chat=group)
    await lead.send("/daily now", chat=group)
    await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="today's quiz after all")
    await lead.send("/daily now", chat=group)
    assert "already out" in (await lead.wait_message(chat=group)).text
    assert len(await deliveries(env.db)) == 1


async def test_a_429_is_retried_after_its_retry_after(env):
    from sandbox.fakeapi import ApiError

    lead, group = await subscribe_group(env)
    env.api.fail("sendMessage", ApiError.retry_after(1), times=1, chat_id=GROUP)
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    assert len(questions(group.chat())) == 5
    assert [e[1] for e in env.api.errors] == [429]
    assert len({m.text for m in questions(group.chat())}) == 5
    assert all(i.message_id is not None for i in await delivery.items(env.db, (await the_delivery(env.db)).id))


async def test_a_leads_schedule_changes_in_a_group_are_audited(tmp_path):
    """Turning a team's daily quiz on or off is a lead action: it is written to the audit log."""
    from tests.harness import BotEnv
    from tests.papers_fixture import small_paper

    env = BotEnv(tmp_path, admins=(77,))
    await env.seed(small_paper())
    await env.start()
    try:
        group = env.api.group(-100999, "Team")
        lead = env.api.user(77, "Lea")
        await lead.send("/daily on 09:30 Asia/Shanghai", chat=group)
        await lead.wait_message(chat=group)
        await lead.send("/daily off", chat=group)
        await lead.wait_message(chat=group)
        await env.idle()
        rows = [(e.actor_id, e.chat_id, e.action, e.target) for e in reversed(await audit.recent(env.db))]
        assert rows == [(77, -100999, "daily_on", "09:30 Asia/Shanghai"),
                                            (77, -100999, "daily_off", "")]
    finally:
        await env.close()
