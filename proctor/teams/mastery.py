"""A team over a period, member by member: daily-quiz points per day (the trend) and the share of
points earned per topic (the mastery heatmap), from the group's daily quizzes and its members'
finished exams. A question's topic is its `topic`, else its paper's subject (bank/topics.py), never a
section's title; '' for a question with neither. The heatmap counts the papers whose sections the
viewer's Lens shows (a hiring paper's only for the configured admins and the teams verified for it),
for the attempt and the question."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bank.store import ids_in
from proctor.daily import scores
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database
from proctor.teams import topic_scores
from proctor.teams.consent import seen_sql
from proctor.teams.leaderboard import Period


@dataclass(frozen=True, slots=True)
class Mastery:
    topics: list[str]
    cells: dict[tuple[int, str], tuple[float, int]]  # (user, topic) -> (share of points 0..1, answers)


def _bounds(period: Period) -> tuple[float, float]:
    return (period.start if period.start is not None else float("-inf"),
            period.end if period.end is not None else float("inf"))


async def daily_trend(db: Database, chat_id: int, period: Period,
                      users: Collection[int] | None = None) -> dict[int, list[tuple[str, float]]]:
    """Per member (of `users`, when given): (day, daily-quiz points) for each day they answered in the
    period, in order."""
    out: dict[int, list[tuple[str, float]]] = {}
    source, values = scores.source(db.engine, period.start, period.end)
    only = ""
    if users is not None:  # a page shows a few members' trends: read only theirs
        marks = {f"u{i}": uid for i, uid in enumerate(users)}
        only = f"WHERE user_id IN ({', '.join(':' + k for k in marks) or 'NULL'})"
        values.update(marks)
    for r in await db.fetchall(
            f"SELECT user_id, day, SUM(score) FROM ({source}) daily {only} GROUP BY user_id, day ORDER BY user_id, day",
            {"chat": chat_id, **values}):
        out.setdefault(r[0], []).append((r[1], r[2]))
    return out


async def topic_mastery(db: Database, chat_id: int, period: Period, lens: Lens) -> Mastery:
    """The share of points each member earned per topic in the period (daily and exam answers), on
    the papers whose sections the lens shows."""
    daily, values = topic_scores.daily_source(db.engine, period.start, period.end)
    exams = topic_scores.exam_source(
        f"t.mode='{AttemptMode.exam}' AND t.status='{AttemptStatus.finished}' "
        f"AND {seen_sql('t.user_id', 't.started_at', ':chat')} "
        f"AND (t.paper_id IN ({ids_in(db.engine, ':sections')}) OR (t.paper_id IS NULL AND :mock)) "
        "AND t.finished_at>=:start AND t.finished_at<:end")
    start, end = _bounds(period)
    keys = "user_id, paper_id, topic"  # each source summed per member and topic before the union
    rows = await db.fetchall(  # from the summaries (proctor/teams/topic_scores.py)
        f"""SELECT s.user_id, {topic_scores.TOPIC} AS topic, SUM(s.score) / SUM(s.max_score) AS share,
                  SUM(s.answers) AS n
           FROM ({topic_scores.grouped(daily, keys)} UNION ALL {topic_scores.grouped(exams, keys)}) s
           JOIN papers p ON p.id = s.paper_id
           WHERE p.id IN ({ids_in(db.engine, ':sections')})
           GROUP BY s.user_id, {topic_scores.TOPIC} HAVING SUM(s.max_score) > 0 ORDER BY topic""",
        {"chat": chat_id, "start": start, "end": end, "sections": lens.papers_showing(Fact.section),
         "mock": lens.mock.shows(Fact.section), **values})
    topics = sorted({r["topic"] for r in rows})
    return Mastery(topics, {(r["user_id"], r["topic"]): (r["share"], r["n"]) for r in rows})
