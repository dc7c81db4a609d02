"""The daily_scores summary (migration 024, proctor/daily/scores.py): the leaderboard read from it
equals the leaderboard computed from the raw daily answers, over random data, periods and zones;
a regrade, /forgetme and the migration of an old database keep it right."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proctor.daily import scores
from proctor.daily.streaks import streaks
from proctor.people.forget import forget_user
from proctor.storage.db import Database
from proctor.teams.leaderboard import Period, board, full_ranking, period_bounds
from proctor.teams.mastery import daily_trend
from proctor.teams.question_edit import Edit, EditField, edit_question
from tests.proctor.test_leads_data import Crafted
from tests.proctor.test_upgrade import RELEASES, load_release

ZONES = ("UTC", "Asia/Shanghai", "America/New_York", "Asia/Kathmandu", "Australia/Adelaide")
BASE = datetime(2025, 3, 1, tzinfo=ZoneInfo("UTC")).timestamp()
DAY = 86400.0
MEMBERS = (1, 2, 3, 4, 5)
OUTSIDER = 6  # answers in the group but is not on chat_members: never ranked

# The leaderboard as it was computed before the summary: straight from daily_answers (the oracle), but for
# the answers of a group's quiz whose keys are not posted yet. Raw SQL kept on purpose: the property
# compares the summary's board against this independent reference query.
_NOT_HELD = ("delivery_id NOT IN (SELECT d.id FROM daily_deliveries d JOIN chats c ON c.id = d.chat_id "
             "WHERE c.type != 'private' AND d.closed_at IS NULL)")
_RAW = f"""
WITH agg AS (
  SELECT user_id, SUM(score) AS points, SUM(max_score) AS max_points, COUNT(*) AS answers,
         SUM(verdict = 'correct') AS correct, MAX(answered_at) AS last_at
  FROM daily_answers WHERE chat_id = :chat AND answered_at >= :start AND answered_at < :end AND {_NOT_HELD}
  GROUP BY user_id)
SELECT ROW_NUMBER() OVER (ORDER BY points DESC, last_at ASC, agg.user_id ASC) AS rank, agg.user_id,
       points, max_points, answers, correct, last_at
FROM agg JOIN chat_members m ON m.chat_id = :chat AND m.user_id = agg.user_id ORDER BY rank"""
_RAW_TREND = ("SELECT user_id, day, SUM(score) FROM daily_answers WHERE chat_id=:chat AND answered_at>=:start "
              f"AND answered_at<:end AND {_NOT_HELD} GROUP BY user_id, day ORDER BY user_id, day")


def _bounds(period: Period) -> dict[str, object]:
    return {"start": period.start if period.start is not None else float("-inf"),
            "end": period.end if period.end is not None else float("inf")}


async def _raw(db: Database, chat_id: int, period: Period) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.fetchall(_RAW, {"chat": chat_id, **_bounds(period)})]


async def _summed(db: Database, chat_id: int, period: Period) -> list[tuple[object, ...]]:
    return [(r.rank, r.user_id, r.points, r.max_points, r.answers, r.correct, r.last_at)
            for r in await full_ranking(db, chat_id, period)]


async def _group(db: Database) -> tuple[Crafted, list[int]]:
    crafted = Crafted(db)
    await crafted.group(-1, members=MEMBERS)
    await crafted.group(-2, members=MEMBERS)
    await crafted.user(OUTSIDER)
    _, qs = await crafted.paper(options=("one", "two", "three"))  # options, so a key can move to B
    return crafted, qs[0]


# an answer: (user, quiz day 0..40, position 0..2, score, seconds after the quiz day's UTC midnight)
answer = st.tuples(st.sampled_from((*MEMBERS, OUTSIDER)), st.integers(0, 40), st.integers(0, 2),
                   st.sampled_from((0.0, 0.25, 0.5, 1.0)),
                   st.one_of(st.integers(0, 2 * 96).map(lambda q: q * 450.0),  # on and off slot bounds
                             st.floats(0, 2 * DAY, allow_nan=False).map(lambda s: round(s, 3))))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers=st.lists(answer, max_size=60), held=st.sets(st.integers(0, 40), max_size=3), zone=st.sampled_from(ZONES),
       now_offset=st.floats(0, 45 * DAY, allow_nan=False), digest_start=st.floats(0, 40 * DAY, allow_nan=False),
       edges=st.tuples(st.integers(0, 59), st.integers(0, 59), st.floats(0, 900), st.floats(0, 900)))
def test_the_board_from_the_summary_equals_the_board_from_raw_answers(answers, held, zone, now_offset,
                                                                      digest_start, edges):
    async def scenario(path: Path) -> None:
        db = await Database.open(path)
        try:
            crafted, qids = await _group(db)
            by_day: dict[int, dict[tuple[int, int], tuple[int, int, float, float]]] = {}
            for uid, day, pos, score, seconds in answers:  # the first answer to an item counts
                by_day.setdefault(day, {}).setdefault((uid, pos), (uid, pos, score, BASE + day * DAY + seconds))
            for day, rows in sorted(by_day.items()):
                iso = datetime.fromtimestamp(BASE + day * DAY, ZoneInfo("UTC")).date().isoformat()
                await crafted.daily(-1, iso, qids[:3], list(rows.values()), held=day in held)  # keys not posted
                await crafted.daily(-2, iso, qids[:3], list(rows.values())[:1])  # another group's
            tz, now = ZoneInfo(zone), BASE + now_offset
            periods = [period_bounds(name, now, tz) for name in ("today", "week", "month", "all")]
            periods.append(Period("digest", BASE + digest_start, BASE + digest_start + 7 * DAY, periods[0].today))
            if answers:  # bounds off the quarter hours, just around answers: the raw edges count
                times = sorted(BASE + a[1] * DAY + a[4] for a in answers)
                first, last = times[edges[0] % len(times)], times[edges[1] % len(times)]
                periods.append(Period("edges", first - edges[2], max(first, last) + edges[3], periods[0].today))
            for period in periods:
                assert await _summed(db, -1, period) == await _raw(db, -1, period), period
                trend = await daily_trend(db, -1, period)
                raw_trend = await db.fetchall(_RAW_TREND, {"chat": -1, **_bounds(period)})
                assert [(u, d, p) for u, days in trend.items() for d, p in days] == [tuple(r) for r in raw_trend]
            mine = await board(db, -1, periods[3], me=5, top=2)
            raw = await _raw(db, -1, periods[3])
            assert [r.user_id for r in mine.top] == [r[1] for r in raw[:2]] and mine.ranked == len(raw)
        finally:
            await db.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "proctor.db"))


def test_slot_ranges_cover_a_period_exactly_once():
    assert scores.slot_range(900.0, 2700.0) == (1, 3, (0.0, 0.0), (0.0, 0.0))
    assert scores.slot_range(1000.0, 2700.5) == (2, 3, (1000.0, 1800.0), (2700.0, 2700.5))
    assert scores.slot_range(1000.0, 1500.0) == (0, 0, (1000.0, 1500.0), (0.0, 0.0))  # inside one slot
    lo, hi, before, after = scores.slot_range(None, None)
    assert lo < 0 < hi and before == after == (0.0, 0.0)


# The summary table itself (migration 024) against the migration's own query: raw SQL, as a schema check.
async def _summary(db: Database) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.fetchall("SELECT * FROM daily_scores ORDER BY chat_id, slot, user_id, day")]


async def _recomputed(db: Database) -> list[tuple[object, ...]]:
    """daily_scores as migration 024 computes it from daily_answers."""
    return [tuple(r) for r in await db.fetchall(
        "SELECT chat_id, CAST(answered_at AS INTEGER) / 900 AS slot, user_id, day, SUM(score), SUM(max_score), "
        "COUNT(*), SUM(verdict = 'correct'), MAX(answered_at) FROM daily_answers "
        "GROUP BY chat_id, slot, user_id, day ORDER BY chat_id, slot, user_id, day")]


async def test_a_regrade_updates_the_summary_and_the_board(db):
    crafted, qids = await _group(db)
    t0 = BASE + 9 * 3600
    await crafted.daily(-1, "2025-03-01", qids[:1], [(1, 0, 1.0, t0), (2, 0, 0.0, t0 + 60)], responses={2: "B"})
    period = period_bounds("all", t0, ZoneInfo("UTC"))
    assert [(r.user_id, r.points, r.correct) for r in await full_ranking(db, -1, period)] == [(1, 1.0, 1), (2, 0.0, 0)]
    await edit_question(db, qids[0], Edit(EditField.key, "B"), actor=9, now=t0 + 3600, chat_id=-1, regrade=True)
    assert [(r.user_id, r.points, r.correct) for r in await full_ranking(db, -1, period)] == [(2, 1.0, 1), (1, 0.0, 0)]
    assert await _summary(db) == await _recomputed(db)


async def test_forgetme_removes_the_users_summary_rows(db):
    crafted, qids = await _group(db)
    t0 = BASE + 9 * 3600
    await crafted.daily(-1, "2025-03-01", qids[:2], [(1, 0, 1.0, t0), (1, 1, 0.5, t0 + 5), (2, 0, 1.0, t0 + 60)])
    await crafted.daily(-2, "2025-03-02", qids[:1], [(1, 0, 1.0, t0 + DAY), (3, 0, 0.0, t0 + DAY)])
    assert {r[2] for r in await _summary(db)} == {1, 2, 3}
    assert (await streaks(db, -1, [1], "2025-03-01"))[1] == 1
    await forget_user(db, 1)
    assert {r[2] for r in await _summary(db)} == {2, 3}
    assert await _summary(db) == await _recomputed(db)
    assert (await streaks(db, -1, [1], "2025-03-01"))[1] == 0
    period = period_bounds("all", t0, ZoneInfo("UTC"))
    assert [r.user_id for r in await full_ranking(db, -1, period)] == [2]


async def test_the_migration_fills_the_summary_from_an_old_database(tmp_path):
    dump, _ = RELEASES["0.1.0"]
    path = tmp_path / "old.db"
    load_release(dump, path)
    with sqlite3.connect(path) as old:  # the schema itself: what release 0.1.0 stored, before migrating
        raw_count = old.execute("SELECT COUNT(*) FROM daily_answers").fetchone()[0]
    assert raw_count > 0
    db = await Database.open(path)
    try:
        summary = await _summary(db)
        assert summary and summary == await _recomputed(db)
        assert sum(r[6] for r in summary) == raw_count
        for (chat_id,) in await db.fetchall("SELECT DISTINCT chat_id FROM daily_answers"):  # the migrated rows
            period = period_bounds("all", 0.0, ZoneInfo("UTC"))
            assert await _summed(db, chat_id, period) == await _raw(db, chat_id, period)
    finally:
        await db.close()
