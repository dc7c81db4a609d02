"""Leaderboards: a group's daily-quiz ranking over a period, and best exam scores per paper.

Ranking rule: more points first; on equal points, whoever gave their last answer of the period
earlier ranks higher (they got there first); then the lower user id, so the order is stable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bank.errors import BankError
from proctor.chats import chat_zone, note_member  # noqa: F401  (their home: proctor/chats.py)
from proctor.daily.streaks import streaks
from proctor.local_time import zone  # noqa: F401  (callers use lb.zone; its home is proctor/local_time.py)
from proctor.storage.db import Database
from proctor.teams.roster import members_of_any_sql

PERIODS = ("today", "week", "month", "all")
TOP = 10


class UnknownPeriod(BankError):
    """The period is not one of today, week, month, all."""


@dataclass(frozen=True)
class Period:
    name: str
    start: float | None  # None: since the beginning
    end: float | None  # None: open-ended
    today: date  # the local date at `now`, for streaks


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Board:
    chat_id: int
    period: Period
    top: list[Row]
    me: Row | None  # the caller's row, also when it is already in `top`
    ranked: int  # how many members scored in the period


def period_bounds(name: str, now: float, tz: ZoneInfo) -> Period:
    """The period `name` containing `now`, with local-midnight boundaries in `tz`; weeks start
    on Monday. Raises UnknownPeriod."""
    local = datetime.fromtimestamp(now, tz)
    today = local.date()
    if name == "all":
        return Period(name, None, None, today)
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
    return Period(name, _midnight(first, tz), _midnight(last, tz), today)


def _midnight(day: date, tz: ZoneInfo) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()


_BOARD = """
WITH agg AS (
  SELECT user_id, SUM(score) AS points, SUM(max_score) AS max_points, COUNT(*) AS answers,
         SUM(verdict = 'correct') AS correct, MAX(answered_at) AS last_at
  FROM daily_answers INDEXED BY daily_answers_leaderboard
  WHERE chat_id = :chat AND answered_at >= :start AND answered_at < :end
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


async def _ranked(db: Database, chat_id: int, period: Period, me: int | None, top: int):
    return await db.fetchall(_BOARD, {
        "chat": chat_id, "start": period.start if period.start is not None else float("-inf"),
        "end": period.end if period.end is not None else float("inf"), "top": top,
        "me": me if me is not None else 0})


async def full_ranking(db: Database, chat_id: int, period: Period) -> list[Row]:
    """Every member who scored in the period, in rank order (streaks not computed)."""
    rows = await _ranked(db, chat_id, period, None, 1 << 40)
    return [Row(rank=r["rank"], user_id=r["user_id"], name=r["name"], points=r["points"],
                max_points=r["max_points"], answers=r["answers"], correct=r["correct"],
                last_at=r["last_at"]) for r in rows]


async def board(db: Database, chat_id: int, period: Period, me: int | None = None,
                top: int = TOP) -> Board:
    """The top `top` members of `chat_id` by daily-quiz points in `period`, plus `me`."""
    rows = await _ranked(db, chat_id, period, me, top)
    ids = [r["user_id"] for r in rows]
    runs = await streaks(db, chat_id, ids, period.today)
    out = [Row(rank=r["rank"], user_id=r["user_id"], name=r["name"], points=r["points"],
               max_points=r["max_points"], answers=r["answers"], correct=r["correct"],
               last_at=r["last_at"], streak=runs.get(r["user_id"], 0)) for r in rows]
    mine = next((r for r in out if r.user_id == me), None)
    return Board(chat_id=chat_id, period=period, top=[r for r in out if r.rank <= top], me=mine,
                 ranked=rows[0]["ranked"] if rows else 0)


async def my_groups(db: Database, user_id: int) -> list[tuple[int, str, str | None]]:
    """The team groups `user_id` belongs to: (chat id, title, timezone)."""
    rows = await db.fetchall(
        "SELECT c.id, c.title, c.timezone FROM chat_members m JOIN chats c ON c.id = m.chat_id "
        "WHERE m.user_id=? AND c.type IN ('group', 'supergroup') ORDER BY c.title, c.id", (user_id,))
    return [(r[0], r[1], r[2]) for r in rows]


@dataclass(frozen=True)
class ExamRow:
    rank: int
    user_id: int
    name: str
    score: float
    max_score: float
    seconds: float
    provisional: bool  # some answer still awaits a lead's review


async def paper_board(db: Database, paper_id: int, members_of: list[int] | None,
                      also: int | None = None) -> list[ExamRow]:
    """Each candidate's counted exam on the paper (the best one, or the last one when the paper's
    grading method is `last`); ranked by higher score, then less time.

    `members_of`: only candidates on these groups' rosters (and the user `also`); None: every
    candidate. Exam results go with the roster, not with having written in the group.
    """
    where = ""
    params: list = [paper_id]
    if members_of is not None:
        # an invited (hiring) attempt is the inviting team's: on its board only, never anyone else's
        marks = ",".join("?" * len(members_of))
        where = (f"AND ((a.invite_id IS NULL AND ({members_of_any_sql('a.user_id', len(members_of))} "
                 f"OR a.user_id = ?)) OR a.invite_id IN (SELECT v.id FROM invites v WHERE v.team_chat_id IN ({marks})))")
        params += [*members_of, also if also is not None else 0, *members_of]
    rows = await db.fetchall(f"""
        WITH best AS (
          SELECT a.id, a.user_id, a.score, a.max_score, a.finished_at - a.started_at AS seconds,
                 ROW_NUMBER() OVER (PARTITION BY a.user_id
                                    ORDER BY CASE WHEN p.grading_method = 'last' THEN a.finished_at END DESC,
                                             a.score DESC, a.finished_at - a.started_at ASC, a.id) AS n
          FROM attempts a JOIN papers p ON p.id = a.paper_id
          WHERE a.paper_id=? AND a.mode='exam' AND a.status='finished' AND a.score IS NOT NULL {where}
        )
        SELECT best.*, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name,
               EXISTS (SELECT 1 FROM answers x WHERE x.attempt_id = best.id AND x.final = 0) AS provisional
        FROM best JOIN users u ON u.id = best.user_id
        WHERE n = 1
        ORDER BY score DESC, seconds ASC, best.id""", params)
    return [ExamRow(rank=i, user_id=r["user_id"], name=r["name"], score=r["score"],
                    max_score=r["max_score"] or 0.0, seconds=r["seconds"] or 0.0,
                    provisional=bool(r["provisional"]))
            for i, r in enumerate(rows, start=1)]


