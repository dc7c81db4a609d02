"""Leaderboards: a group's daily-quiz ranking over a period, and best exam scores per paper.

Ranking rule: more points first; on equal points, whoever gave their last answer of the period
earlier ranks higher (they got there first); then the lower user id, so the order is stable.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from bank.kinds import GradingMethod
from bank.store import indexed_by
from proctor.chats import chat_zone as chat_zone  # their home: proctor/chats.py
from proctor.chats import note_member as note_member
from proctor.daily import scores
from proctor.daily.streaks import streaks
from proctor.errors import ProctorError
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.live import board as live_board
from proctor.local_time import zone as zone  # callers use lb.zone; its home is proctor/local_time.py
from proctor.storage.db import Database
from proctor.teams.consent import member_ids_sql, seen_sql

PERIODS = ("today", "week", "month", "all")
TOP = 10


class UnknownPeriod(ProctorError):
    """The period is not one of today, week, month, all."""


@dataclass(frozen=True, slots=True)
class Period:
    name: str
    start: float | None  # None: since the beginning
    end: float | None  # None: open-ended
    today: date  # the local date at `now`, for streaks
    now: float | None = None  # the moment it was taken at (period_bounds)
    zone: str = "UTC"  # the zone `today` was taken in: every team's report falls back to it


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    user_id: int
    name: str
    points: float
    max_points: float
    answers: int
    correct: int
    last_at: float
    streak: int = 0

    @property
    def accuracy(self) -> float:
        return self.points / self.max_points if self.max_points else 0.0


@dataclass(frozen=True, slots=True)
class Board:
    chat_id: int
    period: Period
    top: list[Row]
    me: Row | None  # the caller's row, also when it is already in `top`
    ranked: int  # how many members scored in the period
    held_until: float | None = None  # a group quiz's answers are left out until it closes then (scores.held)


def period_bounds(name: str, now: float, tz: ZoneInfo) -> Period:
    """The period `name` containing `now`, with local-midnight boundaries in `tz`; weeks start
    on Monday. Raises UnknownPeriod."""
    local = datetime.fromtimestamp(now, tz)
    today = local.date()
    if name == "all":
        return Period(name, None, None, today, now, tz.key)
    if name == "today":
        first, last = today, today + timedelta(days=1)
    elif name == "week":
        first = today - timedelta(days=today.weekday())
        last = first + timedelta(days=7)
    elif name == "month":
        first = today.replace(day=1)
        last = (first + timedelta(days=32)).replace(day=1)
    else:
        raise UnknownPeriod(name)
    return Period(name, _midnight(first, tz), _midnight(last, tz), today, now, tz.key)


def _midnight(day: date, tz: ZoneInfo) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()


_BOARD = """
WITH agg AS (
  SELECT user_id, SUM(score) AS points, SUM(max_score) AS max_points, SUM(answers) AS answers,
         SUM(correct) AS correct, MAX(last_at) AS last_at
  FROM ({source}) source
  GROUP BY user_id
), ranked AS (
  SELECT agg.*, ROW_NUMBER() OVER (ORDER BY points DESC, last_at ASC, agg.user_id ASC) AS rank,
         COUNT(*) OVER () AS ranked
  FROM agg JOIN chat_members m ON m.chat_id = :chat AND m.user_id = agg.user_id
)
SELECT ranked.*, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name
FROM ranked JOIN users u ON u.id = ranked.user_id
WHERE rank <= :top OR ranked.user_id = :me
ORDER BY rank
"""


class Points(StrEnum):
    """Which points a group's board ranks."""

    daily = "daily"  # the daily quiz's
    live = "live"  # live rounds' (proctor/live/)


async def _ranked(db: Database, chat_id: int, period: Period, me: int | None, top: int,
                  points: Points = Points.daily) -> list[sqlite3.Row]:
    """The ranking from the daily_scores summary (proctor/daily/scores.py: why and how it is kept),
    or from the live rounds' answers."""
    match points:
        case Points.daily:
            source, values = scores.source(db.engine, period.start, period.end)
        case Points.live:
            source, values = live_board.source(period.start, period.end)
    return await db.fetchall(_BOARD.format(source=source), {
        "chat": chat_id, **values, "top": top, "me": me if me is not None else 0})


async def full_ranking(db: Database, chat_id: int, period: Period) -> list[Row]:
    """Every member who scored in the period, in rank order (streaks not computed)."""
    rows = await _ranked(db, chat_id, period, None, 1 << 40)
    return [Row(rank=r["rank"], user_id=r["user_id"], name=r["name"], points=r["points"],
                max_points=r["max_points"], answers=r["answers"], correct=r["correct"],
                last_at=r["last_at"]) for r in rows]


async def board(db: Database, chat_id: int, period: Period, me: int | None = None,
                top: int = TOP, points: Points = Points.daily, held: bool = False) -> Board:
    """The top `top` members of `chat_id` by daily-quiz (or live-round) points in `period`, plus `me`;
    `held`: also when the group's open quiz closes, for a board that says so (its answers count then)."""
    rows = await _ranked(db, chat_id, period, me, top, points)
    ids = [r["user_id"] for r in rows]
    runs = await streaks(db, chat_id, ids, period.today) if points == Points.daily else {}
    out = [Row(rank=r["rank"], user_id=r["user_id"], name=r["name"], points=r["points"],
               max_points=r["max_points"], answers=r["answers"], correct=r["correct"],
               last_at=r["last_at"], streak=runs.get(r["user_id"], 0)) for r in rows]
    mine = next((r for r in out if r.user_id == me), None)
    held_until = (await db.scalar(f"SELECT MIN(closes_at) FROM daily_deliveries WHERE id IN ({scores.held()})",
                                  {"chat": chat_id}) if held and points == Points.daily else None)
    return Board(chat_id=chat_id, period=period, top=[r for r in out if r.rank <= top], me=mine,
                 ranked=rows[0]["ranked"] if rows else 0, held_until=held_until)


async def my_groups(db: Database, user_id: int) -> list[tuple[int, str, str | None]]:
    """The team groups `user_id` belongs to: (chat id, title, timezone)."""
    rows = await db.fetchall(
        "SELECT c.id, c.title, c.timezone FROM chat_members m JOIN chats c ON c.id = m.chat_id "
        "WHERE m.user_id=? AND c.type IN ('group', 'supergroup') ORDER BY c.title, c.id", (user_id,))
    return [(r[0], r[1], r[2]) for r in rows]


@dataclass(frozen=True, slots=True)
class ExamRow:
    rank: int
    user_id: int
    name: str
    score: float
    max_score: float
    seconds: float
    provisional: bool  # some answer still awaits a lead's review


async def paper_board(db: Database, paper_id: int, members_of: list[int] | None,
                      also: int | None = None, top: int = TOP, *, invited: bool) -> list[ExamRow]:
    """Each candidate's counted exam on the paper (the best one, or the last one when the paper's
    grading method is `last`); ranked by higher score, then less time: the first `top` rows, and
    the user `also`'s row wherever it ranks.

    `members_of`: only candidates on these groups' rosters (and the user `also`), and with `invited`
    (the board is for these teams' leads) the attempts these teams invited; None: every candidate.
    Exam results go with the roster, not with having written in the group; an invited (hiring)
    attempt is on its inviting team's board only, for its leads.
    Ranked and limited in SQL: each candidate's counted attempt is one probe of the index
    attempts_exam_by_user, so a group's board costs its members, not the paper's whole history.
    """
    if members_of is None and await db.scalar(
            "SELECT grading_method FROM papers WHERE id=?", (paper_id,)) == GradingMethod.best:
        return await _best_board(db, paper_id, also, top)
    params: dict[str, object] = {"paper": paper_id, "also": also if also is not None else 0, "top": top}
    if members_of is not None:
        params.update({f"m{i}": chat for i, chat in enumerate(members_of)})
        teams = ",".join(f":m{i}" for i in range(len(members_of))) or "NULL"
        invites = (f"SELECT v.id FROM invites v WHERE v.team_chat_id IN ({teams})" if invited
                   else "SELECT CAST(NULL AS BIGINT)")
        candidates = (f"{member_ids_sql(teams)} "
                      f"UNION SELECT CAST(:also AS BIGINT) UNION SELECT i.user_id FROM attempts i "
                      f"WHERE i.paper_id = :paper AND i.invite_id IN ({invites})")
        allowed = (f"AND ((a.invite_id IS NULL AND (a.user_id = :also OR {seen_sql('a.user_id', 'a.started_at', teams)})) "
                   f"OR a.invite_id IN ({invites}))")
    else:
        candidates = f"SELECT DISTINCT user_id FROM attempts WHERE paper_id = :paper AND {_COUNTABLE}"
        allowed = ""
    rows = await db.fetchall(f"""
        WITH method AS (SELECT grading_method = '{GradingMethod.last}' AS last FROM papers WHERE id = :paper),
        candidates(user_id) AS ({candidates}),
        counted AS (
          SELECT (SELECT a.id FROM attempts a
                  WHERE a.paper_id = :paper AND a.user_id = c.user_id AND {_COUNTABLE} {allowed}
                  ORDER BY CASE WHEN (SELECT last FROM method) THEN a.finished_at END DESC,
                           a.score DESC, a.finished_at - a.started_at ASC, a.id
                  LIMIT 1) AS id
          FROM candidates c),
        ranked AS (
          SELECT a.id, a.user_id, a.score, a.max_score, a.finished_at - a.started_at AS seconds,
                 COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name,
                 ROW_NUMBER() OVER (ORDER BY a.score DESC, a.finished_at - a.started_at ASC, a.id) AS rank
          FROM counted k JOIN attempts a ON a.id = k.id JOIN users u ON u.id = a.user_id)
        SELECT ranked.*,
               EXISTS (SELECT 1 FROM answers x WHERE x.attempt_id = ranked.id AND x.final = 0) AS provisional
        FROM ranked WHERE rank <= :top OR user_id = :also
        ORDER BY rank""", params)
    return [ExamRow(rank=r["rank"], user_id=r["user_id"], name=r["name"], score=r["score"],
                    max_score=r["max_score"] or 0.0, seconds=r["seconds"] or 0.0,
                    provisional=bool(r["provisional"]))
            for r in rows]


# an exam attempt that counts on a paper's board; attempts_exam_by_user/_board index exactly these
_COUNTABLE = f"mode = '{AttemptMode.exam}' AND status = '{AttemptStatus.finished}' AND score IS NOT NULL"
# attempt b ranks before attempt a: higher score, then less time, then the lower id
_BEFORE = ("(b.score > a.score OR (b.score = a.score AND (b.finished_at - b.started_at < a.finished_at - a.started_at"
           " OR (b.finished_at - b.started_at = a.finished_at - a.started_at AND b.id < a.id))))")


async def _best_board(db: Database, paper_id: int, also: int | None, top: int) -> list[ExamRow]:
    """Every candidate's best attempt, ranked: walks attempts_exam_board from the top and keeps an
    attempt when none of its candidate's ranks before it, until `top` are kept (a few index probes,
    whatever the paper's history). `also` outside the top costs a count of the candidates ahead."""
    a_countable = _COUNTABLE.replace("mode", "a.mode").replace("status", "a.status").replace(
        "score IS", "a.score IS")
    b_countable = a_countable.replace("a.", "b.")
    best_of = f"""NOT EXISTS (SELECT 1 FROM attempts b WHERE b.paper_id = a.paper_id AND b.user_id = a.user_id
                               AND {b_countable} AND {_BEFORE})"""
    shown = """SELECT a.id, a.user_id, a.score, a.max_score, a.finished_at - a.started_at AS seconds,
               COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name,
               EXISTS (SELECT 1 FROM answers x WHERE x.attempt_id = a.id AND x.final = 0) AS provisional"""
    rows = [dict(r) for r in await db.fetchall(f"""
        {shown}, ROW_NUMBER() OVER (ORDER BY a.score DESC, a.finished_at - a.started_at ASC, a.id) AS rank
        FROM {indexed_by(db.engine, "attempts a", "attempts_exam_board")} JOIN users u ON u.id = a.user_id
        WHERE a.paper_id = ? AND {a_countable} AND {best_of}
        ORDER BY a.score DESC, a.finished_at - a.started_at ASC, a.id LIMIT ?""", (paper_id, top))]
    if also is not None and all(r["user_id"] != also for r in rows):
        mine = await db.fetchone(f"""
            {shown}, 1 + (SELECT COUNT(DISTINCT b.user_id) FROM {indexed_by(db.engine, "attempts b", "attempts_exam_board")}
                          JOIN users v ON v.id = b.user_id
                          WHERE b.paper_id = a.paper_id AND {b_countable} AND {_BEFORE}) AS rank
            FROM attempts a JOIN users u ON u.id = a.user_id
            WHERE a.paper_id = ? AND a.user_id = ? AND {a_countable} AND {best_of}""", (paper_id, also))
        if mine is not None:
            rows.append(dict(mine))
    return [ExamRow(rank=r["rank"], user_id=r["user_id"], name=r["name"], score=r["score"],
                    max_score=r["max_score"] or 0.0, seconds=r["seconds"] or 0.0,
                    provisional=bool(r["provisional"]))
            for r in rows]


