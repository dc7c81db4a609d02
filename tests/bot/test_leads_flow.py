"""Leaderboards and the lead's desk through the fake Bot API server, with the real Application."""

import csv
import io

import pytest

from bank.question_ref import QuestionRef, question_ref
from bot.leads import render as lead_render
from proctor.exams import service as attempts
from proctor.exams.cards import Told
from proctor.people.users import ensure_user
from proctor.teams import audit, review
from proctor.teams.curation import set_exam_only
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import answers_in, attempts_of, paper_id, question_ids, reviewer_of

ALPHA, BETA = -100, -200
LEAD_A, LEAD_B, ANN, BOB = 10, 20, 30, 40


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(1,))
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


async def questions(env):
    return await question_ids(env.db, "demo", "single")


async def pending_positions(env, attempt_id: int) -> list[int]:
    """The positions whose answers still await a lead's review."""
    return [pos for pos, a in (await answers_in(env.db, attempt_id)).items() if not a.final]


async def say(env, user, text, chat=None, predicate=None):
    """Send a message and return the bot's reply in that chat."""
    await user.send(text, chat=chat)
    return await user.wait_message(predicate, chat=chat)


async def crafted_teams(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(LEAD_A, ANN, BOB))
    await c.group(BETA, "Beta", members=(LEAD_B, ANN))
    await c.roster(ALPHA, LEAD_A, ANN, BOB)  # the leads put them on their teams' rosters
    await c.roster(BETA, LEAD_B, ANN)
    for uid, name in ((ANN, "Ann"), (BOB, "Bob"), (LEAD_A, "Lea"), (LEAD_B, "Leb")):
        await ensure_user(env.db, uid, name, None, env.clock.now())
    env.in_group(ALPHA, (LEAD_A, "Lea"), (ANN, "Ann"), (BOB, "Bob"))  # as Telegram says (getChatMember)
    env.in_group(BETA, (LEAD_B, "Leb"), (ANN, "Ann"))
    q = await questions(env)
    await c.daily(ALPHA, "2027-01-15", q[:2], [(ANN, 0, 1, T0 - 600), (ANN, 1, 1, T0 - 500),
                                               (BOB, 0, 1, T0 - 700), (BOB, 1, 1, T0 - 650),
                                               (LEAD_A, 0, 0, T0 - 100)])
    await c.daily(BETA, "2027-01-15", q[:1], [(LEAD_B, 0, 1, T0 - 100), (ANN, 0, 0, T0 - 50)])
    return c


async def test_group_leaderboard_ranks_members_with_ties_to_the_earlier_finisher(env):
    await crafted_teams(env)
    ann = env.api.user(ANN, "Ann")
    reply = await say(env, ann, "/leaderboard today", chat=ALPHA)
    lines = reply.text.splitlines()
    assert lines[0] == "🏆 Alpha · today"
    ranked = [ln for ln in lines if ln[:2] in ("1.", "2.", "3.")]
    assert ranked == ["1. Bob — 2 pts · 100% · 🔥1", "2. Ann — 2 pts · 100% · 🔥1", "3. Lea — 0 pts · 0% · 🔥1"]
    assert lines[-1] == "You: #2 of 3 — 2 pts · 100% · 🔥1"
    bad = await say(env, ann, "/leaderboard yesterday", chat=ALPHA)
    assert bad.text.startswith("Usage: /leaderboard")


async def test_private_leaderboard_shows_each_team(env):
    await crafted_teams(env)
    ann = env.api.user(ANN, "Ann")
    reply = await say(env, ann, "/leaderboard all")
    assert reply.text.splitlines() == ["🏆 Your positions · all time",
                                       "• Alpha: #2 of 3 — 2 pts · 100% · 🔥1",
                                       "• Beta: #2 of 2 — 0 pts · 0% · 🔥1"]
    loner = env.api.user(99, "Lone")
    assert "not on a team board" in (await say(env, loner, "/leaderboard")).text


async def test_paper_leaderboard_best_exam_and_time(env):
    c = await crafted_teams(env)
    pid = await paper_id(env.db, "demo")
    q = await questions(env)
    await c.exam(ANN, pid, [(q[0], 2, 2, 1), (q[1], 0, 2, 1)], T0, T0 + 300)
    await c.exam(ANN, pid, [(q[0], 2, 2, 1), (q[1], 2, 2, 1)], T0, T0 + 1500)
    await c.exam(BOB, pid, [(q[0], 2, 2, 1), (q[1], 2, 2, 1)], T0, T0 + 65)
    reply = await say(env, env.api.user(ANN, "Ann"), "/leaderboard paper demo", chat=ALPHA)
    assert reply.text.splitlines()[2:] == ["1. Bob — 4/4 · 1:05", "2. Ann — 4/4 · 25:00"]
    unknown = await say(env, env.api.user(ANN, "Ann"), "/leaderboard paper nope", chat=ALPHA)
    assert "don't know a paper" in unknown.text


async def pending_exam(env, c, responses=None):
    """Ann finished the demo paper; her written answer (5 points) awaits review at 2 points."""
    pid = await paper_id(env.db, "demo")
    short = (await question_ids(env.db, "demo", "short"))[0]
    q = await questions(env)
    return await c.exam(ANN, pid, [(q[0], 2, 2, 1), (short, 2, 5, 0)], T0, T0 + 600, responses=responses)


async def test_review_makes_the_score_final_and_updates_results(env):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    lead, ann = env.api.user(LEAD_A, "Lea"), env.api.user(ANN, "Ann")
    board = await say(env, ann, "/leaderboard paper demo", chat=ALPHA)
    assert "1. Ann — 4/7 · 10:00 (provisional)" in board.text
    note = await say(env, lead, "/review", chat=ALPHA)
    assert note.text == "📬 Sent to you in a private chat."
    card = await env.api.wait_for(lambda: lead.last_message())
    assert "Candidate: Ann" in card.text and "Answer:\nmy answer 1" in card.text
    # named by its reference (its home paper's code and its place there), after the paper sat
    pid, short = await paper_id(env.db, "demo"), (await question_ids(env.db, "demo", "short"))[0]
    ref = await question_ref(env.db, short)
    assert f"\nP{pid} “Paper” · P{pid} · Q{ref.n}\n" in card.text and "#" not in card.text
    assert "Reference:\n梯度累积是" in card.text and "Provisional score: 2/5" in card.text
    assert card.button_texts[:11] == ["0", "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5"]
    assert all(len(b.callback_data.encode()) <= 64 and b.callback_data.startswith("l:")
               for row in card.buttons for b in row)
    toast = await lead.press(card, "4.5")
    assert await toast.wait() == "Final score 4.5/5 saved."
    told = await ann.wait_message(lambda m: "was reviewed" in (m.text or ""))
    assert told.text.startswith(f"📝 Your answer to P{pid} · Q{ref.n} of P{pid} “Paper” was reviewed: 4.5/5.")
    assert f"#{short}" not in told.text and "Attempt score: 6.5/7 — final." in told.text
    await env.idle()
    assert "Nothing awaits review" in card.text  # the card moved on in place
    assert (await attempts.get_attempt(env.db, attempt)).score == 6.5
    ans = (await answers_in(env.db, attempt))[1]
    assert (ans.final, ans.verdict) == (True, "partial")
    assert await reviewer_of(env.db, attempt, 1) == LEAD_A
    board = await say(env, ann, "/leaderboard paper demo", chat=ALPHA)
    assert "1. Ann — 6.5/7 · 10:00" in board.text and "provisional" not in board.text
    [entry] = await audit.recent(env.db)
    assert (entry.actor_id, entry.chat_id, entry.action, entry.target_user) == (LEAD_A, ALPHA, "review", ANN)
    assert entry.detail == {"provisional": 2.0, "final": 4.5}


async def test_a_review_card_pressed_in_a_group_sends_the_next_card_privately(env):
    """A group reads every edit: a review card's button pressed there (a kept or forwarded card) saves
    the score and sends the next card, with its answer and reference, to the lead's private chat; the
    group's message stays as it was."""
    c = await crafted_teams(env)
    await pending_exam(env, c)
    pid, short = await paper_id(env.db, "demo"), (await question_ids(env.db, "demo", "short"))[0]
    await c.exam(BOB, pid, [(short, 1, 5, 0)], T0, T0 + 700, responses=["bob's own answer"])
    lead = env.api.user(LEAD_A, "Lea")
    await say(env, lead, "/review", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    assert "Candidate: Ann" in card.text
    data = next(b.callback_data for row in card.buttons for b in row if b.text == "4.5")
    state = env.api.state
    kept = state.new_message(state.chats[ALPHA], state.bot.id, text="a kept card",
                             reply_markup={"inline_keyboard": [[{"text": "4.5", "callback_data": data}]]})
    toast = await lead.press(kept, callback_data=data)
    assert await toast.wait() == "Final score 4.5/5 saved.\n📬 Sent to you in a private chat."
    following = await lead.wait_message(lambda m: "Candidate: Bob" in (m.text or ""))
    assert following.chat_id == LEAD_A and "bob's own answer" in following.text and "Reference:" in following.text
    assert kept.text == "a kept card"
    assert [m.message_id for m in env.api.chat_view(ALPHA) if m.from_bot][-1] == kept.message_id
    assert await pending_positions(env, (await attempts_of(env.db, ANN))[0].id) == []


async def test_another_groups_lead_sees_no_foreign_answers_and_cannot_press(env):
    c = await crafted_teams(env)
    await c.group(-300, "Gamma", members=(BOB,))
    env.api.group(-300, "Gamma").set_admins([BOB])
    attempt = await pending_exam(env, c)  # Ann is in Alpha and Beta, not in Gamma
    bob = env.api.user(BOB, "Bob")
    reply = await say(env, bob, "/review", chat=-300)
    assert reply.text == "Nothing awaits review. 🎉"
    lead = env.api.user(LEAD_A, "Lea")
    await say(env, lead, "/review", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    # Bob leads Gamma, not Alpha: a forwarded Alpha button is refused
    forged = env.api.state.new_callback(BOB, card, card.buttons[0][0].callback_data)
    env.api.inject_update({"callback_query": {"id": forged.id, "from": bob.info.to_api(),
                                              "message": env.api.state.message_to_api(card),
                                              "chat_instance": "1", "data": card.buttons[0][0].callback_data}})
    await env.api.wait_for(lambda: forged.answered)
    assert forged.text == "Only a lead of this team can use this button."
    assert await pending_positions(env, attempt) == [1]


async def test_report_is_a_csv_of_the_teams_results(env):
    c = await crafted_teams(env)
    await pending_exam(env, c)
    lead = env.api.user(LEAD_A, "Lea")
    await say(env, lead, "/report all", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat() if m.document), None))
    # named by the team's title, never by its chat id (issue 22)
    assert doc.document.file_name.startswith("report-Alpha-all-") and doc.document.file_name.endswith(".csv")
    assert doc.caption == "📊 Team report · Alpha · all time: 3 candidates."
    text = doc.document.data.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ["Lea", "Ann", "Bob"]
    ann = rows[1]
    # columns speak in codes and titles, one for every section of the paper (sat or not), never the slug
    paper = "P1 Demo paper demo"
    sections = ["单项选择题", "多项选择题", "判断题", "填空题", "简答题"]
    assert [c for c in rows[0] if c.startswith(paper)] == [paper, *(f"{paper} · {s}" for s in sections)]
    assert not [c for c in rows[0] if c.startswith("demo")]
    assert ann["exam_attempts"] == "1" and ann[paper] == "4" and ann[f"{paper} · 单项选择题"] == "2"
    assert ann[f"{paper} · 简答题"] == "2"
    assert (ann["daily_points"], ann["daily_answers"], ann["accuracy"], ann["streak"]) == ("2", "2", "1.000", "1")
    assert rows[0]["accuracy"] == "0.000" and rows[2][paper] == ""
    # nothing from Beta's quiz leaks into Alpha's report
    assert sum(float(r["daily_points"]) for r in rows) == 4


async def test_chart_is_a_valid_png(env):
    await crafted_teams(env)
    lead = env.api.user(LEAD_A, "Lea")
    group = env.api.group(ALPHA)
    await lead.send("/chart week", chat=ALPHA)
    photo = await env.api.wait_for(lambda: next((m for m in group.chat() if m.photo), None), timeout=15)
    data = photo.photo.data
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.size == (800, 600)
    assert "daily points over time" in photo.caption
    from proctor.teams.charts import cjk_font

    # the paper's title is drawn (CJK font) or, without one, the caption names the numbered paper
    if cjk_font() is None:
        assert " = Demo paper demo" not in photo.caption  # an ASCII title needs no stand-in
    assert "demo ·" not in photo.caption and "Team results · week" not in photo.caption


async def test_hiring_paper_answers_are_reviewed_by_configured_admins_only(env):
    """Anyone can make a group and be its administrator: exam-only (hiring) answers stay with the admins."""
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    await set_exam_only(env.db, await paper_id(env.db, "demo"), True, lead=1, chat_id=None, now=env.clock.now())
    lead = env.api.user(LEAD_A, "Lea")
    reply = await say(env, lead, "/review", chat=ALPHA)
    assert reply.text == "Nothing awaits review. 🎉"
    assert await pending_positions(env, attempt) == [1]
    admin = env.api.user(1, "Boss")
    card = await say(env, admin, "/review")
    assert "Candidate: Ann" in card.text


def test_a_review_notice_queued_before_the_reference_was_kept_still_reads():
    """An outbox payload from before (no reference) names the question by the reference read when it is
    sent (bot.leads.review.send_notice), or, the question gone, tells the total."""
    old = review.Outcome(user_id=ANN, attempt_id=1, title="Demo", question_id=82, score=1, max_score=2,
                         attempt_score=3, attempt_max=4, all_final=True)
    assert old.ref is None
    shown = Told(result=True, total=True)  # a paper whose per-question results the candidate reads
    ref = QuestionRef("P2", 9, 82)
    assert lead_render.review_notice(old, ref, "en", shown).startswith("📝 Your answer to P2 · Q9 of “Demo” was reviewed")
    assert lead_render.review_notice(old, ref, "zh", shown).startswith("📝 你在“Demo”中P2 · 第9题的答案已复核")
    assert lead_render.review_notice(old, None, "en", shown).startswith("📝 Written answers on “Demo” were reviewed")
