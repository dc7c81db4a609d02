"""Live quiz rounds in a team group, through the fake Bot API: /live, quiz polls, speed points,
standings, the podium, /live stop, one round at a time."""

from __future__ import annotations

import re

import pytest

from bank.kinds import MultiPolicy
from proctor.live import answers, rounds
from proctor.live.plan import COUNTDOWN, gap
from proctor.live.states import ItemStatus, RoundStatus
from tests.harness import BotEnv
from tests.live_support import GROUP, bot_texts, live_paper, multi_paper, polls, right_options, tick


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(1,), shuffle=False)
    await e.seed(live_paper("live", 8), live_paper("hire", 8, exam_only=True))
    await e.start()
    yield e
    await e.close()


async def start_round(env: BotEnv, args: str = ""):
    lead = env.api.user(1, "Lea")
    group = env.api.group(GROUP, "Team")
    group.add_members(11, 12, 13)  # the players: in the group (a vote from outside it is not scored)
    await lead.send(f"/live {args}".strip(), chat=group)
    countdown = await lead.wait_message(chat=group)
    await env.idle()  # the handler armed the round's job
    return lead, group, countdown


async def test_five_questions_three_players_podium_in_speed_order(env):
    lead, group, countdown = await start_round(env)
    assert "5 questions, 20 s each" in countdown.text
    ann, bob, cat = env.api.user(11, "Ann"), env.api.user(12, "Bob"), env.api.user(13, "Cat")
    await tick(env, COUNTDOWN)
    for n in range(5):
        poll = polls(env)[-1]
        assert re.match(rf"{n + 1}/5 · P\d+ · Q\d+\. live question", poll.poll["question"])  # place, reference
        assert poll.poll["open_period"] == 20 and poll.poll["is_anonymous"] is False
        assert "hire" not in poll.poll["question"]  # never a hiring paper's
        right = right_options(poll)
        for user, after in ((ann, 1), (bob, 4), (cat, 9)):  # Ann fastest, Cat slowest
            env.clock.advance(after - (0 if user is ann else (1 if user is bob else 4)))
            await user.answer_poll(poll, right)
            await env.idle()
        await tick(env, 20 - 9)  # the poll's time is over: standings
        assert standings(env).text.startswith(f"📊 After {n + 1} of 5 questions · 3 players")
        if n < 4:
            await tick(env, gap(20))  # the next poll
    assert len(polls(env)) == 5
    podium = bot_texts(env)[-1]
    assert podium.startswith("🏁 Live round over · 3 players")
    lines = [line for line in podium.splitlines() if line and line[0] in "🥇🥈🥉"]
    assert [line.split()[1] for line in lines] == ["Ann", "Bob", "Cat"]
    # Ann: 1 s of 20 -> 975 each, streak bonus 0+50+100+150+200
    assert "Ann — 5375" in podium
    # the standings message was sent once and edited after every later question
    standings_msgs = [m for m in env.api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith("📊")]
    assert len(standings_msgs) == 1 and standings_msgs[0].edits == 4
    assert standings_msgs[0].text.splitlines()[2:] == ["1. Ann — 5375", "2. Bob — 5000", "3. Cat — 4375"]
    r = await rounds.latest(env.db, GROUP)
    assert r is not None and r.status == RoundStatus.finished and r.podium_posted
    await bob.send("/live me", chat=group)
    mine = await bob.wait_message(chat=group)
    assert mine.text.startswith("Bob: #2 of 3 in the last round") and "5/5 right" in mine.text


async def test_a_wrong_answer_scores_nothing_and_breaks_the_streak(env):
    await start_round(env, "2q 10s")
    ann = env.api.user(11, "Ann")
    await tick(env, COUNTDOWN)
    poll = polls(env)[-1]
    wrong = [i for i in range(3) if i not in right_options(poll)][:1]
    await ann.answer_poll(poll, wrong)
    await env.idle()
    await tick(env, 10)
    assert "Ann — 0" in standings(env).text
    await tick(env, gap(10))
    await ann.answer_poll(polls(env)[-1], right_options(polls(env)[-1]))  # at once: 1000, no bonus
    await env.idle()
    await tick(env, 10)
    assert "Ann — 1000" in bot_texts(env)[-1]


def standings(env: BotEnv):
    return next(m for m in env.api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith("📊"))


@pytest.mark.parametrize(("policy", "points"), [(MultiPolicy.partial, 500), (MultiPolicy.all_or_nothing, 0)])
async def test_a_partly_right_multiple_answer_scores_by_the_papers_policy(tmp_path, policy, points):
    env = BotEnv(tmp_path, admins=(1,), shuffle=False)
    await env.seed(multi_paper("multi", policy))
    await env.start()
    try:
        await start_round(env, "multi 1q 10s")
        await tick(env, COUNTDOWN)
        poll = polls(env)[-1]
        assert poll.poll["allows_multiple_answers"] is True and right_options(poll) == [0, 2]
        ann = env.api.user(11, "Ann")
        await ann.answer_poll(poll, [0])  # one of the two right ones, at once
        await env.idle()
        stored = await answers.standings(env.db, 1, 5, me=11)
        assert stored.me is not None and stored.me.points == points
    finally:
        await env.close()


async def test_live_stop_ends_the_round_with_its_podium(env):
    lead, group, _ = await start_round(env, "5q 20s")
    ann = env.api.user(11, "Ann")
    await tick(env, COUNTDOWN)
    await ann.answer_poll(polls(env)[-1], right_options(polls(env)[-1]))
    await env.idle()
    await lead.send("/live stop", chat=group)
    await env.idle()
    podium = bot_texts(env)[-1]
    assert podium.startswith("🛑 Live round stopped · 1 player") and "🥇 Ann — 1000" in podium
    assert polls(env)[-1].poll["is_closed"] is True  # the open poll was stopped
    assert env.api.calls_to("stopPoll", GROUP)
    r, items = await rounds.load(env.db, 1)
    assert r.status == RoundStatus.stopped and all(i.status == ItemStatus.closed for i in items)
    await tick(env, 60)  # the job finds nothing more to do
    assert len(polls(env)) == 1
    await lead.send("/live stop", chat=group)
    assert (await lead.wait_message(chat=group)).text == "No live round is running here."


async def test_a_second_round_is_refused_while_one_runs(env):
    lead, group, _ = await start_round(env)
    await lead.send("/live 3q", chat=group)
    refusal = await lead.wait_message(chat=group)
    assert refusal.text.startswith("A live round is already running here")
    assert len(await env.db.fetchall("SELECT id FROM live_rounds")) == 1


async def test_only_leads_start_a_round_and_bad_arguments_are_named(env):
    group = env.api.group(GROUP, "Team")
    member = env.api.user(30, "Max")
    await member.send("/live", chat=group)
    assert "lead" in (await member.wait_message(chat=group)).text.lower()
    lead = env.api.user(1, "Lea")
    for arg in ("40q", "5s", "7x"):
        await lead.send(f"/live {arg}", chat=group)
        assert (await lead.wait_message(chat=group)).text.startswith(f"I can't read “{arg}”")
    await lead.send("/live nosuchthing", chat=group)
    assert (await lead.wait_message(chat=group)).text == "No paper or topic matches “nosuchthing”."
    await lead.send("/live", chat=lead.id)
    assert (await lead.wait_message()).text == "Live rounds are played in a team group."
    assert await env.db.fetchall("SELECT id FROM live_rounds") == []


async def test_a_new_round_never_repeats_the_groups_last_rounds(env):
    lead, group, _ = await start_round(env, "4q 10s")
    await lead.send("/live stop", chat=group)
    await env.idle()
    await lead.send("/live 4q 10s", chat=group)
    await env.idle()
    first = {r[0] for r in await env.db.fetchall("SELECT question_id FROM live_items WHERE round_id=1")}
    second = {r[0] for r in await env.db.fetchall("SELECT question_id FROM live_items WHERE round_id=2")}
    assert len(first) == 4 and len(second) == 4 and not first & second
    await lead.send("/live stop", chat=group)
    await env.idle()
    await lead.send("/live 4q", chat=group)  # 8 questions, all in the last two rounds
    assert (await lead.wait_message(chat=group)).text.startswith("No question left to ask here")
