"""The daily_topics and exam_topics summaries (migration 025, proctor/teams/topic_scores.py): the
topic heatmap and the team chart's accuracy by paper read from them equal what the raw answers give
(the queries used before, kept here as the reference) over random data and periods; a regrade, a
review, /forgetme, a question moved to another topic and the migration of an old database keep them
right."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proctor.exams.visibility import Role, Viewer, lens
from proctor.people.forget import forget_user
from proctor.storage.db import Database
from proctor.teams.charts import chart_data
from proctor.teams.leaderboard import Period, period_bounds
from proctor.teams.mastery import Mastery, daily_trend, topic_mastery
from proctor.teams.question_edit import Edit, EditField, edit_question
from proctor.teams.review import set_final
from tests.proctor.test_leads_data import Crafted
from tests.proctor.test_upgrade import RELEASES, load_release


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

BASE = datetime(2025, 3, 1, tzinfo=ZoneInfo("UTC")).timestamp()
DAY = 86400.0
TEAM, OTHER = -1, -2
MEMBERS = (1, 2, 3)
OUTSIDER = 4  # answers the group's quizzes and sits exams, not on the roster
LEAD = 9

# The heatmap and the chart's accuracy by paper as computed before the summaries (the reference). Three
# changes: the heatmap's GROUP BY names the topic expression (before, its bare `topic` meant the column
# q.topic); a question's topic is its own, else its paper's subject (bank/topics.py), never its section's
# title; and it leaves out a hiring paper's questions from daily answers too (sections are the read
# rule's: the team's lead, not verified for the exam-only paper, reads none of its sections).
_RAW_MASTERY = """
WITH scored AS (
 SELECT d.user_id, d.question_id, d.score, d.max_score FROM daily_answers d
 WHERE d.chat_id=:chat AND d.answered_at>=:start AND d.answered_at<:end
 UNION ALL
 SELECT t.user_id, x.question_id, x.score, x.max_score FROM answers x
 JOIN attempts t ON t.id = x.attempt_id
 WHERE t.mode='exam' AND t.status='finished' AND x.final=1
   AND t.user_id IN (SELECT r.user_id FROM team_roster r WHERE r.chat_id=:chat AND r.status='member')
   AND NOT EXISTS (SELECT 1 FROM papers hp WHERE hp.id = t.paper_id AND hp.exam_only = 1)
   AND t.finished_at>=:start AND t.finished_at<:end)
SELECT s.user_id, COALESCE(NULLIF(q.topic, ''), p.subject) AS topic,
      SUM(s.score) / SUM(s.max_score) AS share, COUNT(*) AS n
FROM scored s JOIN questions q ON q.id = s.question_id JOIN papers p ON p.id = q.paper_id
WHERE NOT EXISTS (SELECT 1 FROM papers hp WHERE hp.id = q.paper_id AND hp.exam_only = 1)
GROUP BY s.user_id, COALESCE(NULLIF(q.topic, ''), p.subject) HAVING SUM(s.max_score) > 0 ORDER BY topic"""
_RAW_PAPERS = """
WITH scored AS (
  SELECT q.paper_id, d.score, d.max_score FROM daily_answers d JOIN questions q ON q.id = d.question_id
  WHERE chat_id=:chat AND d.answered_at>=:start AND d.answered_at<:end
  UNION ALL
  SELECT q.paper_id, x.score, x.max_score FROM answers x JOIN attempts t ON t.id = x.attempt_id
  JOIN questions q ON q.id = x.question_id
  WHERE t.mode='exam' AND t.status='finished' AND x.final=1
    AND t.user_id IN (SELECT r.user_id FROM team_roster r WHERE r.chat_id = :chat AND r.status = 'member')
    AND t.invite_id IS NULL AND t.finished_at>=:start AND t.finished_at<:end)
SELECT p.id, p.title, SUM(s.score) / SUM(s.max_score), COUNT(*) FROM scored s
JOIN papers p ON p.id = s.paper_id GROUP BY p.id HAVING SUM(s.max_score) > 0 ORDER BY p.id"""


async def _mastery(db: Database, period: Period) -> Mastery:
    """The heatmap as the team's lead reads it (not verified for any hiring paper)."""
    return await topic_mastery(db, TEAM, period, await lens(db, Viewer(Role.lead, LEAD), TEAM))


def _bounds(period: Period) -> dict[str, object]:
    return {"start": period.start if period.start is not None else float("-inf"),
            "end": period.end if period.end is not None else float("inf")}


async def _assert_same(db: Database, period: Period) -> None:
    """The heatmap and the accuracy by paper equal the reference's (shares to the last bits of a sum)."""
    mastery = await _mastery(db, period)
    raw = await db.fetchall(_RAW_MASTERY, {"chat": TEAM, **_bounds(period)})
    assert mastery.topics == sorted({r["topic"] for r in raw}), period
    assert mastery.cells.keys() == {(r["user_id"], r["topic"]) for r in raw}, period
    for r in raw:
        share, n = mastery.cells[(r["user_id"], r["topic"])]
        assert (share, n) == (pytest.approx(r["share"], rel=1e-12, abs=1e-12), r["n"]), period
    # a configured admin's view of the team: every paper (an unverified lead's leaves out the exam-only one)
    chart = await chart_data(db, await lens(db, Viewer(Role.admin, LEAD), TEAM), period, "t")
    raw_papers = await db.fetchall(_RAW_PAPERS, {"chat": TEAM, **_bounds(period)})
    assert [(t, n) for t, _, n, _ in chart.papers] == [(r[1], r[3]) for r in raw_papers], period
    assert [a for _, a, *_ in chart.papers] == [pytest.approx(r[2], rel=1e-12, abs=1e-12) for r in raw_papers]


async def _setup(db: Database) -> tuple[Crafted, list[int], list[list[int]], list[list[int]]]:
    """Two groups, a roster, two papers (the first about "operations", the second exam-only and with no
    subject) with topics on some questions; returns (crafted, the paper ids, the first's and the
    second's questions by section)."""
    crafted = Crafted(db)
    await crafted.group(TEAM, members=(*MEMBERS, OUTSIDER))
    await crafted.group(OTHER, members=MEMBERS)
    await crafted.roster(TEAM, *MEMBERS)
    await crafted.user(LEAD)
    p1, q1 = await crafted.paper("ops", sections=(("single", 4), ("short", 2)), points=(1.0, 5.0),
                                 subject="operations")
    p2, q2 = await crafted.paper("net", sections=(("single", 3),), points=(2.0,))

    def transaction(c):  # topics on some questions; the others show their paper's subject
        c.execute("UPDATE questions SET topic='dns' WHERE id IN (?, ?)", (q1[0][0], q2[0][1]))
        c.execute("UPDATE questions SET topic='tls' WHERE id = ?", (q1[0][1],))
        c.execute("UPDATE papers SET exam_only=1 WHERE id=?", (p2,))

    await db.run_write(transaction)
    return crafted, [p1, p2], q1, q2


def _day(n: int) -> str:
    return datetime.fromtimestamp(BASE + n * DAY, ZoneInfo("UTC")).date().isoformat()


# a daily answer: (group, user, quiz day 0..20, position 0..4, score, seconds after the day's UTC midnight)
daily_answer = st.tuples(st.sampled_from((TEAM, TEAM, OTHER)), st.sampled_from((*MEMBERS, OUTSIDER)),
                         st.integers(0, 20), st.integers(0, 4), st.sampled_from((0.0, 0.25, 0.5, 1.0)),
                         st.one_of(st.integers(0, 2 * 96).map(lambda q: q * 450.0),
                                   st.floats(0, 2 * DAY, allow_nan=False).map(lambda s: round(s, 3))))
# an exam: (user, paper 0..1, status, finished day offset in seconds, [(question index, score share, final)])
exam = st.tuples(st.sampled_from((*MEMBERS, OUTSIDER)), st.integers(0, 1),
                 st.sampled_from(("finished", "finished", "cancelled")), st.floats(0, 21 * DAY, allow_nan=False),
                 st.lists(st.tuples(st.integers(0, 5), st.sampled_from((0.0, 0.5, 1.0)), st.booleans()),
                          min_size=1, max_size=5))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers=st.lists(daily_answer, max_size=50), exams=st.lists(exam, max_size=6),
       zone=st.sampled_from(("UTC", "Asia/Kathmandu", "America/New_York")),
       now_offset=st.floats(0, 22 * DAY, allow_nan=False),
       edges=st.tuples(st.floats(0, 21 * DAY, allow_nan=False), st.floats(0, 8 * DAY, allow_nan=False)))
def test_heatmap_and_accuracy_by_paper_from_the_summaries_equal_the_raw_answers(answers, exams, zone, now_offset,
                                                                                  edges):
    async def scenario(path: Path) -> None:
        db = await Database.open(path)
        try:
            crafted, papers, q1, q2 = await _setup(db)
            pool = [q1[0][0], q1[0][1], q1[0][2], q2[0][0], q2[0][1]]
            quizzes: dict[tuple[int, int], dict[tuple[int, int], tuple[int, int, float, float]]] = {}
            for chat, uid, day, pos, score, seconds in answers:  # the first answer to an item counts
                quizzes.setdefault((chat, day), {}).setdefault(
                    (uid, pos), (uid, pos, score, BASE + day * DAY + seconds))
            for (chat, day), rows in sorted(quizzes.items()):
                await crafted.daily(chat, _day(day), pool, list(rows.values()))
            for uid, paper, status, finished, items in exams:
                qs = [*q1[0], *q1[1]] if paper == 0 else q2[0]
                picked = {qs[i % len(qs)]: (share, final) for i, share, final in items}
                mx = 2.0
                aid = await crafted.exam(uid, papers[paper], [(q, share * mx, mx, int(final))
                                                             for q, (share, final) in picked.items()],
                                         BASE + finished - 600, BASE + finished)
                if status != "finished":
                    await db.run_write(lambda c, status=status, aid=aid: c.execute(
                        "UPDATE attempts SET status=? WHERE id=?", (status, aid)))
            tz, now = ZoneInfo(zone), BASE + now_offset
            periods = [period_bounds(name, now, tz) for name in ("today", "week", "month", "all")]
            start = BASE + edges[0]  # bounds off the quarter hours
            periods.append(Period("edges", start, start + edges[1], periods[0].today))
            periods.append(Period("digest", BASE + round(edges[0] / 900) * 900 + 3.5, None, periods[0].today))
            for period in periods:
                await _assert_same(db, period)
        finally:
            await db.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "proctor.db"))


async def _daily_summary(db: Database) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.fetchall("SELECT * FROM daily_topics ORDER BY 1, 2, 3, 4, 5, 6")]


async def _exam_summary(db: Database) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.fetchall("SELECT * FROM exam_topics ORDER BY 1, 2, 3, 4")]


async def _recomputed(db: Database) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Both summaries as migration 025 computes them from the raw answers."""
    daily = await db.fetchall(
        "SELECT d.chat_id, CAST(d.answered_at AS INTEGER) / 900 AS slot, d.user_id, q.paper_id, q.section_id, q.topic, "
        "SUM(d.score), SUM(d.max_score), COUNT(*) FROM daily_answers d JOIN questions q ON q.id = d.question_id "
        "GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6")
    exams = await db.fetchall(
        "SELECT x.attempt_id, q.paper_id, q.section_id, q.topic, SUM(x.score), SUM(x.max_score), COUNT(*) "
        "FROM answers x JOIN questions q ON q.id = x.question_id WHERE x.final = 1 "
        "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4")
    return [tuple(r) for r in daily], [tuple(r) for r in exams]


async def _assert_kept(db: Database) -> None:
    assert (await _daily_summary(db), await _exam_summary(db)) == await _recomputed(db)
    await _assert_same(db, period_bounds("all", BASE, ZoneInfo("UTC")))


async def test_a_regrade_and_a_review_update_the_summaries(db):
    crafted, papers, q1, _ = await _setup(db)

    def transaction(c):  # the crafted questions get options, so the key can move to B
        c.execute("UPDATE questions SET options=? WHERE id=?", (json.dumps(["one", "two", "three"]), q1[0][0]))

    await db.run_write(transaction)
    t0 = BASE + 9 * 3600
    await crafted.daily(TEAM, _day(0), q1[0][:1], [(1, 0, 1.0, t0), (2, 0, 0.0, t0 + 60)])

    def transaction(c):  # user 2 answered B
        c.execute("UPDATE daily_answers SET response='\"B\"' WHERE user_id=2")

    await db.run_write(transaction)
    aid = await crafted.exam(2, papers[0], [(q1[0][0], 1.0, 1.0, 1), (q1[1][0], 0.0, 5.0, 0)], t0, t0 + 600)
    period = period_bounds("all", t0, ZoneInfo("UTC"))
    before = await _mastery(db, period)
    assert before.cells[(2, "dns")] == (0.5, 2) and before.cells[(1, "dns")] == (1.0, 1)
    assert (2, "operations") not in before.cells  # the short answer, awaiting review: not counted yet
    await edit_question(db, q1[0][0], Edit(EditField.key, "B"), actor=LEAD, now=t0 + 3600, chat_id=TEAM, regrade=True)
    after = await _mastery(db, period)
    assert after.cells[(1, "dns")] == (0.0, 1) and after.cells[(2, "dns")][1] == 2
    await _assert_kept(db)
    await set_final(db, aid, 1, 4.0, viewer=Viewer(Role.admin, LEAD), scope=None, now=t0 + 7200)
    assert (await _mastery(db, period)).cells[(2, "operations")] == (0.8, 1)
    await _assert_kept(db)


async def test_forgetme_removes_the_users_summary_rows(db):
    crafted, papers, q1, _ = await _setup(db)
    t0 = BASE + 9 * 3600
    await crafted.daily(TEAM, _day(0), q1[0][:2], [(1, 0, 1.0, t0), (1, 1, 0.5, t0 + 5), (2, 0, 1.0, t0 + 60)])
    await crafted.exam(1, papers[0], [(q1[0][0], 1.0, 1.0, 1), (q1[1][0], 2.0, 5.0, 1)], t0, t0 + 600)
    await crafted.exam(2, papers[0], [(q1[0][0], 0.0, 1.0, 1)], t0, t0 + 600)
    assert {r[2] for r in await _daily_summary(db)} == {1, 2} and len(await _exam_summary(db)) == 3
    await forget_user(db, 1)
    assert {r[2] for r in await _daily_summary(db)} == {2} and len(await _exam_summary(db)) == 1
    await _assert_kept(db)
    assert {u for u, _ in (await _mastery(db, period_bounds("all", t0, ZoneInfo("UTC")))).cells} == {2}


async def test_a_question_moved_to_another_topic_moves_its_points(db):
    crafted, papers, q1, _ = await _setup(db)
    t0 = BASE + 9 * 3600
    await crafted.daily(TEAM, _day(0), q1[0][:3], [(1, 0, 1.0, t0), (1, 2, 0.0, t0 + 5)])
    await crafted.exam(1, papers[0], [(q1[0][2], 1.0, 1.0, 1)], t0, t0 + 600)

    def transaction(c):  # a re-import gives the third question a topic; a section is renamed
        c.execute("UPDATE questions SET topic='dns' WHERE id=?", (q1[0][2],))
        c.execute("UPDATE sections SET title='Choices' WHERE id=(SELECT section_id FROM questions WHERE id=?)",
                  (q1[1][0],))

    await db.run_write(transaction)
    cells = (await _mastery(db, period_bounds("all", t0, ZoneInfo("UTC")))).cells
    assert cells == {(1, "dns"): (2 / 3, 3)}
    await _assert_kept(db)


async def test_the_migration_fills_the_summaries_from_an_old_database(tmp_path):
    dump, _ = RELEASES["0.1.0"]
    path = tmp_path / "old.db"
    load_release(dump, path)
    with sqlite3.connect(path) as old:
        daily_count = old.execute("SELECT COUNT(*) FROM daily_answers").fetchone()[0]
        exam_count = old.execute("SELECT COUNT(*) FROM answers WHERE final = 1").fetchone()[0]
    assert daily_count > 0 and exam_count > 0
    db = await Database.open(path)
    try:
        daily, exams = await _recomputed(db)
        assert daily == await _daily_summary(db) and exams == await _exam_summary(db)
        assert sum(r[8] for r in daily) == daily_count and sum(r[6] for r in exams) == exam_count
    finally:
        await db.close()


async def test_questions_without_a_topic_are_under_their_papers_subject_never_a_section(db):
    crafted, papers, q1, _ = await _setup(db)
    await crafted.exam(1, papers[0], [(q1[0][2], 0.0, 2.0, 1), (q1[1][0], 2.0, 2.0, 1)], BASE - 600, BASE)
    cells = (await _mastery(db, period_bounds("all", BASE, ZoneInfo("UTC")))).cells
    assert cells == {(1, "operations"): (0.5, 2)}  # two sections, one subject: one cell
    # a paper with no subject: its topicless questions are under '' (the desk's "(no topic)")
    bare, qb = await crafted.paper("bare", sections=(("single", 2), ("short", 1)), points=(1.0, 5.0))
    await crafted.exam(1, bare, [(qb[0][0], 1.0, 1.0, 1), (qb[1][0], 0.0, 5.0, 1)], BASE - 500, BASE)
    mastery = await _mastery(db, period_bounds("all", BASE, ZoneInfo("UTC")))
    assert mastery.topics == ["", "operations"] and mastery.cells[(1, "")] == (1 / 6, 2)


async def test_the_trend_of_chosen_members_is_theirs_from_the_whole_trend(db):
    crafted, _, q1, _ = await _setup(db)
    t0 = BASE + 9 * 3600
    for day in range(3):
        await crafted.daily(TEAM, _day(day), q1[0][:2], [(1, 0, 1.0, t0 + day * DAY), (2, 1, 0.5, t0 + day * DAY + 7),
                                                         (3, 0, 0.0, t0 + day * DAY + 9)])
    period = period_bounds("all", t0, ZoneInfo("UTC"))
    everyone = await daily_trend(db, TEAM, period)
    assert await daily_trend(db, TEAM, period, [2, 3]) == {u: everyone[u] for u in (2, 3)}
    assert await daily_trend(db, TEAM, period, []) == {}
