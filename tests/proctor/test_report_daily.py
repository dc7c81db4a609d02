"""Issue 22: Ann's row in the team's /report read daily_points 0, daily_answers 0 and streak 1 while
the group's daily board gave her 7 points. The daily quiz in a group is the group's (anyone in it
plays and ranks on its board, docs/leads.md), so a member's daily columns are the board's numbers
for the period, answers from before she joined the roster included, as her streak already was."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from proctor.teams import leaderboard as lb
from proctor.teams import reports
from tests.proctor.test_leads_data import Crafted
from tests.reads import lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

TEAM, ANN, BOB = -7, 1, 2
DAY = datetime(2026, 12, 3, tzinfo=UTC)
T = DAY.timestamp()


async def test_a_members_daily_columns_and_streak_agree_with_the_groups_board(db):
    c = Crafted(db)
    await c.group(TEAM, tz="UTC", members=(ANN, BOB))
    _, qs = await c.paper()
    await c.daily(TEAM, DAY.date().isoformat(), qs[0][:3], [(ANN, 0, 1.0, T + 60), (ANN, 1, 0.0, T + 70),
                                                           (ANN, 2, 1.0, T + 80), (BOB, 0, 1.0, T + 90)])
    await c.roster(TEAM, ANN, joined_at=T + 3600)  # she joined the roster after answering
    period = lb.period_bounds("month", T + 7200, lb.zone("UTC"))
    board = {r.user_id: r for r in await lb.full_ranking(db, TEAM, period)}
    _, rows = await reports.team_rows(db, await lead_lens(db, TEAM), period)
    [ann] = rows  # Bob is on the board, not on the roster: not in the report
    assert (ann.user_id, ann.daily_points, ann.daily_answers) == (ANN, board[ANN].points, board[ANN].answers) == (ANN, 2, 3)
    assert ann.daily_max == board[ANN].max_points and ann.streak == 1
    assert ann.exams == 0  # exams and practice still count from the join on (consent.seen_sql)
