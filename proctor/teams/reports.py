"""The team report: one CSV row per candidate, with exams by paper and section and daily results."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from datetime import datetime

from bank.csv_safety import safe_row
from bank.section_names import short_section
from bank.store import ids_in
from proctor.chats import chat_zone
from proctor.daily import scores
from proctor.daily.streaks import streaks
from proctor.exams import integrity
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.integrity.signals import Signal, summary
from proctor.storage.db import Database
from proctor.teams import consent
from proctor.teams.leaderboard import Period


@dataclass
class CandidateRow:
    user_id: int
    name: str
    exams: int = 0
    practice: int = 0
    best: dict[str, float] = field(default_factory=dict)  # column -> score
    daily_points: float = 0.0
    daily_max: float = 0.0
    daily_answers: int = 0
    streak: int = 0
    signals: dict[Signal, int] = field(default_factory=dict)  # over the period's finished exams

    @property
    def accuracy(self) -> float | None:
        return self.daily_points / self.daily_max if self.daily_max else None


def _bounds(period: Period) -> tuple[float, float]:
    return (period.start if period.start is not None else float("-inf"),
            period.end if period.end is not None else float("inf"))


async def team_members(db: Database, scope: int | None) -> list[tuple[int, str]]:
    """(user id, name) of the members the group's leads see (consent.members); of everyone when `scope` is None."""
    if scope is not None:
        return await consent.members(db, scope)
    rows = await db.fetchall("SELECT id, COALESCE(NULLIF(first_name, ''), username, '') FROM users ORDER BY id")
    return [(r[0], r[1]) for r in rows]


def _since(scope: int | None, user_col: str, at_col: str) -> tuple[str, list[int]]:
    """For a group's report, only what each member did since joining its roster (consent.seen_sql)."""
    return ("", []) if scope is None else (f"AND {consent.seen_sql(user_col, at_col)}", [scope])


async def team_rows(db: Database, lens: Lens, period: Period) -> tuple[list[str], list[CandidateRow]]:
    """The paper and section columns used in the period, and one row per member of team `lens.scope`
    (None: everyone): for a group, what each did since joining its roster. A paper's section columns
    only where the read rule shows its sections to the lens's viewer (a hiring paper's to a team
    verified for it)."""
    scope = lens.scope
    members = await team_members(db, scope)
    rows = {uid: CandidateRow(uid, name) for uid, name in members}
    if not rows:
        return [], []
    start, end = _bounds(period)
    ids = list(rows)
    marks = ",".join("?" * len(ids))
    since, since_params = _since(scope, "user_id", "started_at")
    exams: dict[int, int] = {}  # exam attempt -> user
    for r in await db.fetchall(
            f"SELECT id, user_id, mode FROM attempts WHERE user_id IN ({marks}) "
            f"AND status='{AttemptStatus.finished}' AND invite_id IS NULL {since} "
            "AND finished_at>=? AND finished_at<?", (*ids, *since_params, start, end)):
        if r[2] == AttemptMode.exam:
            rows[r[1]].exams += 1
            exams[r[0]] = r[1]
        else:
            rows[r[1]].practice += 1
    for attempt_id, found in (await integrity.counts(db, exams)).items():
        mine = rows[exams[attempt_id]].signals
        for code, n in found.items():
            mine[code] = mine.get(code, 0) + n
    columns = await _exam_columns(db, rows, ids, start, end, lens)
    for uid, points, most, answers in await _daily(db, scope, ids, period):
        rows[uid].daily_points, rows[uid].daily_max, rows[uid].daily_answers = points, most, answers
    for uid, run in (await _streaks(db, scope, ids, period)).items():
        rows[uid].streak = run
    return columns, list(rows.values())


async def _daily(db: Database, scope: int | None, ids: list[int], period: Period) -> list[tuple[int, float, float, int]]:
    """(user, points, max, answers) of the daily quiz in the period. A group's daily quiz is the group's,
    not the roster's: anyone in it plays and ranks on its board, so a member's columns are the numbers
    of the group's board (scores.source, the board's one read), from before joining too, like the streak.
    For every team (None): each person's daily answers anywhere."""
    marks = ",".join("?" * len(ids))
    if scope is None:
        start, end = _bounds(period)
        found = await db.fetchall(
            f"SELECT user_id, SUM(score), SUM(max_score), COUNT(*) FROM daily_answers "
            f"WHERE user_id IN ({marks}) AND answered_at>=? AND answered_at<? GROUP BY user_id", (*ids, start, end))
    else:
        source, values = scores.source(db.engine, period.start, period.end)
        found = await db.fetchall(
            f"SELECT user_id, SUM(score), SUM(max_score), SUM(answers) FROM ({source}) daily "
            f"WHERE user_id IN ({ids_in(db.engine, ':ids')}) GROUP BY user_id",
            {"chat": scope, **values, "ids": json.dumps(ids)})
    return [(r[0], r[1], r[2], r[3]) for r in found]


async def _streaks(db: Database, scope: int | None, ids: list[int], period: Period) -> dict[int, int]:
    """The team's streaks (proctor/daily/streaks.py: the one rule and the one read); for every team
    (None), each member's longest current streak among the teams they are on, each team's day taken
    in its own zone at the same moment, so it is the best of their rows in the teams' own reports."""
    if scope is not None:
        return await streaks(db, scope, ids, period.today)
    marks = ",".join("?" * len(ids))
    teams: dict[int, list[int]] = {}
    for chat_id, user_id in await db.fetchall(
            f"SELECT o.chat_id, o.user_id FROM team_roster o WHERE o.user_id IN ({marks}) "
            f"AND o.user_id IN ({consent.member_ids_sql('o.chat_id')}) ORDER BY o.chat_id, o.user_id", ids):
        teams.setdefault(chat_id, []).append(user_id)
    best: dict[int, int] = {}
    for chat_id, members in teams.items():
        today = period.today if period.now is None else \
            datetime.fromtimestamp(period.now, await chat_zone(db, chat_id, period.zone)).date()
        for uid, run in (await streaks(db, chat_id, members, today)).items():
            best[uid] = max(best.get(uid, 0), run)
    return best


async def _exam_columns(db: Database, rows: dict[int, CandidateRow], ids: list[int], start: float,
                        end: float, lens: Lens) -> list[str]:
    """Each candidate's best finished exam per paper (the mock paper counts as one paper) and that
    attempt's score by section, where the lens shows the paper's sections. Columns speak in codes and
    titles ("P3 Optimisers", "P3 Optimisers · 单选题": a section's title without its numbering and note):
    one for the paper, then one for every section of it, sat or not, in the paper's order. A section the
    attempt's sheet held scores what its answers scored (0 when none scored); one it did not hold is blank."""
    marks = ",".join("?" * len(ids))
    since, since_params = _since(lens.scope, "t.user_id", "t.started_at")
    best = await db.fetchall(
        f"""WITH ranked AS (
              SELECT t.id, t.user_id, t.score, t.paper_id, t.title AS attempt_title, p.code, p.title,
                     ROW_NUMBER() OVER (PARTITION BY t.user_id, COALESCE(t.paper_id, -1)
                                        ORDER BY t.score DESC, t.finished_at - t.started_at, t.id) AS n
              FROM attempts t LEFT JOIN papers p ON p.id = t.paper_id
              WHERE t.user_id IN ({marks}) AND t.mode='{AttemptMode.exam}' AND t.status='{AttemptStatus.finished}'
                AND t.invite_id IS NULL {since}
                AND t.score IS NOT NULL AND t.finished_at>=? AND t.finished_at<?)
            SELECT * FROM ranked WHERE n = 1 ORDER BY paper_id IS NULL, paper_id""", (*ids, *since_params, start, end))
    papers: dict[int | None, tuple[str, list[tuple[object, str]]]] = {}  # paper -> header, sections
    for r in best:
        pid = r["paper_id"]
        if pid in papers:
            continue
        head = r["attempt_title"] if pid is None else f"{r['code']} {r['title']}"  # None: the mock paper
        secs: list[tuple[object, str]] = []
        if not lens.of(pid).shows(Fact.section):
            pass  # the total only: a section's score moving between sittings would tell a key
        elif pid is None:  # the mock paper's sections are the kinds its items were drawn as
            mocks = [x["id"] for x in best if x["paper_id"] is None]
            secs = [(label, label) for (label,) in await db.fetchall(
                f"SELECT DISTINCT section FROM attempt_items WHERE attempt_id IN ({','.join('?' * len(mocks))}) "
                "ORDER BY section", mocks)]
        else:
            secs = [(pos, short_section(title)) for pos, title in await db.fetchall(
                "SELECT position, title FROM sections WHERE paper_id=? ORDER BY position", (pid,))]
        papers[pid] = (head, secs)
    for r in best:
        head, sections = papers[r["paper_id"]]
        rows[r["user_id"]].best[head] = r["score"]
        if not sections:
            continue
        key = "s.position" if r["paper_id"] is not None else "i.section"
        for sec, score in await db.fetchall(
                f"SELECT {key}, SUM(COALESCE(x.score, 0)) FROM attempt_items i "
                "LEFT JOIN answers x ON x.attempt_id = i.attempt_id AND x.pos = i.pos "
                "JOIN questions q ON q.id = i.question_id JOIN sections s ON s.id = q.section_id "
                f"WHERE i.attempt_id=? GROUP BY {key}", (r["id"],)):
            label = dict(sections).get(sec, str(sec))
            rows[r["user_id"]].best[f"{head} · {label}"] = score
    return [col for head, secs in papers.values() for col in (head, *(f"{head} · {label}" for _, label in secs))]


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}" if value == round(value, 2) else f"{value:.2f}"


def to_csv(columns: list[str], rows: list[CandidateRow]) -> bytes:
    """UTF-8 CSV with a byte-order mark, so spreadsheet programs read Chinese names correctly.

    Every cell goes through safe_cell: a name like `=HYPERLINK(...)` is text, not a formula.
    """
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(safe_row(["user_id", "name", "exam_attempts", "practice_attempts", *columns,
                         "daily_points", "daily_max", "daily_answers", "accuracy", "streak", "signals"]))
    for r in rows:
        acc = r.accuracy
        w.writerow(safe_row([r.user_id, r.name, r.exams, r.practice, *(_num(r.best.get(c)) for c in columns),
                             _num(r.daily_points), _num(r.daily_max), r.daily_answers,
                             "" if acc is None else f"{acc:.3f}", r.streak, summary(r.signals)]))
    return out.getvalue().encode("utf-8-sig")


async def team_csv(db: Database, lens: Lens, period: Period) -> tuple[bytes, int]:
    """The report (`team_rows`) as CSV bytes and the number of candidates in it."""
    columns, rows = await team_rows(db, lens, period)
    return to_csv(columns, rows), len(rows)
