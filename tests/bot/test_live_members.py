"""What a live round may post and who plays it, through the fake Bot API: no poll of a question sealed
for a known member of the group (at the draw, and again just before each poll), never a hiring paper's;
a vote counts only from the group's known members or from someone Telegram says is in the group (asked
once per voter and round), and a stranger's vote makes nobody a member; polls can't be forwarded."""

from __future__ import annotations

import pytest

from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.live import answers, rounds
from proctor.live.plan import COUNTDOWN, gap
from proctor.live.states import ItemStatus, RoundStatus
from tests.harness import BotEnv
from tests.live_support import GROUP, bot_texts, live_paper, polls, right_options, tick
from tests.reads import group_members, paper_of_question

LEA, ANN, BOB, SAM = 1, 11, 12, 13


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEA,), shuffle=False)
    await e.seed(live_paper("alpha", 4), live_paper("beta", 4), live_paper("hire", 4, exam_only=True))
    await e.start()
    yield e
    await e.close()


async def _paper_id(env: BotEnv, slug: str) -> int:
    return next(p.id for p in (await paper_of_question(env.db)).values() if p.slug == slug)


async def _known(env: BotEnv, user) -> None:
    """The user writes in the group (`/live me`): the bot knows them as a member from now on."""
    await user.send("/live me", chat=env.api.group(GROUP, "Team"))
    await user.wait_message(chat=GROUP)
    await env.idle()


async def _sit(env: BotEnv, user_id: int, slug: str) -> None:
    await attempts.start_attempt(env.db, user_id=user_id, chat_id=user_id, paper_id=await _paper_id(env, slug),
                                 mode=AttemptMode.exam, now=env.clock.now(), shuffle=False)


async def _papers_drawn(env: BotEnv, round_id: int) -> set[str]:
    _, items = await rounds.load(env.db, round_id)
    papers = await paper_of_question(env.db)
    return {papers[i.question_id].slug for i in items}


async def test_a_round_leaves_out_the_papers_a_known_member_or_the_lead_is_sitting(env):
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    ann = env.api.user(ANN, "Ann")
    await _known(env, ann)
    await _sit(env, ANN, "alpha")  # Ann, known in the group, begins an exam on the paper "alpha"
    await lead.send("/live alpha", chat=group)
    assert (await lead.wait_message(chat=group)).text.startswith("No question left to ask here")
    await lead.send("/live 12q 10s", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    assert await _papers_drawn(env, 1) == {"beta"}  # never "alpha", never the hiring paper
    await lead.send("/live stop", chat=group)
    await env.idle()
    # the lead sits "beta" now: their own round leaves it out too (Ann still sits "alpha")
    await _sit(env, LEA, "beta")
    await lead.send("/live 3q", chat=group)
    assert (await lead.wait_message(chat=group)).text.startswith("No question left to ask here")
    assert (await rounds.latest(env.db, GROUP)).id == 1  # the refused one was never started


async def test_a_question_sealed_after_the_draw_is_skipped_before_its_poll(env):
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    ann = env.api.user(ANN, "Ann")
    await _known(env, ann)
    await lead.send("/live alpha 3q 10s", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    await tick(env, COUNTDOWN)
    assert len(polls(env)) == 1
    await _sit(env, ANN, "alpha")  # while the first poll is open
    await tick(env, 10)  # the first poll closes: standings
    for _ in range(2):  # each later question: its turn comes, it is sealed now, it is closed unasked
        await tick(env, gap(10))
    assert len(polls(env)) == 1
    r, items = await rounds.load(env.db, 1)
    assert r.status == RoundStatus.finished and r.podium_posted
    assert [(i.status, i.poll_id is None) for i in items] == [(ItemStatus.closed, False),
                                                             (ItemStatus.closed, True), (ItemStatus.closed, True)]
    assert bot_texts(env)[-1].startswith("🏁 Live round over")


async def test_only_the_groups_members_score_and_a_stranger_is_asked_about_once_per_round(env):
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    ann, bob, sam = env.api.user(ANN, "Ann"), env.api.user(BOB, "Bob"), env.api.user(SAM, "Sam")
    await _known(env, bob)  # Bob wrote in the group
    group.add_members(ANN)  # Ann is in the group (Telegram says so) but never wrote there; Sam is not in it
    await lead.send("/live alpha 2q 10s", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    await tick(env, COUNTDOWN)
    for n in range(2):
        poll = polls(env)[-1]
        for user in (ann, bob, sam):
            await user.answer_poll(poll, right_options(poll))
        await env.idle()
        await tick(env, 10)
        if n == 0:
            await tick(env, gap(10))
    board = await answers.standings(env.db, 1, 5)
    assert sorted(s.user_id for s in board.top) == [ANN, BOB] and board.players == 2
    members = await group_members(env.db, GROUP)
    assert SAM not in members and {ANN, BOB} <= members  # Ann confirmed by Telegram: a member now
    asked = [c["user_id"] for c in env.api.calls_to("getChatMember", GROUP)]
    assert asked.count(SAM) == 1 and asked.count(ANN) == 1 and BOB not in asked
    podium = bot_texts(env)[-1]
    assert "Sam" not in podium and "2 players" in podium


async def test_live_polls_are_protected_from_forwarding(env):
    lead, group = env.api.user(LEA, "Lea"), env.api.group(GROUP, "Team")
    await lead.send("/live alpha 1q 10s", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    await tick(env, COUNTDOWN)
    [poll] = polls(env)
    assert poll.protect_content
    assert [c.get("protect_content") for c in env.api.calls_to("sendPoll", GROUP)] == [True]
