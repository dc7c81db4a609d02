"""The team CSV speaks in codes and titles: a column for the paper and every one of its sections (named
without numbering or note, never by a slug), and for the mock paper; a section sat and scored 0 reads 0,
one not sat is blank; its streak is the leaderboard's."""

from zoneinfo import ZoneInfo

import pytest

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from proctor.exams.service import MOCK_TITLE
from proctor.teams.leaderboard import board, period_bounds
from proctor.teams.reports import team_csv, team_rows
from tests.papers_fixture import save_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ALPHA = -100


async def test_columns_are_titles_for_every_section_and_the_mock_paper(db):
    c = Crafted(db)
    await c.group(ALPHA, "Alpha", members=(1, 2))
    await c.roster(ALPHA, 1, 2)
    pid, qs = await c.paper(sections=(("single", 2), ("short", 1)), points=(1.0, 5.0))
    await c.exam(1, pid, [(qs[0][0], 1, 1, 1), (qs[0][1], 0, 1, 1)], 100, 200)  # the short section unanswered
    await c.exam(2, None, [(qs[0][0], 1, 1, 1)], 100, 200, title=MOCK_TITLE, section="单项选择题")
    await c.daily(ALPHA, "1970-01-01", [qs[0][0]], [(1, 0, 1, 150)])
    period = period_bounds("all", 1000, ZoneInfo("UTC"))
    columns, rows = await team_rows(db, await lead_lens(db, ALPHA), period)
    assert columns == ["P1 Paper ops", "P1 Paper ops · single part", "P1 Paper ops · short part",
                       "Mock paper · 模拟卷", "Mock paper · 模拟卷 · 单项选择题"]
    by_user = {r.user_id: r for r in rows}
    assert by_user[1].best == {"P1 Paper ops": 1, "P1 Paper ops · single part": 1}
    assert by_user[2].best == {"Mock paper · 模拟卷": 1, "Mock paper · 模拟卷 · 单项选择题": 1}
    shown = await board(db, ALPHA, period, me=1)
    assert by_user[1].streak == shown.me.streak == 1


def _titled(slug: str, title: str) -> Paper:
    """A paper whose sections are titled as a file numbers them: "一、单项选择题（每题1分）"."""
    return Paper(slug=slug, title=title, sections=[
        Section(kind=Kind.single, title="一、单项选择题（每题1分）", questions=[
            Question(number=n, kind=Kind.single, stem=f"单选 {n}", options=["a", "b"], answer="A", points=1)
            for n in (1, 2)]),
        Section(kind=Kind.short, title="二、简答题（每题5分）", questions=[
            Question(number=1, kind=Kind.short, stem="简答", answer="参考", points=5)]),
        Section(kind=Kind.truefalse, title="三、判断题", questions=[
            Question(number=1, kind=Kind.truefalse, stem="判断", answer=True, points=1)])])


async def test_a_section_sat_and_scored_0_reads_0_and_one_not_sat_is_blank(db):
    c = Crafted(db)
    await c.group(ALPHA, "Alpha", members=(1,))
    await c.roster(ALPHA, 1)
    pid = await save_paper(db, _titled("000_55527286228126e4", "Same title"), 0)
    code = await db.scalar("SELECT code FROM papers WHERE id=?", (pid,))
    single, short, _ = [[r[0] for r in await db.fetchall(
        "SELECT q.id FROM questions q JOIN sections s ON s.id = q.section_id WHERE q.paper_id=? AND s.position=? "
        "ORDER BY q.number", (pid, pos))] for pos in (1, 2, 3)]
    # both single-choice questions wrong (0 of 2); the written one left unanswered; the true/false not on the sheet
    await c.exam(1, pid, [(single[0], 0, 1, 1), (single[1], 0, 1, 1), (short[0], 0, 5, 1)], 100, 200,
                 responses=["B", "B", None])
    period = period_bounds("all", 1000, ZoneInfo("UTC"))
    columns, rows = await team_rows(db, await lead_lens(db, ALPHA), period)
    head = f"{code} Same title"
    assert columns == [head, f"{head} · 单项选择题", f"{head} · 简答题", f"{head} · 判断题"]
    [row] = rows
    assert row.best == {head: 0, f"{head} · 单项选择题": 0, f"{head} · 简答题": 0}
    data = (await team_csv(db, await lead_lens(db, ALPHA), period))[0].decode("utf-8-sig")
    header, line = data.splitlines()[:2]
    cells = dict(zip(header.split(","), line.split(","), strict=True))
    assert (cells[head], cells[f"{head} · 单项选择题"], cells[f"{head} · 简答题"], cells[f"{head} · 判断题"]) == (
        "0", "0", "0", "")
    assert "000_" not in data  # never the slug
