"""Issue 21, item 1: a stranger can't be put on anyone's roster. Joining takes the member's consent
and the member in the group (getChatMember at the fake Telegram); a lead sees only what a member
did after joining, and nothing while they are out of the group. Through the fake Bot API and the
desk's HTTP, with the real Application."""

import csv
import io

import pytest

from bot.leads import callbacks as cb
from proctor.audit import AuditAction
from proctor.exams.visibility import Role, Viewer, lens
from proctor.teams import audit, review, roster
from proctor.teams.consent import CHECK_EVERY
from proctor.teams.roster import Standing
from sandbox.fakeapi.methods.errors import ApiError
from tests.bot.test_leads_selfgrade import answer_written_exam, final, press_raw, scores, written_paper
from tests.desk_helpers import DeskClient, DeskEnv
from tests.harness import attempt_message, start_exam
from tests.reads import attempts_of, audit_count

ADMIN, EVE, EVE2, ANN, BOB = 1, 50, 51, 30, 40
GROUP = -900
NOTHING = "Nothing awaits review. 🎉"
NOT_LEAD_BUTTON = "Only a lead of this team can use this button."
JOIN = "✅ Join"


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(written_paper())
    await e.start()
    yield e
    await e.close()


async def say(user, text, chat=None):
    await user.send(text, chat=chat)
    return await user.wait_message(chat=chat)


async def report_rows(env, lead) -> list[dict]:
    before = len([m for m in lead.chat() if m.document])
    await lead.send("/report all", chat=GROUP)
    doc = await env.api.wait_for(lambda: ([m for m in lead.chat() if m.document][before:] or [None])[0])
    return list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))


async def write_again(env, user) -> int:
    """The user takes the written paper once more and hands it in; returns the new attempt's id."""
    await start_exam(env, user, "Written paper essay")
    await user.send("累加梯度后再更新参数")
    await env.idle()
    await user.press(attempt_message(user.chat()), "Finish")  # a written answer stays on screen: Finish
    confirm = await env.api.wait_for(
        lambda: next((m for m in reversed(user.chat()) if not m.deleted and "Yes, finish" in m.button_texts), None))
    await user.press(confirm, "Yes, finish")
    await env.idle()
    return max(a.id for a in await attempts_of(env.db, user.id))


async def invitation(user):
    """The invitation in the user's private chat: its Join / No buttons."""
    return await user.wait_message(lambda m: JOIN in m.button_texts)


async def test_a_stranger_cannot_be_put_on_a_roster_and_read_or_scored(env):
    """The reported attack: a group's lead adds a user the bot has seen and reads and scores their answers."""
    eve, ann = env.api.user(EVE, "Eve"), env.api.user(ANN, "Ann", username="ann")
    attempt = await answer_written_exam(env, ann)  # Ann's written answer awaits review
    before = await scores(env.db, attempt)
    env.api.group(GROUP, "Eve's team").set_admins([EVE])  # anyone can make a group
    # Ann is not in Eve's group: no invitation at all, and nothing changes
    assert (await say(eve, f"/team add {ANN}", chat=GROUP)).text == \
        "Ann is not in this group: only its members can join its roster."
    assert await roster.standing(env.db, GROUP, ANN) is None
    assert not any(JOIN in m.button_texts for m in ann.chat())
    # Ann is in the group (say Eve talked her into it) but never agrees: Eve sees nothing of hers
    env.api.group(GROUP).add_members(ANN)
    assert (await say(eve, "/team add @ann", chat=GROUP)).text == (
        "📨 I asked Ann in a private chat to accept. Until they do, the team's leads see nothing of theirs.")
    asked = await invitation(ann)
    assert "Its leads would see the practice and exam answers you give from now on" in asked.text
    assert all(len(b.callback_data.encode()) <= 64 for row in asked.buttons for b in row)
    assert await roster.standing(env.db, GROUP, ANN) is Standing.invited
    assert (await say(eve, "/review", chat=GROUP)).text == NOTHING
    assert [r["user_id"] for r in await report_rows(env, eve)] == []
    top = cb.encode("set_score", attempt, 0, 10, scope=GROUP)  # the button a card would carry, forged
    assert await press_raw(env, eve, await say(eve, "/team", chat=GROUP), top) == NOT_LEAD_BUTTON
    desk = DeskClient(env)
    try:
        await desk.login(EVE, "Eve")
        status, html, _ = await desk.get("/desk/candidate", team=str(GROUP), user=str(ANN))
        assert status == 403 and "梯度" not in html
        status, html, _ = await desk.get("/desk/review", team=str(GROUP))
        assert "梯度" not in html and "Ann" not in html
        # Ann accepts: what she wrote before joining stays hers
        await (await ann.press(asked, JOIN)).wait()
        await env.idle()
        assert await roster.standing(env.db, GROUP, ANN) is Standing.joined
        assert (await say(eve, "/review", chat=GROUP)).text == NOTHING
        status, html, _ = await desk.get("/desk/candidate", team=str(GROUP), user=str(ANN))
        assert status == 200 and "梯度" not in html and "Written paper essay" not in html
        [row] = await report_rows(env, eve)
        assert row["user_id"] == str(ANN) and row["exam_attempts"] == "0"
        assert await press_raw(env, eve, await say(eve, "/team", chat=GROUP), top) == NOT_LEAD_BUTTON
    finally:
        await desk.close()
    assert await scores(env.db, attempt) == before and not await final(env.db, attempt)
    assert await audit_count(env.db, action="review") == 0
    assert not any("Reference:" in (m.text or "") for m in eve.chat())
    # what she writes after joining is the team's to see and score
    env.clock.advance(60)
    later = await write_again(env, ann)
    await eve.send("/review", chat=GROUP)
    card = await eve.wait_message(lambda m: "Candidate: Ann" in (m.text or ""))
    assert card.text.startswith("📝 Review · 1 pending")
    assert await (await eve.press(card, "5")).wait() == "Final score 5/5 saved."
    assert await final(env.db, later) and not await final(env.db, attempt)


async def test_a_second_account_cannot_score_the_first(env):
    """Self-grading with two accounts: Eve's second account leads a group and adds Eve."""
    eve, eve2 = env.api.user(EVE, "Eve", username="eve"), env.api.user(EVE2, "Eve2")
    attempt = await answer_written_exam(env, eve)
    before = await scores(env.db, attempt)
    env.api.group(GROUP, "Eve's second team").set_admins([EVE2])
    assert (await say(eve2, "/team add @eve", chat=GROUP)).text.startswith("Eve is not in this group")
    env.api.group(GROUP).add_members(EVE)
    await say(eve2, "/team add @eve", chat=GROUP)
    await (await eve.press(await invitation(eve), JOIN)).wait()  # she consents: she is both people
    await env.idle()
    assert await roster.standing(env.db, GROUP, EVE) is Standing.joined
    assert (await say(eve2, "/review", chat=GROUP)).text == NOTHING  # written before she joined
    top = cb.encode("set_score", attempt, 0, 10, scope=GROUP)
    assert await press_raw(env, eve2, await say(eve2, "/team", chat=GROUP), top) == NOT_LEAD_BUTTON
    assert await scores(env.db, attempt) == before and not await final(env.db, attempt)
    assert await audit_count(env.db, action="review") == 0


async def test_the_consent_button_is_the_members_own_counts_once_and_goes_stale(env):
    lead, ann, bob = env.api.user(EVE, "Lea"), env.api.user(ANN, "Ann", username="ann"), env.api.user(BOB, "Bob")
    env.api.group(GROUP, "Alpha").set_admins([EVE])
    await say(ann, "/leaderboard", chat=GROUP)  # the bot learns them; they are in the group
    await say(bob, "/leaderboard", chat=GROUP)
    await say(lead, "/team add @ann", chat=GROUP)
    first = await invitation(ann)
    # a newer invitation makes the first one's buttons stale
    env.clock.advance(5)
    await say(lead, "/team add @ann", chat=GROUP)
    second = await ann.wait_message(lambda m: JOIN in m.button_texts and m.message_id != first.message_id)
    assert await (await ann.press(first, JOIN)).wait() == "This invitation is no longer open."
    assert await roster.standing(env.db, GROUP, ANN) is Standing.invited
    # Bob replays Ann's button: in his own chat it names his (absent) invitation, on her message it's foreign
    data = second.buttons[0][0].callback_data
    bob_msg = await say(bob, "/team")
    assert await press_raw(env, bob, bob_msg, data) == "This invitation is no longer open."
    assert await press_raw(env, bob, second, data) == "Sorry, that button is not valid. Please use a fresh message."
    assert await roster.standing(env.db, GROUP, BOB) is None
    assert await press_raw(env, ann, second, f"l:m:{GROUP}:{int(env.clock.now())}:7") == \
        "Sorry, that button is not valid. Please use a fresh message."  # garbled
    # the consent is in SQLite before the toast: a toast that fails loses nothing
    env.api.fail("answerCallbackQuery", ApiError.server_error())
    await ann.press(second, JOIN)
    await env.api.wait_for(lambda: "You're on the team Alpha" in (second.text or ""), what="the edit")
    assert await roster.standing(env.db, GROUP, ANN) is Standing.joined
    # a double tap counts once (the edit took the buttons away; a client may still send the press)
    assert not second.buttons
    assert await press_raw(env, ann, second, data) == "You're already on the team."
    assert await audit_count(env.db, action="roster_consent") == 1
    news = await lead.wait_message(lambda m: "Ann accepted" in (m.text or ""), chat=GROUP)
    assert news.text == "✅ Ann accepted and is on the team roster."
    # declining removes the invitation
    await say(lead, f"/team add {BOB}", chat=GROUP)
    await (await bob.press(await invitation(bob), "✖ No, thanks")).wait()
    await env.idle()
    assert await roster.standing(env.db, GROUP, BOB) is None
    assert await audit_count(env.db, action="roster_decline") == 1


async def test_a_member_the_bot_cant_write_to_accepts_with_join(env):
    lead = env.api.user(EVE, "Lea")
    cid = env.api.user(60, "Cid", username="cid", started=False)  # never opened a private chat
    env.api.group(GROUP, "Alpha").set_admins([EVE])
    hello = await cid.send("/leaderboard", chat=GROUP)  # the bot learns Cid; he is in the group
    await cid.wait_message(chat=GROUP)
    await lead.send("/team add", chat=GROUP, reply_to=hello)
    told = await lead.wait_message(chat=GROUP)
    assert told.text == ("I can't write to Cid (they haven't started a private chat with me). Ask them to send "
                         "/join here, or to /start me and send /team.")
    assert await roster.standing(env.db, GROUP, 60) is Standing.invited
    assert (await say(cid, "/join", chat=GROUP)).text == \
        "✅ You're on the team Alpha: its leads see the answers you give from now on."
    assert await roster.standing(env.db, GROUP, 60) is Standing.joined
    # /team in private lists an invitation with its buttons
    dan = env.api.user(70, "Dan")
    env.api.fail("sendMessage", ApiError.blocked(), chat_id=70)
    env.api.group(GROUP).add_members(70)
    await say(dan, "/leaderboard", chat=GROUP)
    await say(lead, "/team add 70", chat=GROUP)
    mine = await say(dan, "/team")
    assert mine.text == "👥 Your teams:\n• Alpha: invited, waiting for you"
    await (await dan.press(mine, "✅ Join Alpha")).wait()
    await env.idle()
    assert await roster.standing(env.db, GROUP, 70) is Standing.joined


async def test_leaving_the_group_ends_consent_and_nothing_done_while_away_is_ever_shown(env):
    lead, ann = env.api.user(EVE, "Lea"), env.api.user(ANN, "Ann", username="ann")
    env.api.group(GROUP, "Alpha").set_admins([EVE])
    await say(ann, "/leaderboard", chat=GROUP)
    await say(lead, "/team add @ann", chat=GROUP)
    await (await ann.press(await invitation(ann), JOIN)).wait()
    env.clock.advance(60)
    await answer_written_exam(env, ann)  # after joining
    calls = len(env.api.calls_to("getChatMember"))
    for _ in range(3):  # answers younger than CHECK_EVERY stand: no call per view
        await say(lead, "/review", chat=GROUP)
        await say(lead, "/leaderboard paper essay", chat=GROUP)
    assert len(env.api.calls_to("getChatMember")) == calls
    card = await lead.wait_message(lambda m: "Candidate: Ann" in (m.text or ""))
    env.api.group(GROUP).remove_members(ANN)  # Ann leaves the group
    env.clock.advance(CHECK_EVERY + 1)
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING
    assert len(env.api.calls_to("getChatMember")) == calls + 1  # one member, one call
    assert "Ann (@ann) — left the group" in (await say(lead, "/team", chat=GROUP)).text
    assert await roster.standing(env.db, GROUP, ANN) is Standing.invited  # leaving ended her consent
    assert await (await lead.press(card, "5")).wait() == NOT_LEAD_BUTTON
    board = await say(lead, "/leaderboard paper essay", chat=GROUP)
    assert "Ann" not in board.text
    away = await write_again(env, ann)  # while out of the group
    # back in the group: Telegram saying so changes nothing, and she is not even asked about
    env.api.group(GROUP).add_members(ANN)
    env.clock.advance(CHECK_EVERY + 1)
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING
    assert "Ann" not in (await say(lead, "/leaderboard paper essay", chat=GROUP)).text
    assert len(env.api.calls_to("getChatMember")) == calls + 1
    # she consents again (/join): seen from now on, but nothing she did before, away or not
    assert (await say(ann, "/join", chat=GROUP)).text.startswith("✅ You're on the team Alpha")
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING
    assert "Ann" not in (await say(lead, "/leaderboard paper essay", chat=GROUP)).text
    env.clock.advance(60)
    again = await write_again(env, ann)
    pending = await review.next_pending(env.db, await lens(env.db, Viewer(Role.lead, EVE), GROUP), now=env.clock.now())
    assert pending is not None and (pending.attempt_id, pending.remaining) == (again, 1) and again > away
    env.api.group(GROUP).remove_members(ANN)
    env.clock.advance(CHECK_EVERY + 1)
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING
    env.api.group(GROUP).add_members(ANN)
    env.clock.advance(CHECK_EVERY + 1)
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING


async def test_a_member_takes_themselves_off_the_roster_with_team_leave(env):
    lead, ann = env.api.user(EVE, "Lea"), env.api.user(ANN, "Ann", username="ann")
    env.api.group(GROUP, "Alpha").set_admins([EVE])
    await say(ann, "/leaderboard", chat=GROUP)
    await say(lead, "/team add @ann", chat=GROUP)
    await (await ann.press(await invitation(ann), JOIN)).wait()
    env.clock.advance(60)
    await answer_written_exam(env, ann)
    assert await review.next_pending(env.db, await lens(env.db, Viewer(Role.lead, EVE), GROUP), now=env.clock.now()) is not None
    left = await say(ann, "/team leave", chat=GROUP)
    assert left.text == "You're off the roster of Alpha: its leads see nothing more of yours."
    assert await roster.standing(env.db, GROUP, ANN) is None
    assert (await say(lead, "/review", chat=GROUP)).text == NOTHING
    assert "Ann" not in (await say(lead, "/team", chat=GROUP)).text
    [entry] = await audit.recent(env.db, action=AuditAction.roster_leave)
    assert (entry.actor_id, entry.chat_id, entry.target) == (ANN, GROUP, f"user:{ANN}")
    assert (await say(ann, "/team leave", chat=GROUP)).text == "You're not on the roster of Alpha."
    assert (await say(ann, "/team leave")).text == "Use this in your team group."
