"""What the chat tells of a hiring paper after the fact, by the read rule when it is sent (issue 36,
D8 and the notices): a regrade card to a team no longer verified names no question, only the score's
change; a candidate whose paper's review is `score` hears their totals, never which question moved or
what it scored; a lead's or an admin's read of a hiring paper's keys (/review's reference answer,
/editq) is in the audit log."""

from __future__ import annotations

from proctor import hiring
from proctor.audit import AuditAction
from proctor.teams import audit
from tests.bot import test_regrade_hiring
from tests.bot.test_hiring_papers import REFERENCE, WRITTEN, lead_card, unverify
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, finish, make_invite, take
from tests.bot.test_regrade_hiring import save_key, take_with
from tests.reads import paper_id, question_ids
from tests.stored import shown_ref

# a hiring paper (invite-only, two attempts) Alpha's lead was verified for, and a practice paper
env = test_regrade_hiring.env


async def test_a_regrade_card_to_an_unverified_team_and_the_candidates_notice_name_no_question(env):
    lead, cid, admin = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(ADMIN, "Boss")
    payload, _ = await make_invite(env, lead, "hire")
    await take_with(env, cid, payload, "C")  # right by the key C: 2 points
    await lead_card(lead)
    await unverify(env)  # Alpha is no longer verified for the paper
    qid = (await question_ids(env.db, "hire", "single"))[0]
    await save_key(env, admin, qid, "A")  # the fix makes Cid's answer wrong
    card = await lead.wait_message(lambda m: (m.text or "").startswith("🔁"))
    assert card.text.startswith("🔁 A key was fixed: score 2 → 0.\n📋 Invite #1 finished"), card.text
    assert await shown_ref(env.db, qid) not in card.text and "单项选择题" not in card.text  # no question, no section
    told = await cid.wait_message(lambda m: "regraded" in (m.text or ""))
    assert told.text == "📝 A key on Demo paper hire was fixed and the answers regraded: your score there 2 → 0."


async def test_a_review_notice_of_a_paper_reviewed_by_score_tells_the_total_only(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire")
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    card = await lead_card(lead)
    await lead.press(card, "✍️ Review these answers")
    review = await lead.wait_message(lambda m: REFERENCE in (m.text or ""))
    await lead.press(review, "4")
    told = await cid.wait_message(lambda m: "reviewed" in (m.text or ""))
    assert told.text == "📝 Written answers on P2 “Demo paper hire” were reviewed. Attempt score: 4/15 — final."
    assert "4/5" not in told.text and "question" not in told.text.lower()
    # the reference answer the lead read is a hiring paper's key: written down
    [read] = await audit.recent(env.db, action=AuditAction.key_read)
    assert (read.actor_id, read.chat_id, read.target) == (LEAD, ALPHA, f"paper:{await paper_id(env.db, 'hire')}")


async def test_an_admins_editq_of_a_hiring_papers_question_is_audited(env):
    admin = env.api.user(ADMIN, "Boss")
    qid = (await question_ids(env.db, "hire", "single"))[0]
    await admin.send(f"/editq {qid}")
    ref = await shown_ref(env.db, qid)
    await admin.wait_message(lambda m: f"✏️ {ref} ·" in (m.text or ""))
    [read] = await audit.recent(env.db, action=AuditAction.key_read)
    assert (read.actor_id, read.target, read.detail) == (ADMIN, f"paper:{await paper_id(env.db, 'hire')}",
                                                         {"questions": [qid]})
    demo = (await question_ids(env.db, "demo", "single"))[0]  # a practice paper's key: nothing to write
    await admin.send(f"/editq {demo}")
    ref = await shown_ref(env.db, demo)
    await admin.wait_message(lambda m: f"✏️ {ref} ·" in (m.text or ""))
    assert len(await audit.recent(env.db, action=AuditAction.key_read)) == 1
    assert await hiring.listing(env.db)  # Alpha's verification stands: the rule, not a refusal, audits
