"""Disputes, bank statistics and /forgetme through the fake Bot API; pure parts on crafted data."""

import pytest

from bank.item_stats import needs_attention, upper_lower_index
from bank.paper_store import get_question
from bank.question_ref import question_ref
from bot.i18n import question_text
from bot.leads import callbacks as cb
from bot.leads import render
from bot.people import forget
from proctor.daily import answers as daily_answers
from proctor.daily import delivery
from proctor.exams import service as attempts
from proctor.exams.visibility import OPERATOR, lens
from proctor.people.forget import forget_user
from proctor.people.users import find_prefs
from proctor.teams import audit
from proctor.teams import disputes as dsp
from proctor.teams.candidate import raised_disputes
from proctor.teams.item_stats import item_stats
from proctor.teams.leaderboard import my_groups
from proctor.teams.review import score_steps
from tests.harness import T0, BotEnv, pick_paper
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import attempts_of, question_ids, the_attempt

ALPHA, LEAD, ANN, BOB = -100, 10, 30, 40


# --- pure ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("action,args,scope", [
    ("set_score", (123456789012, 9999, 40), -1001234567890123),
    ("skip", (1, 0, 3), None),
    ("retire", (42,), -100),
    ("restore", (42,), None),
    ("uphold", (7,), -5),
    ("dismiss", (7,), -5),
    ("exam_only", (3, 1), -100),
])
def test_callback_data_round_trips_within_64_bytes(action, args, scope):
    data = cb.encode(action, *args, scope=scope)
    assert data.startswith("l:") and len(data.encode()) <= 64
    press = cb.parse(data)
    assert (press.action, press.args, press.scope) == (action, args, scope)


def test_forget_data_and_garbage():
    assert forget.parse(forget.encode(42, True)) == forget.Press(42, True)
    assert forget.parse("f:42:n") == forget.Press(42, False)
    for bad in (None, "", "f:", "f:1:yes", "f:-1:y", "f:1:y ", "f:１:y", "l:f:1:y"):
        assert forget.parse(bad) is None
    for bad in (None, "", "l:", "x:r:1:0", "l:r:1", "l:r:1:5", "l:r:-1:0", "l:e:1:2:0", "l:v:1:1:1:0:9",
                "l:f:1:y", "l:r:1:0 ", "l:r:１:0"):
        assert cb.parse(bad) is None
    with pytest.raises(ValueError):
        cb.encode("retire", "1:0")


def test_consent_data_names_the_group_and_the_invitation_within_64_bytes():
    data = cb.encode("consent", -1001234567890123, 1800000000, 1)
    assert len(data.encode()) <= 64
    assert cb.parse(data) == cb.Press("consent", (-1001234567890123, 1800000000, 1), None)
    for bad in ("l:m:100:1800000000:1", "l:m:-100:1800000000:2", "l:m:-100:1800000000", "l:m:-100:x:1",
                "l:m:-100:1800000000:1:0"):  # a positive chat is no group; a scope tacked on is garbled
        assert cb.parse(bad) is None


@pytest.mark.parametrize("max_score,steps", [
    (1, [0, 0.5, 1]), (2.5, [0, 0.5, 1, 1.5, 2, 2.5]), (10, list(range(11))),
    (7.5, [0, 1, 2, 3, 4, 5, 6, 7, 7.5]), (40, list(range(0, 41, 2))),
])
def test_score_steps(max_score, steps):
    assert score_steps(max_score) == steps


def test_numbers_and_durations():
    assert [render.num(x) for x in (2.0, 2.5, 2.333, None)] == ["2", "2.5", "2.33", "–"]
    assert [render.duration(s) for s in (65, 1500, 3725)] == ["1:05", "25:00", "1:02:05"]


def test_upper_lower_index():
    assert upper_lower_index([(0.5, 1.0)] * 9) is None  # too few
    strong_right = [(i / 20, 1.0 if i >= 10 else 0.0) for i in range(20)]
    assert upper_lower_index(strong_right) == 1.0
    weak_right = [(i / 20, 0.0 if i >= 10 else 1.0) for i in range(20)]
    assert upper_lower_index(weak_right) == -1.0
    assert upper_lower_index([(i / 20, 1.0) for i in range(20)]) == 0.0


async def test_item_stats_from_exams_and_daily_answers(db):
    c = Crafted(db)
    await c.group(ALPHA, members=tuple(range(1, 13)))
    pid, qs = await c.paper(sections=(("single", 3),), points=(1.0,))
    anchor, good, bad = qs[0]
    # users 1..6 are strong (2 of 3 right), 7..12 weak (1 of 3); `bad` is answered right only by the weak
    for uid in range(1, 13):
        s = uid <= 6
        await c.exam(uid, pid, [(anchor, int(s), 1, 1), (good, int(s), 1, 1), (bad, int(not s), 1, 1)], 0, 60)
    # daily answers count too, with the candidate's daily accuracy as their strength
    await c.daily(ALPHA, "2025-01-01", [good], [(uid, 0, 1 if uid <= 6 else 0, 1.0) for uid in range(1, 13)])
    stats = {s.question_id: s for s in await item_stats(db, pid)}
    assert stats[good].responses == 24 and stats[good].difficulty == 0.5 and stats[good].discrimination == 1.0
    assert stats[bad].responses == 12 and stats[bad].difficulty == 0.5
    assert stats[bad].discrimination == -1.0 and stats[anchor].discrimination == 1.0
    assert [s.question_id for s in needs_attention(list(stats.values()))][0] == bad


async def test_forget_user_deletes_everything_of_theirs_only(db):
    c = Crafted(db)
    await c.group(ALPHA, members=(1, 2))
    pid, qs = await c.paper()
    did = await c.daily(ALPHA, "2025-01-01", qs[0][:1], [(1, 0, 1, 1.0), (2, 0, 1, 2.0)])
    await c.exam(1, pid, [(qs[0][0], 1, 1, 1), (qs[1][0], 2, 5, 0)], 0, 60)
    kept = await c.exam(2, pid, [(qs[0][0], 1, 1, 1)], 0, 60)
    await dsp.raise_dispute(db, question_id=qs[0][0], user_id=1, chat_id=ALPHA, reason="key is wrong", now=1)
    await audit.log(db, at=1, actor=9, chat_id=ALPHA, action="review", target_user=1)
    gone = await forget_user(db, 1)
    assert (gone.attempts, gone.daily_answers, gone.disputes) == (1, 1, 1)
    # the schema itself: every table that holds a user's rows, swept by hand
    for table in ("users", "attempts", "daily_answers", "chat_members", "disputes"):
        col = "id" if table == "users" else "user_id"
        assert await db.scalar(f"SELECT COUNT(*) FROM {table} WHERE {col}=1") == 0, table
    assert [a.id for a in await attempts_of(db)] == [kept]  # user 2's only
    sheet = await attempts.load_sheet(db, kept)
    assert (len(sheet.items), list(sheet.answers)) == (1, [0])
    assert [e.target_user for e in await audit.recent(db)] == [None]
    assert len(await daily_answers.user_answers(db, did, 2)) == 1


# --- through the bot ----------------------------------------------------------------------------

@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,))  # the bank is shared: changing it takes a configured admin
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


async def test_dispute_by_reply_and_by_id_then_a_lead_retires_the_question(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(ANN, BOB))
    await c.roster(ALPHA, ANN, BOB)  # /bankstats in Alpha shows the disputes of Alpha's roster
    env.in_group(ALPHA, (ANN, "Ann"), (BOB, "Bob"))
    q = await question_ids(env.db, "demo", "single")
    did = await c.daily(ALPHA, "2027-01-15", q[:1], [])
    ann, bob, lead = env.api.user(ANN, "Ann"), env.api.user(BOB, "Bob"), env.api.user(LEAD, "Lea")
    # the quiz question as the group saw it: a bot message whose id daily_items records
    quiz = await lead.send("(stand-in for the quiz question)", chat=ALPHA)
    await delivery.mark_sent(env.db, did, 0, quiz.message_id, env.clock.now())
    await ann.send("/dispute the key should be B", chat=ALPHA, reply_to=quiz)
    ok = await ann.wait_message(chat=ALPHA)
    ref = question_text(await question_ref(env.db, q[0]), "en")  # P1 · Q1: every screen names it so
    assert ok.text == f"Thanks — dispute #1 on {ref} is recorded; a team lead will look at it."
    await ann.send("/dispute again", chat=ALPHA, reply_to=quiz)
    assert (await ann.wait_message(chat=ALPHA)).text == f"You already have an open dispute on {ref}."
    await bob.send(f"/dispute {q[0]} ambiguous wording")
    # its number is its id: PostgreSQL's sequence also spent one on Ann's refused repeat (ON CONFLICT)
    told = (await bob.wait_message()).text
    (bobs,) = await env.db.fetchone("SELECT id FROM disputes WHERE user_id = ?", (BOB,))
    assert f"dispute #{bobs} " in told
    await bob.send("/dispute")
    assert (await bob.wait_message()).text.startswith("To dispute a question")
    await bob.send("/dispute 999999 nope")
    assert (await bob.wait_message()).text == \
        "I don't know a question “bank id #999999”. Name it by its reference, such as P3 Q43."
    await lead.send("/bankstats", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text == "📬 Sent to you in a private chat."
    stats = await lead.wait_message(lambda m: "⚖️ Open disputes:" in (m.text or ""))  # doubts: never in a group
    # the question named one way, by its reference, its paper and section beside it
    assert f"Dispute #1 · {ref} (Demo paper demo · 单项选择题) ×2: the key should be B" in stats.text
    assert "Ann" not in stats.text and "Bob" not in stats.text  # who disputed is not shown
    toast = await lead.press(stats, f"Retire {ref}")
    assert await toast.wait() == f"{ref} retired: it will not be asked again."
    await (await lead.press(stats, "Uphold #1")).wait()
    assert await (await lead.press(stats, "Dismiss #1")).wait() == "That dispute is already closed."
    assert (await get_question(env.db, q[0])).retired
    assert [(d.id, d.status) for d in await raised_disputes(env.db, ANN, await lens(env.db, OPERATOR, None))] == [(1, "upheld")]
    assert [(d.id, d.status) for d in await raised_disputes(env.db, BOB, await lens(env.db, OPERATOR, None))] == [(bobs, "open")]
    logged = [(e.action, e.actor_id, e.target) for e in reversed(await audit.recent(env.db))]
    assert logged == [("retire", LEAD, f"question:{q[0]}"), ("dispute_upheld", LEAD, "dispute:1")]
    await lead.send(f"/restore {q[0]}", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text == f"{ref} restored."
    await lead.send(f"/retire {ref}", chat=ALPHA)  # the reference as shown is what the command takes
    assert (await lead.wait_message(chat=ALPHA)).text == f"{ref} retired: it will not be asked again."
    await lead.send("/examonly demo maybe", chat=ALPHA)
    assert (await lead.wait_message(chat=ALPHA)).text == "Usage: /examonly <paper> on|off"
    await lead.send("/examonly demo on", chat=ALPHA)  # the slug finds it; the answer speaks its title
    assert (await lead.wait_message(lambda m: "exam-only" in (m.text or ""), chat=ALPHA)).text.startswith(
        "Demo paper demo is now exam-only")


async def test_dispute_during_an_exam_flags_the_question_on_screen(env):
    ann = env.api.user(ANN, "Ann")
    await ann.send("/exam")
    await pick_paper(ann, "Demo paper demo")
    rules = await env.api.wait_for(lambda: next((m for m in reversed(ann.chat()) if "▶️ Start" in m.button_texts),
                                                None))
    await ann.press(rules, "▶️ Start")
    await env.idle()
    await ann.send("/dispute option C is also right")
    reply = await ann.wait_message(lambda m: "dispute" in (m.text or ""))
    first = (await attempts.load_sheet(env.db, (await the_attempt(env.db, ANN)).id)).items[0].question_id
    assert f"on {question_text(await question_ref(env.db, first), 'en')} is recorded" in reply.text
    assert [d.question_id for d in await raised_disputes(env.db, ANN, await lens(env.db, OPERATOR, None))] == [first]


async def test_forgetme_asks_first_and_deletes_only_the_callers_data(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(ANN, BOB))
    q = await question_ids(env.db, "demo", "single")
    did = await c.daily(ALPHA, "2027-01-15", q[:1], [(ANN, 0, 1, T0), (BOB, 0, 1, T0)])
    ann, bob = env.api.user(ANN, "Ann"), env.api.user(BOB, "Bob")
    await ann.send("/forgetme", chat=ALPHA)
    assert (await ann.wait_message(chat=ALPHA)).text == "/forgetme works in a private chat with me."
    await ann.send("/forgetme")
    ask = await ann.wait_message()
    assert ask.button_texts == ["Delete my data", "Cancel"]
    assert await (await bob.press(ask, "Delete my data")).wait() == "This button is not for you."
    await (await ann.press(ask, "Cancel")).wait()
    await env.idle()
    assert ask.text == "Nothing was deleted."
    assert len(await daily_answers.user_answers(env.db, did, ANN)) == 1
    await ann.send("/forgetme")
    ask = await ann.wait_message()
    await (await ann.press(ask, "Delete my data")).wait()
    await env.idle()
    assert ask.text.startswith("Done: your data is deleted (0 attempts, 1 daily-quiz answer).")
    assert await find_prefs(env.db, ANN) is None
    assert await daily_answers.user_answers(env.db, did, ANN) == []
    assert await my_groups(env.db, ANN) == []  # no membership left
    assert len(await daily_answers.user_answers(env.db, did, BOB)) == 1
    await bob.send("/leaderboard today", chat=ALPHA)
    board = await bob.wait_message(chat=ALPHA)
    assert "Ann" not in board.text and "1. Bob" in board.text
