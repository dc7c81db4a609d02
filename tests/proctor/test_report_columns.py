"""The team CSV speaks in titles: a column for the paper and every one of its sections, and for the mock
paper; its streak is the leaderboard's."""

from zoneinfo import ZoneInfo

from proctor.exams.service import MOCK_TITLE
from proctor.teams.leaderboard import board, period_bounds
from proctor.teams.reports import team_rows
from tests.proctor.test_leads_data import Crafted
from tests.reads import lead_lens

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
    assert columns == ["Paper ops", "Paper ops · single part", "Paper ops · short part",
                       "Mock paper · 模拟卷", "Mock paper · 模拟卷 · 单项选择题"]
    by_user = {r.user_id: r for r in rows}
    assert by_user[1].best == {"Paper ops": 1, "Paper ops · single part": 1}
    assert by_user[2].best == {"Mock paper · 模拟卷": 1, "Mock paper · 模拟卷 · 单项选择题": 1}
    shown = await board(db, ALPHA, period, me=1)
    assert by_user[1].streak == shown.me.streak == 1
