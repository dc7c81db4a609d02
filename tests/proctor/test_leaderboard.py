"""Leaderboards on crafted data: ties, periods across midnight in two timezones, several groups."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from proctor.teams.leaderboard import UnknownPeriod, board, chat_zone, my_groups, paper_board, period_bounds
from tests.proctor.test_leads_data import Crafted


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")


def at(tz, *args) -> float:
    return datetime(*args, tzinfo=tz).timestamp()


@pytest.fixture
async def crafted(db):
    return Crafted(db)


async def test_more_points_first_and_ties_go_to_whoever_finished_earlier(db, crafted):
    await crafted.group(-1, tz="UTC", members=(1, 2, 3, 4))
    _, qs = await crafted.paper()
    q = qs[0]
    t0 = at(ZoneInfo("UTC"), 2025, 3, 5, 9)
    await crafted.daily(-1, "2025-03-05", q[:2], [
        (1, 0, 1, t0 + 50), (1, 1, 1, t0 + 90),    # 2 points, last at +90
        (2, 0, 1, t0 + 10), (2, 1, 1, t0 + 60),    # 2 points, last at +60: wins the tie
        (3, 0, 1, t0 + 5), (3, 1, 0, t0 + 6),      # 1 point
        (4, 0, 0.5, t0 + 1),                       # half a point
    ])
    b = await board(db, -1, period_bounds("today", t0 + 3600, ZoneInfo("UTC")), me=4)
    assert [(r.rank, r.user_id, r.points) for r in b.top] == [(1, 2, 2), (2, 1, 2), (3, 3, 1), (4, 4, 0.5)]
    assert b.top[2].accuracy == 0.5 and b.top[2].correct == 1 and b.top[2].answers == 2
    assert b.me.rank == 4 and b.ranked == 4


async def test_top_ten_plus_the_callers_own_row(db, crafted):
    await crafted.group(-1, members=tuple(range(1, 16)))
    _, qs = await crafted.paper(sections=(("single", 15),), points=(1.0,))
    t0 = at(ZoneInfo("UTC"), 2025, 3, 5, 9)
    # user u answers u questions correctly: user 15 leads, user 1 is last
    answers = [(u, p, 1, t0 + u) for u in range(1, 16) for p in range(u)]
    await crafted.daily(-1, "2025-03-05", qs[0], answers)
    b = await board(db, -1, period_bounds("all", t0, ZoneInfo("UTC")), me=1)
    assert [r.user_id for r in b.top] == list(range(15, 5, -1))
    assert b.me.user_id == 1 and b.me.rank == 15 and b.ranked == 15
    mid = await board(db, -1, period_bounds("all", t0, ZoneInfo("UTC")), me=14)
    assert len(mid.top) == 10 and mid.me.rank == 2


async def test_non_members_and_other_groups_are_not_ranked(db, crafted):
    await crafted.group(-1, members=(1,))
    await crafted.group(-2, members=(1, 2))
    await crafted.user(3)
    _, qs = await crafted.paper()
    t0 = at(ZoneInfo("UTC"), 2025, 3, 5, 9)
    await crafted.daily(-1, "2025-03-05", qs[0][:1], [(1, 0, 1, t0), (3, 0, 1, t0)])  # 3 is no member
    await crafted.daily(-2, "2025-03-05", qs[0][:1], [(2, 0, 1, t0), (1, 0, 0, t0 + 1)])
    one = await board(db, -1, period_bounds("all", t0, ZoneInfo("UTC")))
    two = await board(db, -2, period_bounds("all", t0, ZoneInfo("UTC")), me=1)
    assert [r.user_id for r in one.top] == [1]
    assert [(r.user_id, r.points) for r in two.top] == [(2, 1), (1, 0)]
    assert two.me.rank == 2
    assert sorted(g[0] for g in await my_groups(db, 1)) == [-2, -1]
    assert [g[0] for g in await my_groups(db, 2)] == [-2]


@pytest.mark.parametrize("period,first,last", [
    ("today", (2025, 3, 5), (2025, 3, 6)),
    ("week", (2025, 3, 3), (2025, 3, 10)),   # Monday to Monday
    ("month", (2025, 3, 1), (2025, 4, 1)),
])
@pytest.mark.parametrize("tz", [SH, NY])
def test_period_bounds_are_local_midnights(period, first, last, tz):
    now = at(tz, 2025, 3, 5, 23, 59)
    p = period_bounds(period, now, tz)
    assert p.start == at(tz, *first) and p.end == at(tz, *last)
    assert p.today == date(2025, 3, 5)


def test_period_all_is_open_and_unknown_periods_raise():
    p = period_bounds("all", 0, SH)
    assert p.start is None and p.end is None
    with pytest.raises(UnknownPeriod):
        period_bounds("year", 0, SH)


async def test_today_across_midnight_in_two_timezones(db, crafted):
    """One instant is 'yesterday' in New York and 'today' in Shanghai."""
    await crafted.group(-1, tz="Asia/Shanghai", members=(1, 2))
    await crafted.group(-2, tz="America/New_York", members=(1, 2))
    _, qs = await crafted.paper()
    q = qs[0][:1]
    # 23:30 and 00:30 local time on either side of midnight, in each group's zone
    await crafted.daily(-1, "2025-03-04", q, [(1, 0, 1, at(SH, 2025, 3, 4, 23, 30))])
    await crafted.daily(-1, "2025-03-05", q, [(2, 0, 1, at(SH, 2025, 3, 5, 0, 30))])
    await crafted.daily(-2, "2025-03-04", q, [(1, 0, 1, at(NY, 2025, 3, 4, 23, 30))])
    await crafted.daily(-2, "2025-03-05", q, [(2, 0, 1, at(NY, 2025, 3, 5, 0, 30))])
    for chat, tz in ((-1, SH), (-2, NY)):
        assert (await chat_zone(db, chat, "UTC")).key == tz.key
        now = at(tz, 2025, 3, 5, 8)
        today = await board(db, chat, period_bounds("today", now, tz))
        assert [r.user_id for r in today.top] == [2]
        week = await board(db, chat, period_bounds("week", now, tz))
        assert {r.user_id for r in week.top} == {1, 2}
    # the instant 2025-03-05 00:30 in Shanghai is 2025-03-04 11:30 in New York: yesterday there
    ny_today = period_bounds("today", at(NY, 2025, 3, 5, 8), NY)
    assert not ny_today.start <= at(SH, 2025, 3, 5, 0, 30) < ny_today.end


async def test_week_starts_on_monday_in_the_groups_zone(db, crafted):
    await crafted.group(-1, tz="Asia/Shanghai", members=(1, 2))
    _, qs = await crafted.paper()
    q = qs[0][:1]
    await crafted.daily(-1, "2025-03-02", q, [(1, 0, 1, at(SH, 2025, 3, 2, 23, 59))])  # Sunday
    await crafted.daily(-1, "2025-03-03", q, [(2, 0, 1, at(SH, 2025, 3, 3, 0, 1))])    # Monday
    b = await board(db, -1, period_bounds("week", at(SH, 2025, 3, 4, 12), SH))
    assert [r.user_id for r in b.top] == [2]


async def test_chat_without_timezone_uses_the_default(db, crafted):
    await crafted.group(-1, tz=None)
    assert (await chat_zone(db, -1, "Asia/Shanghai")).key == "Asia/Shanghai"
    await crafted.group(-2, tz="Not/AZone")
    assert (await chat_zone(db, -2, "Asia/Shanghai")).key == "Asia/Shanghai"


async def test_board_shows_streaks(db, crafted):
    await crafted.group(-1, members=(1, 2))
    _, qs = await crafted.paper()
    q = qs[0][:1]
    utc = ZoneInfo("UTC")
    for d in (1, 2, 3):
        who = [(1, 0, 1, at(utc, 2025, 3, d, 9))] + ([(2, 0, 1, at(utc, 2025, 3, d, 9))] if d != 2 else [])
        await crafted.daily(-1, f"2025-03-0{d}", q, who)
    b = await board(db, -1, period_bounds("all", at(utc, 2025, 3, 3, 12), utc))
    assert {r.user_id: r.streak for r in b.top} == {1: 3, 2: 1}


async def test_paper_board_best_exam_then_less_time(db, crafted):
    await crafted.group(-1, members=(1, 2, 3, 9))
    await crafted.roster(-1, 1, 2, 3)  # 9 wrote in the group but is not on its roster: not in the team
    pid, qs = await crafted.paper()
    q1, q2 = qs[0][0], qs[0][1]
    await crafted.exam(1, pid, [(q1, 1, 1, 1), (q2, 0, 1, 1)], 0, 900)
    await crafted.exam(1, pid, [(q1, 1, 1, 1), (q2, 1, 1, 1)], 1000, 2800)   # best: 2 in 1800 s
    await crafted.exam(2, pid, [(q1, 1, 1, 1), (q2, 1, 1, 1)], 0, 600)       # 2 in 600 s: first
    await crafted.exam(3, pid, [(q1, 1, 1, 1), (qs[1][0], 3, 5, 0)], 0, 60)  # provisional
    await crafted.exam(9, pid, [(q1, 1, 1, 1), (q2, 1, 1, 1)], 0, 10)
    rows = await paper_board(db, pid, [-1], invited=True)
    assert rows[0].user_id == 3 and rows[0].provisional  # 4 points, provisional
    assert [(r.user_id, r.seconds) for r in rows[1:]] == [(2, 600), (1, 1800)]
    assert 9 in [r.user_id for r in await paper_board(db, pid, None, invited=True)]
    assert await paper_board(db, pid, [], invited=True) == []
    assert [r.user_id for r in await paper_board(db, pid, [], also=9, invited=True)] == [9]


async def test_paper_board_counts_the_last_attempt_when_the_paper_says_so(db, crafted):
    await crafted.group(-1, members=(1,))
    await crafted.roster(-1, 1)
    pid, qs = await crafted.paper()
    q1, q2 = qs[0][0], qs[0][1]
    await crafted.exam(1, pid, [(q1, 1, 1, 1), (q2, 1, 1, 1)], 0, 900)      # 2 points, earlier
    await crafted.exam(1, pid, [(q1, 1, 1, 1), (q2, 0, 1, 1)], 1000, 1300)  # 1 point, last
    assert [r.score for r in await paper_board(db, pid, [-1], invited=True)] == [2]
    from proctor.teams.curation import update_settings

    await update_settings(db, str(pid), actor=0, now=5000, grading_method="last")
    assert [(r.score, r.seconds) for r in await paper_board(db, pid, [-1], invited=True)] == [(1, 300)]


@pytest.mark.parametrize("method", ["best", "last"])
async def test_paper_board_ranks_and_limits_in_sql_like_ranking_every_candidate(db, crafted, method):
    import random

    from proctor.teams.curation import update_settings

    rnd = random.Random(5)
    members = tuple(range(1, 31))
    await crafted.group(-1, members=members)
    await crafted.roster(-1, *members)  # exam boards rank the team roster
    pid, qs = await crafted.paper()
    q1, q2 = qs[0][0], qs[0][1]
    await update_settings(db, str(pid), actor=0, now=1, grading_method=method)
    exams: dict[int, list[tuple[float, float, float]]] = {}
    for i in range(70):
        user = rnd.choice(members)
        start = 1000.0 * i
        seconds = rnd.choice((300.0, 600.0))
        marks = (rnd.randint(0, 1), rnd.randint(0, 1))
        await crafted.exam(user, pid, [(q1, marks[0], 1, 1), (q2, marks[1], 1, 1)], start, start + seconds)
        exams.setdefault(user, []).append((float(sum(marks)), seconds, start))
    counted = {u: (max(e, key=lambda x: x[2]) if method == "last" else min(e, key=lambda x: (-x[0], x[1], x[2])))
               for u, e in exams.items()}
    order = sorted(counted, key=lambda u: (-counted[u][0], counted[u][1], counted[u][2]))
    expected = [(i, u, counted[u][0], counted[u][1]) for i, u in enumerate(order, start=1)]
    asker = order[-1]
    for scope in ([-1], None):
        rows = await paper_board(db, pid, scope, also=asker, top=5, invited=True)
        assert [(r.rank, r.user_id, r.score, r.seconds) for r in rows] == expected[:5] + expected[-1:]
        rows = await paper_board(db, pid, scope, top=100, invited=True)
        assert [(r.rank, r.user_id, r.score, r.seconds) for r in rows] == expected
