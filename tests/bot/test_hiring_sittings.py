"""An exam-only paper is a hiring paper (issue 36, D1): /exam on it sits as often as the paper's own
limit allows, one when it sets none, and its sittings through /exam and through invites share that one
count, checked in the transaction that starts the attempt; the lead's card says when the candidate sat
the paper through /exam before; "Review all" shows its candidate no key (the review option `score`)."""

from __future__ import annotations

import pytest

from bot.exam import callbacks as cb
from proctor import hiring
from proctor.exams.states import AttemptMode
from proctor.storage.db import Database
from proctor.teams.curation import update_settings
from tests.bot.test_hiring_papers import forge
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, finish, make_invite, say, take
from tests.harness import T0, BotEnv, start_exam
from tests.papers_fixture import small_paper
from tests.reads import attempts_of, paper_id

HIRE = "Demo paper hire"
KEY_TEXT = "梯度累积可模拟大批次"  # the first question's explanation


async def _env(tmp_path, db_location, **settings) -> BotEnv:
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=False)
    await e.seed(small_paper(), small_paper("hire"))
    db = await Database.open(e.db_path)
    await update_settings(db, "hire", actor=0, now=T0, exam_only=True, **settings)  # a hiring paper, in /exam
    await db.close()
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    await hiring.verify(e.db, ALPHA, [await paper_id(e.db, "hire")], actor=ADMIN, now=T0)
    return e


@pytest.fixture
async def env(tmp_path, db_location):
    e = await _env(tmp_path, db_location)
    yield e
    await e.close()


@pytest.fixture
async def twice(tmp_path, db_location):
    e = await _env(tmp_path, db_location, attempts_allowed=2)
    yield e
    await e.close()


async def _sit(env, user) -> None:
    """/exam → the hiring paper → Start → answer the first question → hand in."""
    screen = await start_exam(env, user, HIRE)
    await user.press(screen, "A")
    await env.idle()
    await finish(env, user)
    await user.wait_message(lambda m: "Score:" in (m.text or ""))


async def _rules_card(env, user):
    await user.send("/exam hire")
    return await user.wait_message(lambda m: HIRE in (m.text or ""))


async def test_an_exam_only_paper_without_a_limit_is_sat_once_and_its_review_shows_no_key(env):
    ann = env.api.user(7, "Ann")
    await _sit(env, ann)
    card = next(m for m in reversed(ann.chat()) if "Score:" in (m.text or ""))
    assert card.button_texts == []  # the review option `score`: no marks, no review buttons
    [done] = await attempts_of(env.db, 7)
    assert await forge(env, ann, card, cb.act(done.id, cb.Screen.review_all, 0, 1)) == \
        "This paper does not show answers and keys."
    assert not any(KEY_TEXT in (m.text or "") for m in ann.chat())
    # a second sitting: no Start on the rules card, and a Start typed by hand is refused
    again = await _rules_card(env, ann)
    assert "▶️ Start" not in again.button_texts
    assert "You have used your 1 attempt at this paper" in again.text
    pid = await paper_id(env.db, "hire")
    assert await forge(env, ann, again, cb.pick(pid, AttemptMode.exam, start=True)) == \
        f"You have used all your attempts at “{HIRE}”."
    assert len(await attempts_of(env.db, 7)) == 1


async def test_exam_and_invited_sittings_share_the_papers_count_and_the_lead_is_told(twice):
    env = twice
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    await _sit(env, cid)  # one sitting through /exam
    payload, _ = await make_invite(env, lead, "hire 2x")
    await take(env, cid, payload)
    await finish(env, cid)  # the second: the paper's two are used
    # the invite allows two, the paper two in all: the link says so when it is opened, with no Start to
    # press (the one count, as Start reads it in the attempt's transaction)
    welcome = await say(cid, f"/start {payload}", predicate=lambda m: "used" in (m.text or ""))
    assert welcome.text == "This invite has already been used." and "▶️ Start" not in welcome.button_texts
    assert "▶️ Start" not in (await _rules_card(env, cid)).button_texts  # nor through /exam
    assert len(await attempts_of(env.db, CID)) == 2
    # the lead's card says the candidate had sat the paper through /exam before
    card = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
    assert "🔂 Sat this paper through /exam before: 1 time." in card.text
