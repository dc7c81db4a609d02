"""Hiring invites through the fake Bot API, as a lead and candidates use them: /invite, the deep link,
Start inside the window with extra time, the lead's result card, no public board, one line for every
bad link, roles, invite-only papers and the paper's review options on the candidate's card."""

from __future__ import annotations

import csv
import io
import re

import pytest

from bot import pacing
from proctor import hiring
from proctor.exams.states import AttemptStatus, FinishReason
from proctor.invites.links import hash_token
from proctor.invites.listing import of_attempt
from proctor.invites.states import InviteStatus
from proctor.people.forget import forget_user
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import update_settings
from sandbox.fakeapi.methods.errors import ApiError
from tests.harness import T0, BotEnv, attempt_message, fire_deadline
from tests.papers_fixture import small_paper
from tests.reads import attempts_of, invites_stored, paper_id, the_attempt, the_invite

ALPHA, BETA = -100, -200
ADMIN, LEAD, LEAD_B, CID, DAN, EVE = 1, 10, 20, 50, 60, 70
HIRE = "Demo paper hire"
REFUSAL = ("Only team leads can do that. Team leads are the group's administrators and the bot's "
           "configured admins; group administrators use lead commands in their team group.")
LINK = re.compile(r"https://t\.me/proctor_bot\?start=(inv_[A-Za-z0-9_-]+)")


async def _env(tmp_path, db_location, **settings) -> BotEnv:
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper(), small_paper("hire"))
    db = await Database.open(e.db_path)
    await update_settings(db, "hire", actor=0, now=T0, invite_only=True, **settings)
    await db.close()
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    # a configured admin verified Alpha for the hiring paper (tests/bot/test_hiring_papers.py: the others)
    await hiring.verify(e.db, ALPHA, [await paper_id(e.db, "hire")], actor=ADMIN, now=T0)
    return e


@pytest.fixture
async def env(tmp_path, db_location):
    e = await _env(tmp_path, db_location)
    yield e
    await e.close()


async def say(user, text, chat=None, predicate=None):
    await user.send(text, chat=chat)
    return await user.wait_message(predicate, chat=chat)


async def make_invite(env, lead, args: str, chat=ALPHA) -> tuple[str, object]:
    """/invite in the team group; returns the payload and the link card the lead got privately."""
    before = len(lead.chat())
    await lead.send(f"/invite {args}", chat=chat)
    card = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.photo is not None), None),
                                  what="the link card")
    return LINK.search(card.caption).group(1), card


async def invite_list(env, lead, chat=ALPHA):
    """/invites in the group: the list arrives privately."""
    before = len(lead.chat())
    await lead.send("/invites", chat=chat)
    return await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if "nvites" in (m.text or "")),
                                               None), what="the invite list")


async def open_link(user, payload: str):
    return await say(user, f"/start {payload}")


async def finish(env, user) -> None:
    confirm = next((m for m in reversed(user.chat()) if "Yes, finish" in m.button_texts and not m.deleted), None)
    if confirm is None:
        await user.press(attempt_message(user.chat()), "Finish")
        confirm = await user.wait_message(lambda m: "Yes, finish" in m.button_texts)
    await user.press(confirm, "Yes, finish")
    await env.idle()


async def take(env, user, payload: str, *, written: str | None = None) -> None:
    """Open the link, Start, answer the first question (and the written one), hand in."""
    # the welcome card: not whatever comes next (an earlier sitting's result card goes out through
    # the outbox job and may arrive after the /start)
    welcome = await say(user, f"/start {payload}", predicate=lambda m: "▶️ Start" in m.button_texts)
    await user.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")
    await user.press(screen, "A")
    await env.idle()
    if written is not None:
        while "简述" not in attempt_message(user.chat()).text:
            await user.press(attempt_message(user.chat()), "Skip ▶")
            await env.idle()
        await user.send(written)
        await env.idle()


async def test_a_card_for_a_named_user_says_only_who_it_is_for(env):
    """Issue 22: the card said `指定 @bob` and also that the first person to open the link claims it."""
    lead = env.api.user(LEAD, "Lea")
    await say(lead, "/invite hire 48h @cid", chat=ALPHA)
    card = await lead.wait_message(lambda m: m.photo is not None)
    assert card.caption.endswith("UTC.\nFor @cid only.") and "first person" not in card.caption, card.caption
    await say(lead, "/invite hire 48h", chat=ALPHA)
    anyone = await lead.wait_message(lambda m: m.photo is not None and m.message_id != card.message_id)
    assert anyone.caption.endswith("UTC.\nThe first person to open the link claims it; send it to your candidate only.")


async def test_lead_invites_candidate_takes_it_lead_gets_the_card_and_no_public_board_shows_it(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid", username="cid")
    dan = env.api.user(DAN, "Dan")
    sent = await say(lead, "/invite hire 48h +15m notify", chat=ALPHA)
    assert sent.text == "📬 Sent to you in a private chat."
    card = await lead.wait_message(lambda m: m.photo is not None)
    assert card.photo.data[:8] == b"\x89PNG\r\n\x1a\n"  # the QR code
    payload = LINK.search(card.caption).group(1)
    assert len(payload) <= 64 and re.fullmatch(r"[A-Za-z0-9_-]+", payload)
    assert "Open until 2027-01-17 08:00 UTC · +15 min extra time" in card.caption
    assert "🚫 Revoke" in card.button_texts
    # the token is stored only as a hash
    token = payload.removeprefix("inv_")
    # the schema itself: the token's column holds its hash, and no column the token
    assert await env.db.scalar("SELECT token_hash FROM invites") == hash_token(token)
    assert len(await audit.recent(env.db, action="invite_create")) == 1

    welcome = await open_link(cid, payload)
    assert welcome.text.startswith("👋 Alpha invites you to sit a paper.\n\n📝 Demo paper hire\n")
    assert "60 min · +15 min extra time" in welcome.text and "Start before 2027-01-17 08:00 UTC" in welcome.text
    assert welcome.button_texts == ["▶️ Start"]
    assert (await the_invite(env.db)).status == InviteStatus.claimed
    # a second user learns nothing about the paper
    foreign = await open_link(dan, payload)
    assert foreign.text == "This invite belongs to someone else."
    # Start: the attempt has the paper's time plus the extra time
    await cid.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    assert "75:00 left" in screen.text
    attempt = await the_attempt(env.db, CID)
    assert (await of_attempt(env.db, attempt.id)) is not None
    assert attempt.deadline == T0 + 75 * 60
    # past the paper's own 60 minutes, the extra time still runs
    env.clock.advance(70 * 60)
    fire_deadline(env, attempt.id)  # due at 75, not 60: it waits
    await cid.press(screen, "A")
    await env.idle()
    assert (await the_attempt(env.db)).status == AttemptStatus.running
    while "简述" not in attempt_message(cid.chat()).text:
        await cid.press(attempt_message(cid.chat()), "Skip ▶")
        await env.idle()
    await cid.send("梯度累积是把梯度累加后再更新参数。")
    await env.idle()
    await finish(env, cid)

    # the candidate's card: invite-only papers show the total only
    mine = await cid.wait_message(lambda m: "— result" in (m.text or ""))
    assert "Score: " in mine.text and "• " not in mine.text and mine.button_texts == []
    # the lead's card: candidate, paper, sections, time, written answers to review
    result = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
    assert result.text.startswith("📋 Invite #1 finished · Cid\nDemo paper hire\nScore: ")
    assert "Time used: 70:00" in result.text and "• Single choice: " in result.text
    assert "✍️ 1 written answer awaits review." in result.text  # one, not "1 answers"
    await lead.press(result, "✍️ Review these answers")
    review = await lead.wait_message(lambda m: "简述梯度累积" in (m.text or ""))
    assert "梯度累积是把梯度累加后再更新参数" in review.text
    note = await env.api.wait_for(lambda: env.api.last_message(ALPHA), what="team note")
    assert note.text == "📋 An invited candidate finished Demo paper hire."  # who and how: the lead's card only
    assert (await the_invite(env.db)).status == InviteStatus.finished

    # on no board in a chat: the candidate's own view, another team's, and the inviting team's group
    # (whoever reads it there): an invited candidate is for the inviting team's leads (/invites, the desk)
    assert (await say(cid, "/leaderboard paper hire")).text.endswith("No finished exams on this paper yet.")
    lead_b = env.api.user(LEAD_B, "Bea")
    beta = await say(lead_b, "/leaderboard paper hire", chat=BETA)
    assert "Cid" not in beta.text
    await lead.send("/leaderboard paper hire", chat=ALPHA)
    await env.idle()
    alpha = await lead.wait_message(chat=ALPHA)
    assert "Cid" not in alpha.text
    assert "hire" not in (await say(cid, "/mystats")).text
    # the used link says so in one line
    assert (await open_link(cid, payload)).text == "This invite has already been used."
    # /invites: the row with status, candidate and score
    listing = await invite_list(env, lead)
    assert re.search(r"#1 🟢 finished · P\d+ Demo paper hire · Cid · [0-9.]+/15 · until ", listing.text)


async def test_window_enforced_and_a_started_attempt_keeps_its_full_time(env):
    lead, cid, dan = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(DAN, "Dan")
    late, _ = await make_invite(env, lead, "hire 1h")
    welcome = await open_link(cid, late)
    env.clock.advance(61 * 60)  # the window closed before Start
    toast = await cid.press(welcome, "▶️ Start")
    assert await toast.wait() == "This invite has expired."
    assert await attempts_of(env.db) == []  # nothing half-created
    assert (await open_link(cid, late)).text == "This invite has expired."
    unopened, _ = await make_invite(env, lead, "hire 2h")
    env.clock.advance(3 * 3600)
    assert (await open_link(dan, unopened)).text == "This invite has expired."
    # started a minute before the window closes: the attempt keeps its full 60 minutes
    inside, _ = await make_invite(env, lead, "hire 1h")
    welcome = await open_link(dan, inside)
    env.clock.advance(59 * 60)
    await dan.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(dan.chat()), what="attempt message")
    assert "60:00 left" in screen.text
    env.clock.advance(30 * 60)  # the window is long closed; the attempt runs on
    await dan.press(screen, "A")
    await env.idle()
    assert (await the_attempt(env.db, DAN)).status == AttemptStatus.running
    env.clock.advance(31 * 60)  # past the deadline: handed in by its job, the lead gets the card
    fire_deadline(env, (await the_attempt(env.db, DAN)).id)
    await lead.wait_message(lambda m: "handed in at the deadline" in (m.text or ""))
    assert (await the_attempt(env.db, DAN)).finish_reason == FinishReason.timeout


async def test_revoked_bad_and_guessed_links_get_one_line(env):
    lead, cid, eve = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(EVE, "Eve")
    payload, card = await make_invite(env, lead, "hire")
    toast = await lead.press(card, "🚫 Revoke")
    assert await toast.wait() == "🚫 Invite #1 is revoked; its link no longer works."
    assert (await open_link(cid, payload)).text == "This invite was withdrawn by the team."
    assert len(await audit.recent(env.db, action="invite_revoke")) == 1
    assert (await open_link(cid, "inv_short")).text == "This invite link is not valid."
    # guessing is rate-limited per user
    for _ in range(5):
        assert (await open_link(eve, "inv_" + "A" * 22)).text == "This invite link is not valid."
    assert (await open_link(eve, "inv_" + "B" * 22)).text == "Too many invalid links. Please try again later."
    good, _ = await make_invite(env, lead, "hire")
    assert (await open_link(eve, good)).text == "Too many invalid links. Please try again later."
    env.clock.advance(601)
    assert (await open_link(eve, good)).text.startswith("👋 Alpha invites you")


async def test_resend_gives_a_new_link_and_the_old_one_stops_working(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    old, _ = await make_invite(env, lead, "hire")
    listing = await invite_list(env, lead)
    assert re.search("#1 ⚪ open · P\\d+ Demo paper hire · nobody yet", listing.text)  # its code: what /invite takes
    before = len(lead.chat())
    await lead.press(listing, "#1 🔁 Resend")
    fresh = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.photo), None))
    new = LINK.search(fresh.caption).group(1)
    assert new != old
    assert (await open_link(cid, old)).text == "This invite link is not valid."
    assert (await open_link(cid, new)).text.startswith("👋 Alpha invites you")
    assert len(await audit.recent(env.db, action="invite_resend")) == 1


async def test_a_bad_request_is_told_in_the_groups_language(env):
    """The domain names what an /invite got wrong (proctor.invites.request.Problem); the bot says it in
    the language of the group it answers in (bot/voice.py), the words at fault quoted; the lead's own
    language is not the group's."""
    lead = env.api.user(LEAD, "Lea")
    assert (await say(lead, "/invite hire 48h +99d", chat=ALPHA)).text == (
        "I couldn't read that: extra time is at most 24 hours. See /invite for the usage.")
    await say(lead, "/lang zh")
    assert (await say(lead, "/invite hire 0h", chat=ALPHA)).text.startswith("I couldn't read that: “0h”")
    await say(lead, "/lang zh", chat=ALPHA)
    assert (await say(lead, "/invite hire 0h", chat=ALPHA)).text == "无法识别：“0h”不是 90m、48h 或 3d 这样的时长。用法见 /invite。"
    assert (await say(lead, "/invite hire 61d", chat=ALPHA)).text == "无法识别：有效期最长 60 天。用法见 /invite。"
    assert (await say(lead, "/invite hire 21x", chat=ALPHA)).text == "无法识别：作答次数为 1x 至 20x。用法见 /invite。"
    assert await invites_stored(env.db) == []


async def test_roles_and_bad_requests(env):
    lead, lead_b, cid = env.api.user(LEAD, "Lea"), env.api.user(LEAD_B, "Bea"), env.api.user(CID, "Cid")
    assert (await say(cid, "/invite hire")).text == REFUSAL
    assert (await say(cid, "/invites", chat=ALPHA)).text == REFUSAL
    assert (await say(lead, "/invite hire")).text == REFUSAL  # a group admin leads in their group only
    assert (await say(lead, "/invite nosuch", chat=ALPHA)).text.startswith("No single paper matches “nosuch”")
    assert (await say(lead, "/invite hire 0h", chat=ALPHA)).text.startswith("I couldn't read that:")
    assert (await say(lead, "/invite hire 48h +99d", chat=ALPHA)).text.startswith("I couldn't read that:")
    assert await invites_stored(env.db) == []
    _, card = await make_invite(env, lead, "hire")
    # Beta's lead can neither revoke Alpha's invite nor see it in their list
    record = env.api.state.new_callback(LEAD_B, card, "i:v:1")
    env.api.inject_update({"callback_query": {"id": record.id, "from": lead_b.info.to_api(),
                                              "message": env.api.state.message_to_api(card),
                                              "chat_instance": "1", "data": "i:v:1"}})
    await env.api.wait_for(lambda: record.answered)
    assert record.text == "Only a lead of this team can use this button."
    assert (await the_invite(env.db)).status == InviteStatus.open
    beta = await invite_list(env, lead_b, chat=BETA)
    assert beta.text == "No invites yet. Make one with /invite <paper>."
    # a configured admin sees every team's
    admin = env.api.user(ADMIN, "Ada")
    assert "#1 ⚪ open" in (await say(admin, "/invites", predicate=lambda m: "nvites" in (m.text or ""))).text


async def test_invite_only_paper_is_offered_nowhere(env):
    cid = env.api.user(CID, "Cid")
    assert HIRE not in (await say(cid, "/papers")).text
    chooser = await say(cid, "/exam")
    assert HIRE not in chooser.button_texts
    assert "by invitation only" in (await say(cid, f"/practice {HIRE}")).text
    hire_id = await paper_id(env.db, "hire")
    for data in (f"x:p:{hire_id}:e", f"x:go:{hire_id}:e", f"x:go:{hire_id}:p"):
        record = env.api.state.new_callback(CID, chooser, data)
        env.api.inject_update({"callback_query": {"id": record.id, "from": cid.info.to_api(),
                                                  "message": env.api.state.message_to_api(chooser),
                                                  "chat_instance": "1", "data": data}})
        await env.api.wait_for(lambda r=record: r.answered)
        assert record.text == "This paper is opened by an invite link only."
    assert await attempts_of(env.db) == []


@pytest.mark.parametrize("review", ["none", "sections", "full"])
async def test_review_options_govern_the_candidates_card(tmp_path, db_location, review):
    env = await _env(tmp_path, db_location, review=review)
    try:
        lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
        payload, _ = await make_invite(env, lead, "hire")
        await take(env, cid, payload)
        await finish(env, cid)
        card = await cid.wait_message(lambda m: "— result" in (m.text or ""))
        if review == "none":
            assert card.text == "🏁 Demo paper hire — result\n📨 Your answers were sent to the team."
        elif review == "sections":
            assert "• Single choice: " in card.text and card.button_texts == []
        else:
            assert card.button_texts == ["🔍 Review all answers", "Review wrong answers"]
            await cid.press(card, "Review wrong answers")
            await cid.wait_message(lambda m: "Answer: " in (m.text or ""))
        if review != "full":  # a forged review button is refused too
            aid = (await the_attempt(env.db)).id
            record = env.api.state.new_callback(CID, card, f"x:{aid}:r:0")
            env.api.inject_update({"callback_query": {"id": record.id, "from": cid.info.to_api(),
                                                      "message": env.api.state.message_to_api(card),
                                                      "chat_instance": "1", "data": f"x:{aid}:r:0"}})
            await env.api.wait_for(lambda: record.answered)
            assert record.text == "This paper does not show answers and keys."
        # the lead's card always has the sections
        lead_card = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1"))
        assert "• Single choice: " in lead_card.text
    finally:
        await env.close()


async def test_report_invites_is_the_hiring_view_one_row_per_invite_and_safe_for_spreadsheets(env):
    lead = env.api.user(LEAD, "Lea")
    mallory = env.api.user(EVE, "=HYPERLINK(\"http://x\")")
    taken, _ = await make_invite(env, lead, "hire +10m")
    await make_invite(env, lead, "hire 1h")
    await take(env, mallory, taken)
    await finish(env, mallory)
    await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1"))
    env.clock.advance(2 * 3600)
    before = len(lead.chat())
    await lead.send("/report invites", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.document), None))
    assert doc.caption == "🔗 Invites · Alpha: 2 rows"
    rows = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
    assert [(r["invite"], r["status"]) for r in rows] == [("2", "expired"), ("1", "finished")]
    done = rows[1]
    assert done["candidate"] == "'=HYPERLINK(\"http://x\")"  # never a formula
    assert done["extra_min"] == "10" and done["max_score"] == "15" and done["started_at"]
    assert done["sections"].startswith("单项选择题 ")
    # another team's lead gets only their own (none)
    lead_b = env.api.user(LEAD_B, "Bea")
    before = len(lead_b.chat())
    await lead_b.send("/report invites", chat=BETA)
    doc_b = await env.api.wait_for(lambda: next((m for m in lead_b.chat()[before:] if m.document), None))
    assert doc_b.caption == "🔗 Invites · Beta: 0 rows"


@pytest.mark.parametrize("review", ["score", "full"])
async def test_review_options_govern_practice_feedback_too(tmp_path, db_location, review):
    env = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=False)
    await env.seed(small_paper())
    db = await Database.open(env.db_path)
    await update_settings(db, "demo", actor=0, now=T0, review=review)
    await db.close()
    await env.start()
    try:
        cid = env.api.user(CID, "Cid")
        await cid.send("/practice demo")
        screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="practice screen")
        await cid.press(screen, "A")  # wrong: the key is C
        await env.api.wait_for(lambda: screen.edits > 0, what="the feedback")
        await env.idle()
        assert ("Answer: C" in screen.text) == (review == "full")
        assert ("梯度累积可模拟大批次" in screen.text) == (review == "full")
    finally:
        await env.close()


async def test_a_forgotten_claimant_does_not_free_the_invite_for_someone_else(env):
    lead, cid, dan = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(DAN, "Dan")
    payload, _ = await make_invite(env, lead, "hire")
    await open_link(cid, payload)
    await forget_user(env.db, CID)
    assert (await the_invite(env.db)).candidate_id is None
    assert (await open_link(dan, payload)).text == "This invite belongs to someone else."


async def test_an_invite_the_lead_cannot_receive_is_withdrawn(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await env.seed(small_paper("hire"))
    await env.start()
    try:
        env.api.group(ALPHA, "Alpha").set_admins([LEAD])
        lead = env.api.user(LEAD, "Lea", started=False)  # never opened a private chat with the bot
        reply = await say(lead, "/invite hire", chat=ALPHA)
        assert reply.text.startswith("I can't write to you privately yet, so the invite was withdrawn")
        assert (await the_invite(env.db)).status == InviteStatus.revoked
    finally:
        await env.close()


async def test_one_attempt_per_invite_unless_the_lead_allowed_more(tmp_path, db_location):
    env = await _env(tmp_path, db_location, attempts_allowed=2)  # a hiring paper: no more than its own limit
    try:
        await _two_attempts(env)
    finally:
        await env.close()


async def _two_attempts(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 2x")
    for _ in range(2):
        await take(env, cid, payload)
        await finish(env, cid)
    assert [a.status for a in await attempts_of(env.db)] == [AttemptStatus.finished] * 2
    assert (await open_link(cid, payload)).text == "This invite has already been used."
    assert (await the_invite(env.db)).attempts_used == 2


async def test_opening_an_invite_costs_one_message_the_welcome_becomes_the_first_question(env):
    """Start edits the welcome into the exam's screen: a hiring round opened by everyone in one minute
    spends one of Telegram's 30 messages a second per candidate, not two; the welcome is protected
    from the first, as every exam screen is."""
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h", chat=ALPHA)
    welcome = await open_link(cid, payload)
    assert welcome.protect_content and welcome.button_texts == ["▶️ Start"]
    sent_before = len([m for m in cid.chat() if m.from_bot])
    await cid.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await env.idle()
    assert screen.message_id == welcome.message_id and screen.protect_content
    assert "60:00 left" in screen.text and "▶️ Start" not in screen.button_texts
    assert len([m for m in cid.chat() if m.from_bot]) == sent_before  # no new message
    assert (await the_attempt(env.db, CID)).message_id == welcome.message_id
    # the screen goes on in that message: an answer edits it
    await cid.press(screen, "A")
    await env.idle()
    assert attempt_message(cid.chat()).message_id == welcome.message_id


async def test_a_welcome_that_cannot_be_edited_gets_the_first_question_below_it(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h", chat=ALPHA)
    welcome = await open_link(cid, payload)
    env.api.fail("editMessageText", ApiError.bad_request("Bad Request: message to edit not found"), chat_id=CID)
    await cid.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await env.idle()
    assert screen.message_id != welcome.message_id and screen.protect_content and "60:00 left" in screen.text
    assert (await the_attempt(env.db, CID)).message_id == screen.message_id


async def test_at_the_deadline_an_invited_attempts_card_takes_the_screens_place(env, monkeypatch):
    """A round's deadline minute sends a card to every candidate: the candidate's card is an edit of
    the exam's message (not one of Telegram's 30 messages a second), protected as the paper was; the
    lead's card is still a message of its own. A second delivery of the card changes nothing."""
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h", chat=ALPHA)
    welcome = await open_link(cid, payload)
    await cid.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await cid.press(screen, "A")
    await env.idle()
    attempt = await the_attempt(env.db, CID)
    sent_before = len([m for m in cid.chat() if m.from_bot])
    pacer, turns = pacing.pacer(env.app), []
    waited = pacer.turn

    async def turn(chat, priority):  # watched, not replaced: who waited for a turn to send
        turns.append((chat, priority))
        await waited(chat, priority)

    monkeypatch.setattr(pacer, "turn", turn)
    env.clock.advance(61 * 60)
    fire_deadline(env, attempt.id)
    await env.api.wait_for(lambda: (m := next((m for m in cid.chat() if m.message_id == screen.message_id), None))
                           and "— result" in (m.text or ""), what="the card in the screen's place")
    await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
    await env.idle()
    card = next(m for m in cid.chat() if m.message_id == screen.message_id)
    assert card.protect_content and "Score: " in card.text and "Finish" not in card.button_texts
    assert len([m for m in cid.chat() if m.from_bot]) == sent_before  # no message of its own
    assert (await the_attempt(env.db, CID)).status == AttemptStatus.finished
    # an edit takes no turn at the pacer; the lead's card, a message, does
    assert [chat for chat, _ in turns] == [LEAD] and turns[0][1] == pacing.Priority.bulk


async def test_an_invited_card_whose_screen_is_gone_is_posted(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h", chat=ALPHA)
    welcome = await open_link(cid, payload)
    await cid.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await env.idle()
    attempt = await the_attempt(env.db, CID)
    env.api.fail("editMessageText", ApiError.bad_request("Bad Request: message to edit not found"), chat_id=CID)
    env.clock.advance(61 * 60)
    fire_deadline(env, attempt.id)
    card = await cid.wait_message(lambda m: "— result" in (m.text or ""))
    assert card.message_id != screen.message_id and "Score: " in card.text
