"""A candidate's record for their leads: every finished attempt with its sections, time used and
a cell per question (right / wrong / partial / awaiting review / unanswered), their answers, and
the disputes they raised. Keys are not part of it: the record shows what the candidate did.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from bank.grading.result import Verdict
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.storage.db import Database
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
    response: str


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


async def attempts(db: Database, user_id: int, *, with_exam_only: bool,
                   since: float | None = None) -> list[AttemptRecord]:
    """The user's finished attempts, newest first; hiring (exam-only) papers only if `with_exam_only`;
    only those started after `since` when given (a team sees what a member did since joining)."""
    heads = await db.fetchall(
        f"""SELECT t.id, t.title, t.mode, t.started_at, t.finished_at, t.score, t.max_score,
                  COALESCE(p.exam_only, 0) AS exam_only
           FROM attempts t LEFT JOIN papers p ON p.id = t.paper_id
           WHERE t.user_id=? AND t.status='{AttemptStatus.finished}' AND t.started_at > ?
           ORDER BY t.finished_at DESC, t.id DESC""",
        (user_id, _EVER if since is None else since))
    heads = [h for h in heads if with_exam_only or not h["exam_only"]]
    if not heads:
        return []
    marks = ",".join("?" * len(heads))
    cells: dict[int, list[Cell]] = {}
    for r in await db.fetchall(
            f"""SELECT i.attempt_id, i.pos, i.question_id, i.section, i.points, x.response, x.score,
                       x.max_score, x.verdict, x.final
                FROM attempt_items i LEFT JOIN answers x ON x.attempt_id = i.attempt_id AND x.pos = i.pos
                WHERE i.attempt_id IN ({marks}) ORDER BY i.attempt_id, i.pos""", [h["id"] for h in heads]):
        cells.setdefault(r["attempt_id"], []).append(Cell(
            pos=r["pos"], question_id=r["question_id"], section=r["section"],
            state=_state(None if r["verdict"] is None else Verdict(r["verdict"]), bool(r["final"])), score=r["score"] or 0.0,
            max_score=r["max_score"] if r["max_score"] is not None else r["points"],
            response=_text(r["response"])))
    out = []
    for h in heads:
        mine = cells.get(h["id"], [])
        sections: dict[str, list[float]] = {}
        for c in mine:
            got = sections.setdefault(c.section, [0.0, 0.0])
            got[0] += c.score
            got[1] += c.max_score
        out.append(AttemptRecord(
            id=h["id"], title=h["title"], mode=AttemptMode(h["mode"]), started_at=h["started_at"], finished_at=h["finished_at"],
            seconds=max(0.0, h["finished_at"] - h["started_at"]), score=h["score"], max_score=h["max_score"],
            exam_only=bool(h["exam_only"]), sections=[Section(t, s, m) for t, (s, m) in sections.items()],
            cells=mine))
    return out


async def raised_disputes(db: Database, user_id: int, *, since: float | None = None) -> list[RaisedDispute]:
    """Every dispute the user raised (after `since` when given), newest first."""
    rows = await db.fetchall("SELECT id, question_id, reason, status, created_at FROM disputes "
                             "WHERE user_id=? AND created_at > ? ORDER BY created_at DESC, id DESC",
                             (user_id, _EVER if since is None else since))
    return [RaisedDispute(r[0], r[1], r[2], DisputeStatus(r[3]), r[4]) for r in rows]
