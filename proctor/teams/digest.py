"""The weekly digest of a team group: when it is due, and what it says.

A schedule names a weekday and a local time. The digest covers the seven days before it is
posted and compares them with the seven days before those. A digest missed while the bot was
down is posted once when it comes back, if that is still the same ISO week.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bank.store import ids_in
from bank.topics import topic_sql
from proctor.audit import AuditAction
from proctor.errors import ProctorError
from proctor.exams import visibility
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import AUDIENCE, Fact, Lens
from proctor.local_time import looks_like_time, parse_hhmm
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.consent import seen_sql
from proctor.teams.leaderboard import Period, Row, full_ranking

WEEK = 7 * 24 * 3600
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class BadSchedule(ProctorError):
    """A weekday or time that cannot be understood."""


@dataclass(frozen=True, slots=True)
class Schedule:
    chat_id: int
    enabled: bool
    weekday: int  # 0: Monday
    at_time: str  # 'HH:MM'
    last_week: str | None


def parse_schedule(args: list[str], default_weekday: int = 0, default_time: str = "09:00") -> tuple[int, str]:
    """'[mon..sun] [HH:MM]' in any order -> (weekday, 'HH:MM'). Raises BadSchedule."""
    weekday, at = default_weekday, default_time
    for arg in args:
        a = arg.lower()
        if a[:3] in WEEKDAYS and len(a) >= 3:
            weekday = WEEKDAYS.index(a[:3])
        elif looks_like_time(a):
            at = parse_hhmm(a).strftime("%H:%M")
        else:
            raise BadSchedule(arg)
    return weekday, at


def week_key(now: float, tz: ZoneInfo) -> str:
    """The ISO week of `now` in `tz`, e.g. '2025-W07'."""
    y, w, _ = datetime.fromtimestamp(now, tz).isocalendar()
    return f"{y}-W{w:02d}"


def due_in_week(s: Schedule, now: float, tz: ZoneInfo) -> float:
    """When the digest is due in the ISO week containing `now`."""
    local = datetime.fromtimestamp(now, tz)
    monday = local.date() - timedelta(days=local.weekday())
    day = monday + timedelta(days=s.weekday)
    hh, mm = (int(x) for x in s.at_time.split(":"))
    return datetime.combine(day, time(hh, mm), tzinfo=tz).timestamp()


def next_due(s: Schedule, now: float, tz: ZoneInfo) -> float:
    """The first due time strictly after `now`."""
    due = due_in_week(s, now, tz)
    if due > now:
        return due
    # a week later in local time, so the local hour holds across daylight-saving changes
    return due_in_week(s, now + WEEK, tz)


def missed(s: Schedule, now: float, tz: ZoneInfo) -> bool:
    """This week's digest was due and has not been posted."""
    return s.enabled and due_in_week(s, now, tz) <= now and s.last_week != week_key(now, tz)


async def get_schedule(db: Database, chat_id: int) -> Schedule | None:
    r = await db.fetchone("SELECT * FROM digest_schedules WHERE chat_id=?", (chat_id,))
    return None if r is None else Schedule(r["chat_id"], bool(r["enabled"]), r["weekday"], r["at_time"],
                                           r["last_week"])


async def schedules(db: Database) -> list[Schedule]:
    """Every enabled schedule."""
    rows = await db.fetchall("SELECT * FROM digest_schedules WHERE enabled=1 ORDER BY chat_id")
    return [Schedule(r["chat_id"], True, r["weekday"], r["at_time"], r["last_week"]) for r in rows]


async def set_schedule(db: Database, chat_id: int, *, enabled: bool, weekday: int, at_time: str,
                       lead: int, now: float) -> Schedule:
    """Create or change the group's schedule (the chat row must exist)."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute(
            """INSERT INTO digest_schedules (chat_id, enabled, weekday, at_time, changed_by, changed_at)
               VALUES (?,?,?,?,?,?) ON CONFLICT(chat_id) DO UPDATE SET enabled=excluded.enabled,
               weekday=excluded.weekday, at_time=excluded.at_time, changed_by=excluded.changed_by,
               changed_at=excluded.changed_at""",
            (chat_id, int(enabled), weekday, at_time, lead, now))
        audit.record(conn, at=now, actor=lead, chat_id=chat_id, action=AuditAction.digest,
                     target=f"chat:{chat_id}", enabled=enabled, weekday=weekday, time=at_time)

    await db.run_write(transaction)
    schedule = await get_schedule(db, chat_id)
    assert schedule is not None, "just written"
    return schedule


async def claim_week(db: Database, chat_id: int, week: str) -> bool:
    """Mark this week's digest as posted; False if it already was (post it only once)."""

    def transaction(conn: sqlite3.Connection) -> bool:
        cur = conn.execute(
            "UPDATE digest_schedules SET last_week=? WHERE chat_id=? AND (last_week IS NULL OR last_week<>?)",
            (week, chat_id, week))
        return cur.rowcount == 1

    return await db.run_write(transaction)


async def release_week(db: Database, chat_id: int, previous: str | None) -> None:
    """Undo a claim when the digest could not be posted."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE digest_schedules SET last_week=? WHERE chat_id=?", (previous, chat_id))

    await db.run_write(transaction)


@dataclass(frozen=True, slots=True)
class Mover:
    name: str
    rank: int
    previous: int | None  # None: did not score the week before
    points: float


@dataclass(frozen=True, slots=True)
class Topic:
    name: str  # a question's topic, else its paper's subject (bank/topics.py)
    accuracy: float
    answers: int


@dataclass(frozen=True, slots=True)
class Digest:
    """The group's week on its daily board: `active` of the `members` the bot has seen in the group
    played (the board's players, roster or not: the roster, /team, is the consenting members only)."""

    members: int  # people seen in the group (chat_members), not the roster
    active: int
    active_before: int
    answers: int
    top: list[Row]
    movers: list[Mover]
    weakest: list[Topic]


def movers(now_rows: list[Row], before_rows: list[Row], limit: int = 3) -> list[Mover]:
    """Who climbed most in rank; a newcomer counts as climbing from just below the last."""
    before = {r.user_id: r.rank for r in before_rows}
    floor = len(before_rows) + 1
    gains = []
    for r in now_rows:
        prev = before.get(r.user_id)
        gain = (prev if prev is not None else floor) - r.rank
        if gain > 0:
            gains.append((gain, -r.points, r.rank, Mover(r.name, r.rank, prev, r.points)))
    gains.sort(key=lambda g: (-g[0], g[1], g[2]))
    return [g[3] for g in gains[:limit]]


async def weakest_topics(db: Database, lens: Lens, start: float, end: float, limit: int = 3,
                         min_answers: int = 3) -> list[Topic]:
    """The topics (a question's topic, else its paper's subject: bank/topics.py) group `lens.scope` did
    worst on: its daily answers and its roster members' exams, on the papers whose sections the read
    rule shows the lens's viewer (a digest is the group's audience: never a hiring paper's). Questions
    with neither a topic nor a subject are left out."""
    chat_id = lens.scope
    if chat_id is None:
        raise ValueError("a digest is a group's: its lens is the group's audience")
    rows = await db.fetchall(
        f"""WITH scored AS (
             SELECT d.question_id, d.score, d.max_score FROM daily_answers d
             WHERE d.chat_id=:chat AND d.answered_at>=:start AND d.answered_at<:end
             UNION ALL
             SELECT x.question_id, x.score, x.max_score FROM answers x JOIN attempts t ON t.id = x.attempt_id
             WHERE t.mode='{AttemptMode.exam}' AND t.status='{AttemptStatus.finished}' AND x.final=1
               AND t.invite_id IS NULL
               AND t.finished_at>=:start
               AND t.finished_at<:end AND {seen_sql('t.user_id', 't.started_at', ':chat')})
           SELECT {topic_sql("q", "p")} AS shown_topic, SUM(sc.score) / SUM(sc.max_score) AS acc, COUNT(*) AS n
           FROM scored sc JOIN questions q ON q.id = sc.question_id
           JOIN papers p ON p.id = q.paper_id WHERE p.id IN ({ids_in(db.engine, ':shown')})
           GROUP BY shown_topic HAVING {topic_sql("q", "p")} <> '' AND COUNT(*) >= :min AND SUM(sc.max_score) > 0
           ORDER BY acc, n DESC, shown_topic LIMIT :limit""",
        {"chat": chat_id, "start": start, "end": end, "min": min_answers, "limit": limit,
         "shown": lens.papers_showing(Fact.section)})
    return [Topic(r[0], r[1], r[2]) for r in rows]


async def compose(db: Database, chat_id: int, now: float, tz: ZoneInfo) -> Digest:
    """The digest for the seven days before `now`: a post the whole group reads (its audience)."""
    today = datetime.fromtimestamp(now, tz).date()
    this = Period("digest", now - WEEK, now, today)
    before = Period("digest", now - 2 * WEEK, now - WEEK, today)
    now_rows = await full_ranking(db, chat_id, this)
    before_rows = await full_ranking(db, chat_id, before)
    members = await db.scalar("SELECT COUNT(*) FROM chat_members WHERE chat_id=?", (chat_id,))
    return Digest(members=members, active=len(now_rows), active_before=len(before_rows),
                  answers=sum(r.answers for r in now_rows), top=now_rows[:3],
                  movers=movers(now_rows, before_rows),
                  weakest=await weakest_topics(db, await visibility.lens(db, AUDIENCE, chat_id), now - WEEK, now))
