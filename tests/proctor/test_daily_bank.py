"""Daily practice in bank/: the day's set, deliveries, first answers, streaks, FSRS cards."""

import json
import random
from datetime import date

import pytest

from bank.errors import NotFound
from bank.kinds import Kind
from bank.models import Paper, Question, Section
from bank.paper_store import get_question, list_papers
from proctor.daily import answers as answer_store
from proctor.daily import delivery as dstore
from proctor.daily import subscriptions as subs
from proctor.daily.candidates import Candidate, CandidatePool, candidates
from proctor.daily.fsrs_cards import due_cards, known_questions, rating_for, review
from proctor.daily.plan import create_or_resume
from proctor.daily.selection import pick_balanced, pick_group_set, pick_private_set
from proctor.daily.steps import Answered, Closed, Recorded
from proctor.daily.streaks import streak, streak_from
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from proctor.teams.curation import set_exam_only
from proctor.teams.leaderboard import my_groups
from tests.answering import answer_daily, the_key
from tests.papers_fixture import save_paper, small_paper
from tests.reads import deliveries


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

NOW = 1_800_000_000.0
DAY = date(2027, 1, 15)


@pytest.fixture
async def bank(db):
    await save_paper(db, small_paper("demo"), NOW)
    await save_paper(db, small_paper("hire", exam_only=True), NOW)
    return db


async def _chat(db, chat_id=-100, kind="supergroup"):
    await subs.ensure_chat(db, chat_id, kind, "Team", NOW)
    return chat_id


async def test_candidates_are_auto_gradable_askable_and_never_exam_only(bank):
    cands = await candidates(bank)
    assert len(cands) == 6  # 2 single, 1 multi, 1 truefalse, 2 fill of the practice paper
    for c in cands:
        q = await get_question(bank, c.id)
        assert q.kind in (Kind.single, Kind.multi, Kind.truefalse, Kind.fill)
        assert q.askable
        assert q.source.paper == "demo"


async def test_flagged_and_retired_questions_are_never_chosen(db):
    paper = Paper(slug="flags", title="F", sections=[Section(kind=Kind.single, title="s", questions=[
        Question(number=1, kind=Kind.single, stem="ok", options=["a", "b"], answer="A"),
        Question(number=2, kind=Kind.single, stem="cut", options=["a", "b"], answer="A", flags=["truncated"]),
        Question(number=3, kind=Kind.single, stem="garbled", options=["a", "b"], answer="A", flags=["corrupted"]),
        Question(number=4, kind=Kind.single, stem="no options", options=[], answer="A"),
    ])])
    await save_paper(db, paper, NOW)
    assert [(await get_question(db, c.id)).stem for c in await candidates(db)] == ["ok"]


async def test_set_exam_only_takes_a_paper_out_of_practice_and_back(bank):
    ids = {p.slug: p.id for p in await list_papers(bank)}
    pool = CandidatePool()
    assert await pool.candidates(bank) == await candidates(bank) != []
    await set_exam_only(bank, ids["demo"], True, lead=1, chat_id=None, now=NOW)
    assert await pool.candidates(bank) == []  # the kept list follows the change
    await set_exam_only(bank, ids["hire"], False, lead=1, chat_id=None, now=NOW)
    assert {(await get_question(bank, c.id)).source.paper for c in await pool.candidates(bank)} == {"hire"}
    with pytest.raises(NotFound):
        await set_exam_only(bank, 999, True, lead=1, chat_id=None, now=NOW)


def test_pick_balanced_spreads_over_papers_and_topics():
    pool = [Candidate(i, paper, topic) for i, (paper, topic) in enumerate(
        [(1, "a")] * 10 + [(1, "b")] * 10 + [(2, "c")] * 10 + [(3, "d")] * 2)]
    chosen = pick_balanced(pool, 6, random.Random(1))
    papers = [c.paper_id for c in chosen]
    assert sorted(papers) == [1, 1, 2, 2, 3, 3]
    assert {c.topic for c in chosen if c.paper_id == 1} == {"a", "b"}
    assert len({c.id for c in chosen}) == 6


def test_group_set_avoids_recent_questions_until_the_bank_runs_short():
    pool = [Candidate(i, 1, "t") for i in range(8)]
    recent = {0: 10.0, 1: 20.0, 2: 30.0, 3: 40.0, 4: 50.0}
    chosen = pick_group_set(pool, recent, 5, random.Random(0))
    assert set(chosen[:3]) == {5, 6, 7}
    assert chosen[3:] == [0, 1]  # then the longest unseen


def test_private_set_puts_due_cards_first_then_new_ones():
    pool = [Candidate(i, 1 + i % 2, "t") for i in range(10)]
    chosen = pick_private_set(pool, recent={}, due=[7, 3], known={7, 3, 5}, n=4, rng=random.Random(0))
    assert chosen[:2] == [7, 3]
    assert 5 not in chosen  # known but not due: not before new ones
    assert len(set(chosen)) == 4


async def test_delivery_is_created_once_per_chat_and_day(bank):
    chat = await _chat(bank)
    d1, created1 = await create_or_resume(bank, chat, False, DAY, 5, NOW + 86400, NOW)
    d2, created2 = await create_or_resume(bank, chat, False, DAY, 5, NOW + 86400, NOW + 5)
    assert created1 and not created2 and d1.id == d2.id
    items = await dstore.items(bank, d1.id)
    assert len(items) == 5 and len({i.question_id for i in items}) == 5
    assert [x.id for x in await deliveries(bank)] == [d1.id]
    # a direct second insert for the same day is refused by the schema too
    again, made = await dstore.create_delivery(bank, chat, DAY, [items[0].question_id], ["AB"], NOW, NOW)
    assert not made and again.id == d1.id


async def test_the_next_day_avoids_what_the_chat_saw(bank):
    chat = await _chat(bank)
    d1, _ = await create_or_resume(bank, chat, False, DAY, 3, NOW + 86400, NOW)
    d2, _ = await create_or_resume(bank, chat, False, date(2027, 1, 16), 3, NOW + 2 * 86400, NOW + 86400)
    first = {i.question_id for i in await dstore.items(bank, d1.id)}
    second = {i.question_id for i in await dstore.items(bank, d2.id)}
    assert first.isdisjoint(second)


async def test_empty_bank_raises(db):
    await _chat(db)
    with pytest.raises(dstore.EmptyBank):
        await create_or_resume(db, -100, False, DAY, 5, NOW + 86400, NOW)
    assert await deliveries(db) == []


async def test_resume_sends_only_the_unsent(bank):
    chat = await _chat(bank)
    d, _ = await create_or_resume(bank, chat, False, DAY, 5, NOW + 86400, NOW)
    await dstore.mark_sent(bank, d.id, 0, 11, NOW)
    await dstore.mark_sent(bank, d.id, 1, 12, NOW)
    unsent = [i.pos for i in await dstore.items(bank, d.id) if i.message_id is None]
    assert unsent == [2, 3, 4]
    found = await bank.run(lambda conn: dstore.item_by_message_in(conn, chat, 12))  # as a reply finds it
    assert found is not None and found[1].pos == 1
    assert await bank.run(lambda conn: dstore.item_by_message_in(conn, -999, 12)) is None


async def test_first_answer_counts_and_close_stops_answers(bank):
    chat = await _chat(bank)
    await ensure_user(bank, 1, "Ann", None, NOW)
    d, _ = await create_or_resume(bank, chat, False, DAY, 2, NOW + 86400, NOW)
    key = the_key(await get_question(bank, (await dstore.items(bank, d.id))[0].question_id))
    first = await answer_daily(bank, d.id, 0, 1, None, NOW)
    assert isinstance(first, Recorded) and first.response == key and first.grade.verdict == "correct"
    again = await answer_daily(bank, d.id, 0, 1, None, NOW + 1, right=False)
    assert isinstance(again, Answered) and again.earlier.response == key  # the first answer counts
    [kept] = await answer_store.user_answers(bank, d.id, 1)
    assert (kept.pos, kept.response, kept.verdict) == (0, key, "correct")
    assert [g[0] for g in await my_groups(bank, 1)] == [chat]  # answering makes a member
    assert await dstore.claim_close(bank, d.id)
    assert not await dstore.claim_close(bank, d.id)  # closed once
    assert isinstance(await answer_daily(bank, d.id, 1, 1, None, NOW), Closed)
    assert await answer_store.user_answers(bank, d.id, 1) == [kept]


async def test_standings_rank_by_points_then_who_finished_first(bank):
    chat = await _chat(bank)
    for uid, name in [(1, "Ann"), (2, "Bob"), (3, "Cy")]:
        await ensure_user(bank, uid, name, None, NOW)
    d, _ = await create_or_resume(bank, chat, False, DAY, 2, NOW + 86400, NOW)
    worth = [(await get_question(bank, i.question_id)).points for i in await dstore.items(bank, d.id)]
    for pos, user, right, at in [(0, 1, True, 30), (0, 2, True, 10), (1, 2, False, 11), (0, 3, True, 5),
                                 (1, 3, True, 50)]:
        out = await answer_daily(bank, d.id, pos, user, None, NOW + at, right=right)
        assert isinstance(out, Recorded) and out.grade.score == (worth[pos] if right else 0)
    top = await answer_store.standings(bank, d.id)
    # Bob and Ann have the same points: Bob finished first
    assert [(s.name, s.score) for s in top] == [("Cy", worth[0] + worth[1]), ("Bob", worth[0]), ("Ann", worth[0])]


@pytest.mark.parametrize("quiz, answered, today, expected", [
    ([], [], "2027-01-15", 0),
    (["2027-01-13", "2027-01-14", "2027-01-15"], ["2027-01-13", "2027-01-14", "2027-01-15"], "2027-01-15", 3),
    # today's quiz still open and unanswered: the streak is alive
    (["2027-01-13", "2027-01-14", "2027-01-15"], ["2027-01-13", "2027-01-14"], "2027-01-15", 2),
    # a missed quiz breaks it
    (["2027-01-12", "2027-01-13", "2027-01-14"], ["2027-01-12", "2027-01-14"], "2027-01-15", 1),
    # a day without any quiz neither breaks nor extends it
    (["2027-01-10", "2027-01-14"], ["2027-01-10", "2027-01-14"], "2027-01-15", 2),
    # the future is ignored
    (["2027-01-15", "2027-01-16"], ["2027-01-15", "2027-01-16"], "2027-01-15", 1),
])
def test_streak_from(quiz, answered, today, expected):
    assert streak_from(quiz, answered, today) == expected


async def test_streak_per_user_and_per_chat(bank):
    a, b = await _chat(bank, -1), await _chat(bank, -2)
    await ensure_user(bank, 1, "Ann", None, NOW)
    for k in range(3):
        day = date(2027, 1, 13 + k)
        for chat in (a, b):
            d, _ = await create_or_resume(bank, chat, False, day, 1, NOW + 86400 * (k + 1), NOW + 86400 * k)
            if chat == a or k == 2:
                assert isinstance(await answer_daily(bank, d.id, 0, 1, None, NOW + 86400 * k), Recorded)
    assert await streak(bank, a, 1, DAY) == 3
    assert await streak(bank, b, 1, DAY) == 1
    assert await streak(bank, a, 2, DAY) == 0


def test_fsrs_maps_grades_to_ratings_and_schedules_the_card():
    from fsrs import Rating

    assert (rating_for("correct"), rating_for("partial"), rating_for("wrong")) == (Rating.Good, Rating.Hard,
                                                                                     Rating.Again)
    assert rating_for("needs_review") is None
    good = review(None, "correct", NOW, 7)
    again = review(None, "wrong", NOW, 7)
    assert good is not None and again is not None
    assert again[1] <= good[1]
    card = json.loads(good[0])
    assert card["card_id"] == 7
    later = review(good[0], "correct", good[1], 7)
    assert later[1] - good[1] > good[1] - NOW  # the interval grows


async def test_answers_update_review_cards_and_due_questions_come_first(bank):
    user = 1
    await ensure_user(bank, user, "Ann", None, NOW)
    await _chat(bank, user, "private")
    d, _ = await create_or_resume(bank, user, True, DAY, 2, NOW + 86400, NOW)
    i0, i1 = await dstore.items(bank, d.id)
    wrong = await answer_daily(bank, d.id, 0, user, None, NOW, right=False)
    right = await answer_daily(bank, d.id, 1, user, None, NOW)
    assert (wrong.grade.verdict, right.grade.verdict) == ("wrong", "correct")
    assert await known_questions(bank, user) == {i0.question_id, i1.question_id}
    tomorrow = NOW + 86400
    assert i0.question_id in await due_cards(bank, user, tomorrow)
    d2, _ = await create_or_resume(bank, user, True, date(2027, 1, 16), 3, tomorrow + 86400, tomorrow)
    assert (await dstore.items(bank, d2.id))[0].question_id == i0.question_id


async def test_subscription_on_off_and_disabled_reason(bank):
    chat = await _chat(bank)
    sub = await subs.subscribe(bank, chat, "9:00", "Asia/Shanghai", 5, 1, NOW)
    assert (sub.at_time, sub.timezone, sub.enabled) == ("09:00", "Asia/Shanghai", True)
    assert [s.chat_id for s in await subs.enabled_subscriptions(bank)] == [chat]
    assert await subs.unsubscribe(bank, chat, None, NOW, reason="kicked")
    assert not await subs.unsubscribe(bank, chat, None, NOW)
    off = await subs.get_subscription(bank, chat)
    assert not off.enabled and off.disabled_reason == "kicked"
    again = await subs.subscribe(bank, chat, "10:30", "Europe/Berlin", 5, 1, NOW)
    assert again.enabled and again.disabled_reason is None


async def test_the_pool_query_keeps_exactly_what_the_rule_for_one_question_keeps(tmp_path):
    """The daily pool's SQL (bank.paper_counts.ASKABLE_SQL, the paper list's rule too) keeps exactly
    what `eligible` and `Question.askable` keep, over the bundled bank (whose checks hold some
    questions) with questions retired and flagged on top."""
    from bank.matching_answer import shown_count
    from proctor.daily.candidates import eligible
    from proctor.storage.bootstrap import ensure_default_bank

    db = await Database.open(tmp_path / "pool.db")
    try:
        await ensure_default_bank(db, NOW)
        ids = [r[0] for r in await db.fetchall("SELECT id FROM questions ORDER BY id")]
        await db.run_write(lambda c: c.execute("UPDATE questions SET retired=1 WHERE id IN (?, ?)", ids[3:5]))
        await db.run_write(lambda c: c.execute("""UPDATE questions SET flags='["no_key"]' WHERE id=?""", (ids[7],)))
        expected, held = set(), 0
        for qid in ids:
            q = await get_question(db, qid)
            held += bool(q.held)
            exam_only = bool(await db.scalar(
                "SELECT p.exam_only FROM questions q JOIN papers p ON p.id = q.paper_id WHERE q.id=?", (qid,)))
            if q.askable and eligible(q.kind, q.flags, q.retired, exam_only, shown_count(q.kind, q.options, q.answer)):
                expected.add(qid)
        assert held and expected and {c.id for c in await candidates(db)} == expected
    finally:
        await db.close()
