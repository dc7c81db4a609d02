"""Nobody changes a key that changes their own score: an admin who answered a question wrong cannot
save its key with a regrade (/editq) or fix it (/keyfix); the edit is refused with one line and
nothing is written. Another configured admin can make the same change, and keeping past scores
(which changes nobody's score) stays open to the admin who answered."""

from __future__ import annotations

import pytest

from bank.paper_store import get_question
from tests.bot.test_authoring_editq import edit_paper, take
from tests.bot.test_regrade_hiring import save_key
from tests.harness import BotEnv
from tests.proctor.test_leads_data import Crafted
from tests.reads import audit_count, question_ids, the_attempt
from tests.stored import shown_ref

ALPHA, LEAD, BOSS, ANN = -100, 10, 20, 30
REFUSED = "Nobody changes a key that changes their own score"


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD, BOSS), shuffle=False)
    await e.seed(edit_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD, BOSS])
    yield e
    await e.close()


async def test_editq_refuses_to_raise_the_editors_own_score(env):
    lead, boss = env.api.user(LEAD, "Lea"), env.api.user(BOSS, "Boss")
    await take(env, lead, "B")  # wrong by the key C: 1 point (the true/false right)
    qid = (await question_ids(env.db, "edit", "single"))[0]
    card = await save_key(env, lead, qid, "B")
    assert REFUSED in card.text and f"you answered {await shown_ref(env.db, qid)}." in card.text
    assert (await get_question(env.db, qid)).answer == "C" and (await get_question(env.db, qid)).version == 1
    assert (await the_attempt(env.db, LEAD)).score == 1
    assert await audit_count(env.db, action="question_edit") == 0
    # another admin makes the same change: the lead's score follows
    card = await save_key(env, boss, qid, "B")
    assert "now at version 2" in card.text
    assert (await the_attempt(env.db, LEAD)).score == 3


async def test_editq_keeping_past_scores_is_open_to_the_admin_who_answered(env):
    lead = env.api.user(LEAD, "Lea")
    await take(env, lead, "B")
    qid = (await question_ids(env.db, "edit", "single"))[0]
    card = await save_key(env, lead, qid, "B", "💾 Save, keep past scores")
    assert "keep their scores" in card.text
    assert (await get_question(env.db, qid)).answer == "B" and (await the_attempt(env.db, LEAD)).score == 1


async def test_keyfix_refuses_to_change_the_fixers_own_score(env):
    lead, boss, ann = env.api.user(LEAD, "Lea"), env.api.user(BOSS, "Boss"), env.api.user(ANN, "Ann")
    await take(env, lead, "C")  # right by the key C: the fix to B would lower the lead's score
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(ANN,))
    await c.roster(ALPHA, ANN)
    env.in_group(ALPHA, (ANN, "Ann"))  # what getChatMember answers for her
    qid = (await question_ids(env.db, "edit", "single"))[0]
    await c.daily(ALPHA, "2027-01-15", [qid], [])  # the group's quiz asked it
    await ann.send(f"/dispute {qid} the key should be B")
    await ann.wait_message(lambda m: "dispute #1" in (m.text or ""))
    await lead.send("/bankstats", chat=ALPHA)  # the statistics and the key go to the lead's private chat
    stats = await lead.wait_message(lambda m: "Open disputes" in (m.text or ""))
    await (await lead.press(stats, "Uphold #1")).wait()
    await lead.wait_message(lambda m: "/keyfix 1" in (m.text or ""))
    await lead.send("/keyfix 1 B", chat=ALPHA)
    refusal = await lead.wait_message(lambda m: REFUSED in (m.text or ""), chat=ALPHA)
    assert f"you answered {await shown_ref(env.db, qid)}." in refusal.text
    assert (await get_question(env.db, qid)).answer == "C" and (await the_attempt(env.db, LEAD)).score == 3
    assert await audit_count(env.db, action="key_fix") == 0
    await boss.send("/keyfix 1 B", chat=ALPHA)
    await boss.wait_message(lambda m: "key version 2" in (m.text or ""), chat=ALPHA)
    assert (await the_attempt(env.db, LEAD)).score == 1
