"""Issue 22: at the same moment the team's monthly CSV gave Ann a streak of 1 and the all-teams CSV 0.
Every report reads a streak through one rule (proctor/daily/streaks.py); this property checks that
they agree: a team's CSV, its leaderboard and /daily status give each member one number, and the
all-teams CSV gives each person the best of their teams' numbers."""

from __future__ import annotations

import asyncio
import csv
import io
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proctor.chats import chat_zone
from proctor.daily.streaks import streak
from proctor.storage.db import Database
from proctor.teams.leaderboard import board, period_bounds
from proctor.teams.reports import team_csv
from tests.proctor.test_leads_data import Crafted
from tests.reads import lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

BASE = datetime(2025, 3, 1, tzinfo=ZoneInfo("UTC")).timestamp()
DAY = 86400.0
TEAMS = {-1: "Asia/Shanghai", -2: "America/New_York"}
PEOPLE = (1, 2, 3)
DEFAULT_ZONE = "UTC"


def _streaks_in(data: bytes) -> dict[int, int]:
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    return {int(r["user_id"]): int(r["streak"]) for r in rows}


# a quiz: (team, day 0..9, who answered it, seconds after the quiz day's UTC midnight they answered)
quiz = st.tuples(st.sampled_from(sorted(TEAMS)), st.integers(0, 9), st.frozensets(st.sampled_from(PEOPLE)),
                 st.floats(0, DAY - 1, allow_nan=False))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quizzes=st.lists(quiz, max_size=14, unique_by=lambda q: (q[0], q[1])),
       rosters=st.tuples(st.frozensets(st.sampled_from(PEOPLE)), st.frozensets(st.sampled_from(PEOPLE))),
       now_offset=st.floats(0, 11 * DAY, allow_nan=False), period=st.sampled_from(("today", "month", "all")))
def test_every_report_gives_one_streak(quizzes, rosters, now_offset, period):
    async def scenario(path: Path) -> None:
        db = await Database.open(path)
        try:
            crafted = Crafted(db)
            for (chat_id, tz), roster in zip(TEAMS.items(), rosters, strict=True):
                await crafted.group(chat_id, title=f"team {chat_id}", tz=tz, members=PEOPLE)
                await crafted.roster(chat_id, *roster)
            _, qs = await crafted.paper()
            for chat_id, day, who, seconds in quizzes:
                iso = (datetime.fromtimestamp(BASE, ZoneInfo("UTC")).date() + timedelta(days=day)).isoformat()
                await crafted.daily(chat_id, iso, qs[0][:1],
                                    [(uid, 0, 1.0, BASE + day * DAY + seconds) for uid in sorted(who)])
            now = BASE + now_offset
            best: dict[int, int] = {}
            for chat_id, roster in zip(TEAMS, rosters, strict=True):
                p = period_bounds(period, now, await chat_zone(db, chat_id, DEFAULT_ZONE))
                in_csv = _streaks_in((await team_csv(db, await lead_lens(db, chat_id), p))[0])
                assert set(in_csv) == set(roster)
                ranked = {r.user_id: r.streak for r in (await board(db, chat_id, period_bounds("all", now, ZoneInfo(
                    p.zone)), top=len(PEOPLE))).top}
                for uid in roster:
                    status = await streak(db, chat_id, uid, p.today)  # what /daily status reads
                    assert in_csv[uid] == status, (chat_id, uid)
                    if uid in ranked:
                        assert ranked[uid] == status, (chat_id, uid)
                    best[uid] = max(best.get(uid, 0), status)
            everyone = period_bounds(period, now, ZoneInfo(DEFAULT_ZONE))
            all_teams = _streaks_in((await team_csv(db, await lead_lens(db, None), everyone))[0])
            assert {uid: all_teams[uid] for uid in best} == best
            assert all(all_teams[uid] == 0 for uid in all_teams if uid not in best)
        finally:
            await db.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "proctor.db"))


async def test_a_member_s_streak_is_the_same_in_the_team_csv_and_the_all_teams_csv(db):
    """The case of the issue: Ann answered today's quiz of her team; both CSVs say 1."""
    crafted = Crafted(db)
    await crafted.group(-1, title="ops", tz="Asia/Shanghai", members=(1,))
    await crafted.roster(-1, 1)
    _, qs = await crafted.paper()
    await crafted.daily(-1, "2025-03-01", qs[0][:1], [(1, 0, 1.0, BASE + 3600)])
    now = BASE + 2 * 3600  # 10:00 in Shanghai, the same day
    team = period_bounds("month", now, await chat_zone(db, -1, DEFAULT_ZONE))
    assert _streaks_in((await team_csv(db, await lead_lens(db, -1), team))[0]) == {1: 1}
    assert _streaks_in((await team_csv(db, await lead_lens(db, None), period_bounds("month", now, ZoneInfo(DEFAULT_ZONE))))[0])[1] == 1
