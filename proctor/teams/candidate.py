"""A candidate's record for their leads: every finished attempt with its sections, time used and
a cell per question (right / wrong / partial / awaiting review / unanswered), their answers (a choice
answer in the letters the candidate saw, with the options' texts), the integrity signals' evidence, and
the disputes they raised. Keys are not part of it: the record shows what the candidate did.

Each part is read through the read rule (the viewer's Lens): an attempt is in the record where the
Lens shows other people's answers of its paper (a hiring paper's: the configured admins and the
teams verified for it), with its sections where it shows sections and a question's result where it
shows results (never one sealed for the viewer); a dispute where it shows doubts. Which member's
record a team sees at all is the roster's (proctor/teams/consent.py: the caller's `since`).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bank.grading.result import Verdict
from bank.kinds import CHOICE, Kind
from bank.option_order import OptionOrder, SeenOption
from bank.store import ids_in
from proctor.exams import integrity
from proctor.exams.integrity import Evidence
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database
from proctor.teams.consent import seen_sql
from proctor.teams.disputes import DisputeStatus


class CellState(StrEnum):
    """What a question's cell in the record shows."""
    correct = "correct"
    partial = "partial"
    wrong = "wrong"
    awaiting = "awaiting"  # a written answer no lead has scored yet
    unanswered = "unanswered"
_EVER = float("-inf")


@dataclass(frozen=True, slots=True)
class Cell:
    pos: int
    question_id: int
    section: str
    state: CellState
    score: float
    max_score: float
    response: str  # what the candidate gave, as text (a choice: the stored letters; `seen` says them)
    seen: tuple[SeenOption, ...] = ()  # a choice answer's options as the candidate saw them: letter and text


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    score: float
    max_score: float


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    id: int
    title: str
    mode: AttemptMode
    started_at: float
    finished_at: float
    seconds: float
    score: float | None
    max_score: float | None
    exam_only: bool
    sections: list[Section]
    cells: list[Cell]


@dataclass(frozen=True, slots=True)
class RaisedDispute:
    id: int
    question_id: int
    reason: str  # the candidate's words
    status: DisputeStatus
    created_at: float


def _text(raw: str | None) -> str:
    if raw is None:
        return ""
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def seen_answer(row: sqlite3.Row) -> tuple[SeenOption, ...]:
    """A stored choice answer's options under the letters the candidate saw them by, with their texts,
    from a row of its sheet's item and question (`kind`, `options`, `option_order`, `letter_refs`,
    `response` as stored); nothing for another kind's answer, or none."""
    if row["kind"] is None or row["response"] is None or Kind(row["kind"]) not in CHOICE:
        return ()
    given = json.loads(row["response"])
    if not isinstance(given, str):
        return ()
    order = OptionOrder.of(row["option_order"], json.loads(row["letter_refs"] or "{}"))
    return tuple(order.seen(json.loads(row["options"]), given))


def _state(verdict: Verdict | None, final: bool) -> CellState:
    """The cell of an answer's verdict and final flag (no verdict: no answer)."""
    if verdict is None:
        return CellState.unanswered
    match verdict:
        case Verdict.needs_review:
            return CellState.awaiting
        case _ if not final:
            return CellState.awaiting
        case Verdict.correct:
            return CellState.correct
        case Verdict.partial:
            return CellState.partial
        case Verdict.wrong:
            return CellState.wrong


async def attempts(db: Database, user_id: int, lens: Lens, *, since: float | None = None) -> list[AttemptRecord]:
    """The user's finished attempts the lens' viewer may read, newest first; only those started after
    `since` when given (a team sees what a member did since joining)."""
    heads = await db.fetchall(
        f"""SELECT t.id, t.title, t.mode, t.started_at, t.finished_at, t.score, t.max_score, t.paper_id,
                  COALESCE(p.exam_only, 0) AS exam_only
           FROM attempts t LEFT JOIN papers p ON p.id = t.paper_id
           WHERE t.user_id=? AND t.status='{AttemptStatus.finished}' AND t.started_at > ?
             AND (t.paper_id IN ({ids_in(db.engine)}) OR (t.paper_id IS NULL AND ?))
           ORDER BY t.finished_at DESC, t.id DESC""",
        (user_id, _EVER if since is None else since, lens.papers_showing(Fact.others_answers),
         lens.mock.shows(Fact.others_answers)))
    if not heads:
        return []
    marks = ",".join("?" * len(heads))
    cells: dict[int, list[Cell]] = {}
    for r in await db.fetchall(
            f"""SELECT i.attempt_id, i.pos, i.question_id, i.section, i.points, i.option_order, x.response,
                       x.score, x.max_score, x.verdict, x.final, q.kind, COALESCE(v.options, q.options) AS options,
                       c.letter_refs
                FROM attempt_items i LEFT JOIN answers x ON x.attempt_id = i.attempt_id AND x.pos = i.pos
                LEFT JOIN questions q ON q.id = i.question_id
                LEFT JOIN question_versions v ON v.question_id = i.question_id AND v.version = i.version
                LEFT JOIN question_checks c ON c.question_id = i.question_id
                WHERE i.attempt_id IN ({marks}) ORDER BY i.attempt_id, i.pos""", [h["id"] for h in heads]):
        cells.setdefault(r["attempt_id"], []).append(Cell(
            pos=r["pos"], question_id=r["question_id"], section=r["section"],
            state=_state(None if r["verdict"] is None else Verdict(r["verdict"]), bool(r["final"])), score=r["score"] or 0.0,
            max_score=r["max_score"] if r["max_score"] is not None else r["points"],
            response=_text(r["response"]),
            seen=seen_answer(r)))
    out = []
    for h in heads:
        vis = lens.of(h["paper_id"])
        mine = cells.get(h["id"], [])
        sections: dict[str, list[float]] = {}
        for c in mine:
            got = sections.setdefault(c.section, [0.0, 0.0])
            got[0] += c.score
            got[1] += c.max_score
        out.append(AttemptRecord(
            id=h["id"], title=h["title"], mode=AttemptMode(h["mode"]), started_at=h["started_at"], finished_at=h["finished_at"],
            seconds=max(0.0, h["finished_at"] - h["started_at"]), score=h["score"], max_score=h["max_score"],
            exam_only=bool(h["exam_only"]),
            sections=[Section(t, s, m) for t, (s, m) in sections.items()] if vis.shows(Fact.section) else [],
            cells=[c for c in mine if vis.shows(Fact.result, c.question_id)]))
    return out


async def evidence(db: Database, lens: Lens, attempt_ids: Iterable[int]) -> dict[int, list[Evidence]]:
    """The attempts' integrity signals with their evidence (proctor.exams.integrity.evidence, through
    the lens); a similar answer's other candidate, and what they wrote, only when the team may read
    their record: on its roster, sat after joining (every other for scope None)."""
    found = await integrity.evidence(db, attempt_ids, lens)
    others = {e.other_attempt_id for shown in found.values() for e in shown if e.other_attempt_id is not None}
    if lens.scope is None or not others:
        return found
    seen = {r[0] for r in await db.fetchall(
        f"SELECT o.id FROM attempts o WHERE o.id IN ({ids_in(db.engine)}) "
        f"AND {seen_sql('o.user_id', 'o.started_at')}", (json.dumps(sorted(others)), lens.scope))}
    return {aid: [e if e.other_attempt_id in seen else dataclasses.replace(
                      e, other_user_id=None, other_attempt_id=None, other_pos=None, other_answer="")
                  for e in shown]
            for aid, shown in found.items()}


async def raised_disputes(db: Database, user_id: int, lens: Lens, *,
                          since: float | None = None) -> list[RaisedDispute]:
    """Every dispute the user raised (after `since` when given) whose doubt the lens' viewer may read
    (a dispute's words name a key), newest first."""
    rows = await db.fetchall("SELECT d.id, d.question_id, d.reason, d.status, d.created_at, q.paper_id "
                             "FROM disputes d LEFT JOIN questions q ON q.id = d.question_id "
                             "WHERE d.user_id=? AND d.created_at > ? ORDER BY d.created_at DESC, d.id DESC",
                             (user_id, _EVER if since is None else since))
    return [RaisedDispute(r[0], r[1], r[2], DisputeStatus(r[3]), r[4]) for r in rows
            if lens.of(r[5]).shows(Fact.doubt, r[1])]
