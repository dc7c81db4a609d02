"""Team rosters through the fake Bot API: /team add|remove|accept|reject, /join with buttons, and every
lead view (/review, /bankstats disputes, /report, charts, digest, paper leaderboard) scoped by them."""

import csv
import io
import shutil

import pytest

from bot.leads import callbacks as cb
from proctor.people.forget import forget_user
from proctor.people.users import ensure_user
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files
from proctor.teams import audit, roster
from proctor.teams.charts import chart_data
from proctor.teams.digest import weakest_topics
from proctor.teams.leaderboard import my_groups, period_bounds, zone
from proctor.teams.roster import Outcome, Standing
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted, OldCrafted
from tests.reads import answers_in, audit_count, lead_lens, paper_id, question_ids

ALPHA, BETA = -100, -200
ADMIN, LEAD, LEAD_B, ANN, BOB, CID, DAN = 1, 10, 20, 30, 40, 50, 60
NOTHING = "Nothing awaits review. 🎉"
NOT_LEAD_BUTTON = "Only a lead of this team can use this button."
REFUSAL = ("Only team leads can do that. Team leads are the group's administrators and the bot's "
           "configured admins; group administrators use lead commands in their team group.")


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


async def say(user, text, chat=None, predicate=None):
    await user.send(text, chat=chat)
    return await user.wait_message(predicate, chat=chat)


async def pending_written(env, uid: int) -> int:
    """A finished demo exam of `uid`, started now, whose written answer awaits review."""
    pid = await paper_id(env.db, "demo")
    short = (await question_ids(env.db, "demo", "short"))[0]
    await Crafted(env.db).user(uid)
    now = env.clock.now()
    return await Crafted(env.db).exam(uid, pid, [(short, 2, 5, 0)], now, now + 600)


async def press_raw(env, user, message, data):
    record = env.api.state.new_callback(user.id, message, data)
    env.api.inject_update({"callback_query": {"id": record.id, "from": user.info.to_api(),
                                              "message": env.api.state.message_to_api(message),
                                              "chat_instance": "1", "data": data}})
    await env.api.wait_for(lambda: record.answered)
    return record.text


async def test_add_by_username_and_remove_decide_what_the_lead_reviews(env):
    lead = env.api.user(LEAD, "Lea")
    ann, bob = env.api.user(ANN, "Ann", username="ann"), env.api.user(BOB, "Bob")
    before = await pending_written(env, ANN)  # written before she joins: never the team's
    await say(ann, "/leaderboard", chat=ALPHA)  # Ann writes in the group: that grants nothing
    assert [chat for chat, _, _ in await my_groups(env.db, ANN)] == [ALPHA]
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    assert (await say(lead, "/team", chat=ALPHA)).text.startswith("👥 Nobody is on the Alpha roster yet.")
    # a non-lead may not add; the roster is unchanged
    assert (await say(bob, "/team add @ann", chat=ALPHA)).text == REFUSAL
    assert await roster.standing(env.db, ALPHA, ANN) is None
    assert (await say(lead, "/team add @nobody", chat=ALPHA)).text.startswith("I know nobody as @nobody.")
    added = await say(lead, "/team add @ANN", chat=ALPHA)  # usernames are case-insensitive
    assert added.text == ("📨 I asked Ann in a private chat to accept. Until they do, the team's leads see "
                          "nothing of theirs.")
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    asked = await ann.wait_message(lambda m: "✅ Join" in m.button_texts)
    env.clock.advance(60)
    assert await (await ann.press(asked, "✅ Join")).wait() == \
        "✅ You're on the team Alpha: its leads see the answers you give from now on."
    await env.idle()  # the group is told too
    assert (await say(lead, "/team add @ann", chat=ALPHA)).text == "Ann is already on the team."
    listing = await say(bob, "/team", chat=ALPHA)  # everyone in the group may see the roster
    assert listing.text.splitlines()[:2] == ["👥 Team Alpha: 1 on the roster", "• Ann (@ann)"]
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    env.clock.advance(60)
    attempt = await pending_written(env, ANN)
    await say(lead, "/review", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    assert "Candidate: Ann" in card.text and card.text.startswith("📝 Review · 1 pending")
    # Ann leaves the roster: her answers are invisible again, and the card's buttons are refused
    removed = await say(lead, "/team remove @ann", chat=ALPHA)
    assert removed.text == "Ann is off the team: its leads no longer see their answers."
    assert await (await lead.press(card, "5")).wait() == NOT_LEAD_BUTTON
    assert not (await answers_in(env.db, attempt))[0].final
    assert not (await answers_in(env.db, before))[0].final
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    assert (await say(lead, "/team remove @ann", chat=ALPHA)).text == "Ann is not on the team."
    actions = [e.action for e in reversed(await audit.recent(env.db)) if e.action.startswith("roster")]
    assert actions == ["roster_invite", "roster_consent", "roster_remove"]


async def test_add_by_replying_to_a_members_message(env):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    hello = await cid.send("hello team", chat=ALPHA)  # a plain message: the bot (privacy mode) never saw Cid
    await lead.send("/team add", chat=ALPHA, reply_to=hello)
    assert (await lead.wait_message(chat=ALPHA)).text.startswith("📨 I asked Cid in a private chat")
    await (await cid.press(await cid.wait_message(lambda m: "✅ Join" in m.button_texts), "✅ Join")).wait()
    await env.idle()
    assert await roster.standing(env.db, ALPHA, CID) is Standing.joined
    bot_msg = await say(lead, "/team", chat=ALPHA)
    await lead.send("/team remove", chat=ALPHA, reply_to=bot_msg)
    assert (await lead.wait_message(chat=ALPHA)).text == "Reply to a member's message, not to a bot's."
    await lead.send("/team add", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text.startswith("Usage: /team")
    # the other group's lead can't manage Alpha's roster; in private, group admins lead nothing
    other = env.api.user(LEAD_B, "Leb")
    await other.send("/team remove", chat=ALPHA, reply_to=hello)
    assert (await other.wait_message(chat=ALPHA)).text == REFUSAL
    assert (await say(lead, f"/team remove {CID}")).text == REFUSAL
    assert await roster.standing(env.db, ALPHA, CID) is Standing.joined
    admin = env.api.user(ADMIN, "Boss")
    assert (await say(admin, f"/team remove {CID}")).text == "Use this in your team group."


async def test_join_is_pending_until_a_lead_accepts_with_the_button(env):
    lead, bob = env.api.user(LEAD, "Lea"), env.api.user(BOB, "Bob", username="bob")
    request = await say(bob, "/join", chat=ALPHA)
    # the group's title as it is (before: "asked to join the team Sandbox team")
    assert request.text == "🙋 Bob asked to join Alpha: pending until a lead accepts. Leads: accept or reject."
    assert request.button_texts == ["✅ Accept", "✖ Reject"]
    assert all(len(b.callback_data.encode()) <= 64 for row in request.buttons for b in row)
    assert (await say(bob, "/join", chat=ALPHA)).text == "Your request to join is still waiting for a lead."
    assert await roster.standing(env.db, ALPHA, BOB) is Standing.asked
    listing = await say(lead, "/team", chat=ALPHA)
    assert "Waiting for a lead (1):\n• Bob (@bob)" in listing.text
    # pending is not a member: Bob's answers stay invisible, and those from before he joined stay his
    await pending_written(env, BOB)
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    env.clock.advance(60)
    # Bob can't accept himself, nor can another group's lead
    assert await (await bob.press(request, "✅ Accept")).wait() == NOT_LEAD_BUTTON
    assert await press_raw(env, env.api.user(LEAD_B, "Leb"), request, request.buttons[0][0].callback_data) \
        == NOT_LEAD_BUTTON
    assert await roster.standing(env.db, ALPHA, BOB) is Standing.asked
    assert await (await lead.press(request, "✅ Accept")).wait() == "✅ Bob accepted by Lea."
    await env.idle()
    assert request.text == "✅ Bob accepted by Lea." and not request.buttons
    assert await roster.standing(env.db, ALPHA, BOB) is Standing.joined
    await bob.wait_message(lambda m: "You're on the team Alpha" in (m.text or ""))
    # a stale Reject on the old request changes nothing
    assert await press_raw(env, lead, request, cb.encode("join", BOB, 0, scope=ALPHA)) \
        == "That request was already decided."
    assert await roster.standing(env.db, ALPHA, BOB) is Standing.joined
    assert (await say(bob, "/join", chat=ALPHA)).text == "You're already on the team."
    assert (await say(lead, "/review", chat=ALPHA)).text == NOTHING
    env.clock.advance(60)
    await pending_written(env, BOB)
    await say(lead, "/review", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    assert "Candidate: Bob" in card.text
    assert (await say(bob, "/join")).text == "Send /join in your team's group."
    assert (await say(bob, "/team")).text == "👥 Your teams:\n• Alpha: member"


async def test_team_accept_and_reject_by_command_and_the_button_is_checked_again_later(env):
    lead = env.api.user(LEAD, "Lea")
    cid, dan = env.api.user(CID, "Cid", username="cid"), env.api.user(DAN, "Dan", username="dan")
    await say(cid, "/join", chat=ALPHA)
    dan_request = await say(dan, "/join", chat=ALPHA)
    assert (await say(lead, "/team accept @cid", chat=ALPHA)).text == "✅ Cid accepted by Lea."
    assert (await say(lead, "/team accept @cid", chat=ALPHA)).text == "Cid has no request waiting."
    # Lea stops being an administrator: her button press later is refused (the cached list expires)
    env.api.group(ALPHA).set_admins([])
    env.clock.advance(301)
    assert await (await lead.press(dan_request, "✖ Reject")).wait() == NOT_LEAD_BUTTON
    assert await roster.standing(env.db, ALPHA, DAN) is Standing.asked
    env.api.group(ALPHA).set_admins([LEAD])
    env.clock.advance(301)
    assert (await say(lead, "/team reject @dan", chat=ALPHA)).text == "Dan's request was turned down by Lea."
    await dan.wait_message(lambda m: (m.text or "") == "Your request to join Alpha was turned down.")
    assert await roster.standing(env.db, ALPHA, DAN) is None
    assert (await say(dan, "/team")).text == "You're not on a team roster. Send /join in your team's group."


async def privately(env, lead, command: str, group: int):
    """A lead's command in the group whose answer goes to their private chat."""
    before = len(lead.chat())
    assert (await say(lead, command, chat=group)).text == "📬 Sent to you in a private chat."
    return await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.from_bot), None))


async def test_bankstats_shows_only_the_disputes_of_the_teams_roster(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(LEAD, ANN, CID))
    await c.group(BETA, "Beta", members=(LEAD_B, BOB))
    await c.roster(ALPHA, ANN)
    await c.roster(BETA, BOB)  # Cid wrote in Alpha but is not on its roster
    env.in_group(ALPHA, (ANN, "Ann"), (CID, "Cid"))
    env.in_group(BETA, (BOB, "Bob"))
    q = await question_ids(env.db, "demo", "single")
    for group in (ALPHA, BETA):  # each group's daily quiz asked it
        await c.daily(group, "2027-01-15", q[:1], [])
    for user, name, reason in ((ANN, "Ann", "alpha thinks B"), (BOB, "Bob", "beta thinks D"),
                               (CID, "Cid", "outsider thinks A")):
        await say(env.api.user(user, name), f"/dispute {q[0]} {reason}")
    stats = await privately(env, env.api.user(LEAD, "Lea"), "/bankstats", ALPHA)
    assert "alpha thinks B" in stats.text and "×1" in stats.text
    assert "beta thinks D" not in stats.text and "outsider thinks A" not in stats.text
    beta = await privately(env, env.api.user(LEAD_B, "Leb"), "/bankstats", BETA)
    assert "beta thinks D" in beta.text and "alpha thinks B" not in beta.text
    everyone = await say(env.api.user(ADMIN, "Boss"), "/bankstats")
    assert all(r in everyone.text for r in ("alpha thinks B", "beta thinks D", "outsider thinks A"))
    assert "×3" in everyone.text


async def test_report_lists_the_roster_not_whoever_wrote_in_the_group(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(LEAD, ANN, BOB))
    await c.roster(ALPHA, ANN)
    env.in_group(ALPHA, (ANN, "Ann"), (BOB, "u40"))
    pid = await paper_id(env.db, "demo")
    q = (await question_ids(env.db, "demo", "single"))[0]
    await c.exam(BOB, pid, [(q, 2, 2, 1)], T0, T0 + 60)  # Bob's exam: not Alpha's business
    lead = env.api.user(LEAD, "Lea")
    assert (await say(lead, "/report all", chat=ALPHA)).text == "📬 Sent to you in a private chat."
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat() if m.document), None))
    rows = list(csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig"))))
    assert [int(r["user_id"]) for r in rows] == [ANN]
    assert "demo" not in rows[0]  # no exam columns: Bob's exam is invisible
    # the paper leaderboard in the group is the roster's too
    board = await say(env.api.user(ANN, "Ann"), "/leaderboard paper demo", chat=ALPHA)
    assert "No finished exams" in board.text
    await c.roster(ALPHA, BOB)
    board = await say(env.api.user(ANN, "Ann"), "/leaderboard paper demo", chat=ALPHA)
    assert "1. u40 — 2/2" in board.text


async def test_the_paper_leaderboard_in_a_group_ranks_its_roster_not_whoever_asks(env):
    c = Crafted(env.db)
    await c.user(ANN, "Ann")
    await c.group(ALPHA, "Alpha", members=(LEAD, ANN))
    await c.roster(ALPHA, ANN)  # the lead leads the team, and is not on its roster
    env.in_group(ALPHA, (ANN, "Ann"), (LEAD, "Lea"))
    pid = await paper_id(env.db, "demo")
    q = (await question_ids(env.db, "demo", "single"))[0]
    await c.exam(ANN, pid, [(q, 1, 2, 1)], T0, T0 + 60)
    await c.exam(LEAD, pid, [(q, 2, 2, 1)], T0, T0 + 30)  # the lead tried the paper too, and did better
    lead = env.api.user(LEAD, "Lea")
    board = await say(lead, "/leaderboard paper demo", chat=ALPHA)
    assert "1. Ann — 1/2" in board.text and "Lea" not in board.text
    await c.roster(ALPHA, LEAD)  # added to the roster: ranked with the team
    board = await say(lead, "/leaderboard paper demo", chat=ALPHA)
    assert "1. Lea — 2/2" in board.text and "2. Ann — 1/2" in board.text


# --- bank/ ----------------------------------------------------------------------------------------

async def test_chart_and_digest_count_exams_of_the_roster_only(db):
    c = Crafted(db)
    await c.group(ALPHA, members=(1, 2))
    await c.roster(ALPHA, 1)
    pid, qs = await c.paper(sections=(("single", 3),), points=(1.0,), subject="operations")
    await c.exam(1, pid, [(qs[0][0], 1, 1, 1), (qs[0][1], 1, 1, 1), (qs[0][2], 1, 1, 1)], 100, 200)
    await c.exam(2, pid, [(qs[0][0], 0, 1, 1), (qs[0][1], 0, 1, 1), (qs[0][2], 0, 1, 1)], 100, 200)
    period = period_bounds("all", 1000, zone("UTC"))
    data = await chart_data(db, await lead_lens(db, ALPHA), period, "t")
    assert [(acc, n) for _, acc, n, _ in data.papers] == [(1.0, 3)]
    assert [(w.accuracy, w.answers) for w in await weakest_topics(db, await lead_lens(db, ALPHA), 0, 1000)] == [(1.0, 3)]


async def test_roster_domain(db):
    c = Crafted(db)
    await c.group(ALPHA, "Alpha")
    for uid, name in ((1, "ann"), (2, "Ann2")):
        await ensure_user(db, uid, f"u{uid}", name, 0)
    assert await roster.find_user(db, "@ANN") == 1 and await roster.find_user(db, "2") == 2
    with pytest.raises(roster.UnknownUser):
        await roster.find_user(db, "@nobody")
    await ensure_user(db, 2, "u2", "ann", 0)  # a stale name now taken
    with pytest.raises(roster.AmbiguousUser):
        await roster.find_user(db, "@ann")
    assert await roster.request(db, ALPHA, 1, in_group=True, now=1) is Outcome.asked
    assert await roster.request(db, ALPHA, 1, in_group=True, now=2) is Outcome.waiting
    assert not await roster.reject(db, ALPHA, 2, lead=9, now=3)
    assert await roster.invite(db, ALPHA, 1, lead=9, in_group=False, now=3) is Outcome.not_in_group
    assert await roster.standing(db, ALPHA, 1) is Standing.asked
    assert await roster.invite(db, ALPHA, 1, lead=9, in_group=True, now=3) is Outcome.joined  # accepts the request
    assert await roster.invite(db, ALPHA, 1, lead=9, in_group=True, now=4) is Outcome.already
    assert await roster.accept(db, ALPHA, 1, lead=9, in_group=True, now=4) is Outcome.nothing
    assert await roster.request(db, ALPHA, 1, in_group=True, now=5) is Outcome.already
    assert await roster.teams_of(db, 1) == [(ALPHA, "Alpha", Standing.joined)]
    assert await roster.remove(db, ALPHA, 1, lead=9, now=6)
    assert await roster.listing(db, ALPHA) == []
    # a lead's invitation: nothing until the member consents, with the stamp of the invitation standing
    assert await roster.invite(db, ALPHA, 2, lead=9, in_group=True, now=7.5) is Outcome.invited
    assert await roster.invitation(db, ALPHA, 2) == 7
    assert await roster.invite(db, ALPHA, 2, lead=9, in_group=True, now=9) is Outcome.invited  # asked again
    assert await roster.consent(db, ALPHA, 2, 7, in_group=True, now=10) is Outcome.nothing  # the older buttons
    assert await roster.consent(db, ALPHA, 2, 9, in_group=False, now=10) is Outcome.not_in_group
    assert await roster.decline(db, ALPHA, 2, 7, now=10) is Outcome.nothing
    assert [(e.user_id, e.standing) for e in await roster.listing(db, ALPHA)] == [(2, Standing.invited)]
    assert await roster.consent(db, ALPHA, 2, 9, in_group=True, now=11) is Outcome.joined
    assert await roster.consent(db, ALPHA, 2, 9, in_group=True, now=12) is Outcome.already
    assert await roster.decline(db, ALPHA, 2, 9, now=12) is Outcome.nothing
    assert await roster.request(db, ALPHA, 1, in_group=True, now=13) is Outcome.asked
    assert await roster.accept(db, ALPHA, 1, lead=9, in_group=False, now=14) is Outcome.not_in_group
    assert await roster.accept(db, ALPHA, 1, lead=9, in_group=True, now=14) is Outcome.joined
    # a member's /join accepts a lead's invitation
    await ensure_user(db, 3, "u3", None, 0)
    assert await roster.invite(db, ALPHA, 3, lead=9, in_group=True, now=15) is Outcome.invited
    assert await roster.request(db, ALPHA, 3, in_group=True, now=16) is Outcome.joined
    assert await audit_count(db, action="roster_consent") == 2
    await forget_user(db, 2)  # /forgetme takes the roster entry with it
    assert [e.user_id for e in await roster.listing(db, ALPHA)] == [1, 3]


async def test_migration_keeps_every_record_and_grants_no_roster(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    for version, path in migration_files():
        if version < 7:
            shutil.copy(path, old / path.name)
    db = await Database.open(tmp_path / "p.db", migrations_dir=old)
    c = OldCrafted(db)
    await c.group(ALPHA, members=(1, 2))
    await db.close()
    db = await Database.open(tmp_path / "p.db", migrations_dir=MIGRATIONS_DIR)
    try:
        assert await db.user_version() >= 7
        # the schema itself: rows written before migration 007, counted after it
        assert await db.scalar("SELECT COUNT(*) FROM chat_members") == 2
        assert await db.scalar("SELECT COUNT(*) FROM users") == 2
        assert await db.scalar("SELECT COUNT(*) FROM team_roster") == 0  # writing in a group grants nothing
    finally:
        await db.close()
