"""A question's topic is its own, else its paper's subject (bank/topics.py), never a section's heading:
on the bundled bank (no question has a topic of its own; each paper has its subject) the desk's mastery
by topic, the digest's weakest topics, `/live <topic>` and a blueprint's `topic:NAME` read the five
subjects; `/live` names a paper as every command does (`pick_paper`: a code, either script). On SQLite and
on PostgreSQL (`db_location`)."""

from __future__ import annotations

import json
import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bank.paper_list import AmbiguousPaper
from bank.store import ids_in
from proctor.exams import blueprint as bp
from proctor.exams.visibility import AUDIENCE, Role, Viewer, lens
from proctor.live.draw import BadArgument, Request, draw
from proctor.storage.db import Database
from proctor.storage.location import parse_location
from proctor.teams.digest import weakest_topics
from proctor.teams.leaderboard import period_bounds
from proctor.teams.mastery import topic_mastery
from tests.proctor.test_leads_data import Crafted
from tests.template_pg import with_bundled_bank

NOW = datetime(2027, 1, 15, 12, tzinfo=ZoneInfo("UTC")).timestamp()
TEAM, LEAD = -100, 9
SUBJECTS = {1: "梯度累积", 2: "专家并行", 3: "混合精度数值稳定性", 4: "推理优化", 5: "优化器"}


@pytest.fixture
async def bank(db_location):
    await with_bundled_bank(parse_location(db_location), NOW)
    database = await Database.open(db_location)
    yield database
    await database.close()


async def _singles(db: Database, paper_id: int) -> list[int]:
    """The paper's askable single choices (what the daily quiz and the exams here ask)."""
    rows = await db.fetchall(
        "SELECT q.id FROM questions q LEFT JOIN question_checks c ON c.question_id = q.id "
        "WHERE q.paper_id=? AND q.kind='single' AND q.retired=0 AND COALESCE(c.held, '')='' ORDER BY q.id",
        (paper_id,))
    return [r[0] for r in rows]


async def _sections(db: Database) -> set[str]:
    return {r[0] for r in await db.fetchall("SELECT title FROM sections")}


async def _answered(db: Database) -> Crafted:
    """The team's week: daily answers on P1's and P3's single choices (two sections' headings: 二、单项选择题
    and 一、單選題), right on P1 and wrong on P3, and a member's exam on P4, half right."""
    c = Crafted(db)
    await c.group(TEAM, members=(1, 2, LEAD))
    await c.roster(TEAM, 1, 2)
    p1, p3, p4 = await _singles(db, 1), await _singles(db, 3), await _singles(db, 4)
    await c.daily(TEAM, "2027-01-14", p1[:3] + p3[:3],
                  [(u, pos, 1.0 if pos < 3 else 0.0, NOW - 86400 + u * 60 + pos) for u in (1, 2) for pos in range(6)])
    await c.exam(1, 4, [(q, 1.0 if i % 2 else 0.0, 1.0, 1) for i, q in enumerate(p4[:4])], NOW - 7200, NOW - 3600)
    return c


async def test_the_mastery_by_topic_shows_subjects_never_section_headings(bank):
    await _answered(bank)
    period = period_bounds("week", NOW, ZoneInfo("UTC"))
    mastery = await topic_mastery(bank, TEAM, period, await lens(bank, Viewer(Role.lead, LEAD), TEAM))
    assert mastery.topics == sorted([SUBJECTS[1], SUBJECTS[3], SUBJECTS[4]])
    assert not set(mastery.topics) & await _sections(bank)
    assert mastery.cells[(1, SUBJECTS[1])] == (1.0, 3) and mastery.cells[(2, SUBJECTS[3])] == (0.0, 3)
    assert mastery.cells[(1, SUBJECTS[4])] == (0.5, 4)  # the exam on P4


async def test_the_digests_weakest_topics_are_subjects(bank):
    await _answered(bank)
    weakest = await weakest_topics(bank, await lens(bank, AUDIENCE, TEAM), NOW - 7 * 86400, NOW)
    assert [(w.name, w.accuracy, w.answers) for w in weakest] == [
        (SUBJECTS[3], 0.0, 6), (SUBJECTS[4], 0.5, 4), (SUBJECTS[1], 1.0, 6)]
    assert not {w.name for w in weakest} & await _sections(bank)


async def _live(db: Database, subject: str) -> set[int]:
    """The papers a 30-question round on `subject` draws from."""
    drawn = await draw(db, await lens(db, AUDIENCE, TEAM), Request(30, 20, subject), lambda stem, options: True,
                       random.Random(7), shuffle=False, true_false=("True", "False"))
    ids = [d.question_id for d in drawn]
    rows = await db.fetchall(f"SELECT DISTINCT paper_id FROM questions WHERE id IN ({ids_in(db.engine)})",
                             (json.dumps(ids),))
    return {r[0] for r in rows}


@pytest.mark.parametrize("subject, papers", [
    ("P1", {1}), ("p4", {4}), ("3", {3}),  # a code, as every command takes it
    ("试题", {3}),  # Simplified text finds the Traditional title 2025年混合精度訓練數值穩定性試題
    ("推理優化工程師", {4}),  # and Traditional text the Simplified title 大模型推理优化工程师招聘笔试考试试卷和答案
    ("混合精度数值稳定性", {3}),  # in no title: P3's subject, the topic of its questions
    ("优化", {4, 5}),  # a part of two titles, and of two subjects (推理优化, 优化器): a topic of both
])
async def test_live_draws_from_the_paper_or_the_topic_named(bank, subject, papers):
    await Crafted(bank).group(TEAM, members=(1, 2))
    assert await _live(bank, subject) == papers


async def test_live_by_a_questions_own_topic_and_what_names_nothing(bank):
    await Crafted(bank).group(TEAM, members=(1, 2))
    own = (await _singles(bank, 4))[:2] + (await _singles(bank, 5))[:1]
    await bank.run_write(lambda c: c.execute(
        f"UPDATE questions SET topic='KV cache' WHERE id IN ({ids_in(bank.engine)})", (json.dumps(own),)))
    drawn = await draw(bank, await lens(bank, AUDIENCE, TEAM), Request(30, 20, "kv CACHE"), lambda s, o: True,
                       random.Random(1), shuffle=False, true_false=("True", "False"))
    assert sorted(d.question_id for d in drawn) == sorted(own)  # its own topic, across papers
    with pytest.raises(AmbiguousPaper) as named:  # a part of four titles and of no topic
        await _live(bank, "大模型")
    assert [p.code for p in named.value.matches] == ["P1", "P2", "P4", "P5"]
    with pytest.raises(BadArgument):
        await _live(bank, "单项选择题")  # a section's heading is no topic


async def test_a_blueprints_topic_is_a_subject_on_the_bundled_bank(bank):
    blueprint = bp.parse_lines("multi 3 topic:推理优化\nsingle 2 topic:梯度累积", await bp.paper_ids(bank))
    drawn = await bp.draw(bank, blueprint, random.Random(3), strict=True)
    papers = [r[0] for q in drawn for r in await bank.fetchall("SELECT paper_id FROM questions WHERE id=?",
                                                                (q[1].id,))]
    assert papers == [4, 4, 4, 1, 1]
