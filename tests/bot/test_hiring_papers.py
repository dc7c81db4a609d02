"""Hiring papers through the fake Bot API (issue 21, item 2): a self-made group's lead neither invites
to a hiring paper nor reads its keys (the review button, /review, the card's sections, /report
invites), an invite allows at most the paper's own attempts, and everything works for the teams a
configured admin verified, and for every team on practice papers."""

from __future__ import annotations

import csv
import io

import pytest

from proctor import hiring
from proctor.exams import service as attempts
from proctor.exams.states import AttemptStatus
from proctor.invites.listing import listing
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import update_settings
from tests.bot.test_invites import (
    ADMIN,
    ALPHA,
    BETA,
    CID,
    DAN,
    LEAD,
    LEAD_B,
    finish,
    make_invite,
    open_link,
    say,
    take,
)
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper
from tests.reads import attempts_of, invites_stored, paper_id, the_attempt

REFERENCE = "不立即更新模型参数"  # a piece of the written question's reference answer
WRITTEN = "梯度累积是把梯度累加后再更新参数。"
NOT_VERIFIED = ("🔒 “Demo paper hire” is a hiring paper: only configured admins and the teams they verified can "
                f"invite to it or see its answers. A configured admin can verify this team with "
                f"`proctor team verify --papers P2 {ALPHA}` or on the desk's Hiring page.")


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper(), small_paper("hire"))
    db = await Database.open(e.db_path)
    await update_settings(db, "hire", actor=0, now=T0, invite_only=True)
    await db.close()
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


async def verify(env, chat=ALPHA, slug="hire") -> None:
    assert await hiring.verify(env.db, chat, [await paper_id(env.db, slug)], actor=ADMIN, now=env.clock.now())


async def unverify(env, chat=ALPHA) -> None:
    assert await hiring.unverify(env.db, chat, None, actor=ADMIN, now=env.clock.now())


async def forge(env, user, message, data: str) -> str:
    """A press of a button `user` was never shown (callback data typed by hand); returns the toast."""
    record = env.api.state.new_callback(user.info.id, message, data)
    env.api.inject_update({"callback_query": {"id": record.id, "from": user.info.to_api(),
                                              "message": env.api.state.message_to_api(message),
                                              "chat_instance": "1", "data": data}})
    await env.api.wait_for(lambda: record.answered)
    return record.text


async def lead_card(lead, invite_id: int = 1):
    return await lead.wait_message(lambda m: (m.text or "").startswith(f"📋 Invite #{invite_id} finished"))


async def a_sat_invite_of_an_unverified_team(env):
    """Alpha, once verified, invited Cid, then the admin undid the verification; Cid sat the paper
    with a written answer. Returns the lead, Cid and the lead's result card."""
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    await verify(env)
    payload, _ = await make_invite(env, lead, "hire")
    await unverify(env)
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    return lead, cid, await lead_card(lead)


def nowhere(env, user, text: str) -> bool:
    """Nothing the user can read, privately or in the team's group, holds `text`."""
    seen = user.chat() + env.api.chat_view(ALPHA)
    return all(text not in (m.text or "") + (m.caption or "") for m in seen)


async def test_an_unverified_group_cannot_invite_to_a_hiring_paper_and_is_told_who_can_verify(env):
    lead = env.api.user(LEAD, "Lea")
    assert (await say(lead, "/invite hire", chat=ALPHA)).text == NOT_VERIFIED
    assert await invites_stored(env.db) == [] and await audit.recent(env.db, action="invite_create") == []
    # an exam-only paper is a hiring paper too; a practice paper is not
    await make_invite(env, lead, "demo")
    await env.idle()
    await update_settings(env.db, "demo", actor=ADMIN, now=T0, exam_only=True)
    assert (await say(lead, "/invite demo", chat=ALPHA)).text.startswith("🔒 “Demo paper demo” is a hiring paper")
    assert len(await invites_stored(env.db)) == 1
    # verified for one paper is not verified for the others
    await verify(env)
    await make_invite(env, lead, "hire")
    await env.idle()
    assert (await say(lead, "/invite demo", chat=ALPHA)).text.startswith("🔒 “Demo paper demo”")
    # Beta is not verified because Alpha is
    lead_b = env.api.user(LEAD_B, "Bea")
    assert (await say(lead_b, "/invite hire", chat=BETA)).text.startswith("🔒 “Demo paper hire”")
    # a configured admin invites to any paper, for any team
    await make_invite(env, env.api.user(ADMIN, "Ada"), "hire", chat=BETA)
    assert [(i.team_chat_id, i.created_by) for i in await invites_stored(env.db)] == [
        (ALPHA, LEAD), (ALPHA, LEAD), (BETA, ADMIN)]


async def test_the_review_button_of_an_unverified_team_shows_no_answer_and_no_key(env):
    lead, _, card = await a_sat_invite_of_an_unverified_team(env)
    assert card.button_texts == []  # no review button on the card ...
    aid = (await the_attempt(env.db, CID)).id
    toast = await forge(env, lead, card, f"i:w:{aid}")  # ... and the button typed by hand says why
    assert toast == "🔒 “Demo paper hire” is a hiring paper: its answers are for configured admins and the teams they verified."
    await env.idle()
    assert nowhere(env, lead, REFERENCE) and nowhere(env, lead, WRITTEN)
    # nor does a final score typed by hand count (the written answer is at the last asked position)
    sheet = await attempts.load_sheet(env.db, aid, positions="all")
    [pos] = [p for p, a in sheet.answers.items() if not a.final]
    toast = await forge(env, lead, card, f"l:v:{aid}:{pos}:10:{ALPHA}")
    assert toast == "Only a lead of this team can use this button."
    assert not (await attempts.load_sheet(env.db, aid, positions="all")).answers[pos].final
    # the configured admin reviews it from the same button
    admin = env.api.user(ADMIN, "Ada")
    await forge(env, admin, card, f"i:w:{aid}")
    review = await admin.wait_message(lambda m: REFERENCE in (m.text or ""))
    assert WRITTEN in review.text


async def test_review_in_an_unverified_group_lists_no_hiring_answer(env):
    lead, _, _ = await a_sat_invite_of_an_unverified_team(env)
    reply = await say(lead, "/review", chat=ALPHA)
    assert reply.text == ("Nothing awaits review. 🎉\n🔒 Written answers on “Demo paper hire” wait for a configured "
                          "admin: this team is not verified for that hiring paper.")
    await env.idle()
    assert nowhere(env, lead, REFERENCE) and nowhere(env, lead, WRITTEN)
    # verified again: the same /review brings the answer and its reference
    await verify(env)
    before = len(lead.chat())
    await lead.send("/review", chat=ALPHA)
    review = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if REFERENCE in (m.text or "")),
                                                  None), what="the review card")
    assert WRITTEN in review.text


async def test_the_result_card_and_the_report_show_sections_only_to_verified_teams(env):
    lead, _, card = await a_sat_invite_of_an_unverified_team(env)
    # the total, never the sections: which section's score moved between sittings would tell a key
    assert card.text.startswith("📋 Invite #1 finished · Cid\nDemo paper hire\nScore: ")
    assert "单项选择题" not in card.text and "await" not in card.text
    assert "🔒 A hiring paper: its sections and written answers are for configured admins" in card.text
    before = len(lead.chat())
    await lead.send("/report invites", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.document), None))
    [row] = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
    assert row["score"] and row["sections"] == ""
    # verified, the same team reads them (the report now, the next card too)
    await verify(env)
    before = len(lead.chat())
    await lead.send("/report invites", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.document), None))
    [row] = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
    assert row["sections"].startswith("单项选择题 ")


async def test_a_verified_team_gets_the_sections_and_reviews_its_candidates(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    await verify(env)
    payload, _ = await make_invite(env, lead, "hire")
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    card = await lead_card(lead)
    assert "• Single choice: " in card.text and card.button_texts == ["✍️ Review these answers"]
    await lead.press(card, "✍️ Review these answers")
    review = await lead.wait_message(lambda m: REFERENCE in (m.text or ""))
    assert WRITTEN in review.text


async def test_an_unverified_team_keeps_everything_on_practice_papers(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "demo 2x")
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    card = await lead_card(lead)
    assert "• Single choice: " in card.text and card.button_texts == ["✍️ Review these answers"]
    await lead.press(card, "✍️ Review these answers")
    assert WRITTEN in (await lead.wait_message(lambda m: REFERENCE in (m.text or ""))).text
    await take(env, cid, payload)  # the second of two attempts: a practice paper sets no bound
    await finish(env, cid)
    assert [a.status for a in await attempts_of(env.db)] == [AttemptStatus.finished] * 2


async def test_an_invite_allows_at_most_the_hiring_papers_own_attempts(env):
    lead, cid, dan = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(DAN, "Dan")
    await verify(env)
    # the paper sets no limit: one sitting per invite, whoever asks for twenty
    assert (await say(lead, "/invite hire 20x", chat=ALPHA)).text == (
        "“Demo paper hire” is a hiring paper: at most 1 attempt per invite (the paper's own limit).")
    admin = env.api.user(ADMIN, "Ada")
    assert (await say(admin, "/invite hire 2x")).text.startswith("“Demo paper hire” is a hiring paper: at most 1 ")
    assert await invites_stored(env.db) == []
    await update_settings(env.db, "hire", actor=ADMIN, now=T0, attempts_allowed=2)
    assert (await say(lead, "/invite hire 3x", chat=ALPHA)).text == (
        "“Demo paper hire” is a hiring paper: at most 2 attempts per invite (the paper's own limit).")
    payload, _ = await make_invite(env, lead, "hire 2x")
    for _ in range(2):
        await take(env, cid, payload)
        await finish(env, cid)
    assert (await open_link(cid, payload)).text == "This invite has already been used."
    # the paper's limit lowered later binds the invites already made
    other, _ = await make_invite(env, lead, "hire 2x")
    await update_settings(env.db, "hire", actor=ADMIN, now=T0, attempts_allowed=1)
    await take(env, dan, other)
    await finish(env, dan)
    assert (await open_link(dan, other)).text == "This invite has already been used."
    assert [i.attempts_used for i in await invites_stored(env.db)] == [2, 1]


async def test_verification_is_audited_and_undone(env):
    hire = await paper_id(env.db, "hire")
    assert await hiring.verify(env.db, ALPHA, [hire], actor=ADMIN, now=T0) == 1
    assert await hiring.verify(env.db, ALPHA, [hire], actor=ADMIN, now=T0) == 0  # again: no change
    assert await hiring.verify(env.db, BETA, None, actor=ADMIN, now=T0) == 1
    assert [(v.chat_id, v.paper, v.verified_by) for v in await hiring.listing(env.db)] == [
        (BETA, "", ADMIN), (ALPHA, "hire", ADMIN)]
    assert await hiring.unverify(env.db, BETA, [hire], actor=ADMIN, now=T0) == 0  # Beta keeps "every paper"
    assert await hiring.unverify(env.db, BETA, [], actor=ADMIN, now=T0) == 0
    assert await hiring.unverify(env.db, ALPHA, None, actor=ADMIN, now=T0) == 1
    assert [(v.chat_id, v.paper) for v in await hiring.listing(env.db)] == [(BETA, "")]
    entries = [e for e in await audit.recent(env.db, limit=10) if e.action.startswith("team_")]
    assert [(e.action, e.chat_id, e.target, e.detail) for e in reversed(entries)] == [
        ("team_verify", ALPHA, f"team:{ALPHA}", {"papers": [hire]}),
        ("team_verify", BETA, f"team:{BETA}", {"papers": "all"}),
        ("team_unverify", ALPHA, f"team:{ALPHA}", {"papers": "all"})]
    with pytest.raises(hiring.BadTeam):
        await hiring.verify(env.db, LEAD, None, actor=ADMIN, now=T0)  # a user is no team
    assert await listing(env.db, None, T0) == []
