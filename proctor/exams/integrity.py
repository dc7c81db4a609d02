"""An attempt's integrity signals in SQLite (the rules: proctor/integrity/signals.py): computed inside the hand-in's transaction, read by reports, cards and the desk.

`compute_in` runs in `proctor.exams.service.hand_in_in` (Finish, the deadline job and the start-up
hand-in all go through it), so a finished attempt has its signals before anybody is told it is in,
and a kill either keeps both or neither. It is cheap enough for that: one read of the attempt's
answers, one of the paper's finished durations, and for each written answer one indexed read of the
same paper's normalised answers to that question, compared by rapidfuzz in C (bench/README.md).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from bank.grading.result import Verdict
from bank.kinds import Kind
from bank.store import Engine, engine_of, indexed_by
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.integrity.signals import (
    SIMILAR_KEPT,
    Found,
    Signal,
    Thresholds,
    Timed,
    fast_answers,
    late_changes,
    normalise,
    quick_hand_in,
    similar_to,
    written,
)
from proctor.storage.db import Database

THRESHOLD_COLUMNS = "p.signals, p.signal_similar, p.signal_fast, p.signal_late, p.signal_quick"


def thresholds_of(row: sqlite3.Row) -> Thresholds:
    """A paper's thresholds from a row with THRESHOLD_COLUMNS (a mock paper, NULLs: the defaults)."""
    if row["signals"] is None:
        return Thresholds()
    return Thresholds(on=bool(row["signals"]), similar=row["signal_similar"], fast=row["signal_fast"],
                      late=row["signal_late"], quick=row["signal_quick"])


def response_text(raw: str | None) -> str:
    """A stored response (JSON) as the text the candidate gave."""
    if raw is None:
        return ""
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _shown(stem: str, options: str) -> str:
    try:
        opts = json.loads(options or "[]")
    except ValueError:
        opts = []
    return "\n".join([stem, *(str(o) for o in opts if isinstance(o, str))])


def compute_in(conn: sqlite3.Connection, attempt_id: int, now: float) -> list[Found]:
    """Find and store the signals of a just-finished exam attempt (inside the hand-in's transaction).
    Nothing for practice or for a paper with signals off. The hand-in runs it once per attempt."""
    head = conn.execute(
        f"""SELECT a.paper_id, a.user_id, a.mode, a.status, a.started_at, a.finished_at, {THRESHOLD_COLUMNS}
            FROM attempts a LEFT JOIN papers p ON p.id = a.paper_id WHERE a.id=?""", (attempt_id,)).fetchone()
    if head is None or head["mode"] != AttemptMode.exam or head["status"] != AttemptStatus.finished:
        return []
    th = thresholds_of(head)
    if not th.on:
        return []
    rows = conn.execute(
        """SELECT x.pos, x.question_id, x.response, x.verdict, x.answered_at, x.changes, i.shown_at,
                  q.kind, q.stem, q.options
           FROM answers x JOIN attempt_items i ON i.attempt_id = x.attempt_id AND i.pos = x.pos
           JOIN questions q ON q.id = x.question_id WHERE x.attempt_id=? ORDER BY x.pos""",
        (attempt_id,)).fetchall()
    # what the screen showed is read only for right answers: the one rule that reads it (fast_answers)
    # reads no other, and parsing every question's options would be a fifth of a hand-in's time
    answers = [Timed(pos=r["pos"], kind=Kind(r["kind"]),
                     shown=_shown(r["stem"], r["options"]) if r["verdict"] == Verdict.correct else "",
                     typed=response_text(r["response"]), correct=r["verdict"] == Verdict.correct, shown_at=r["shown_at"],
                     answered_at=r["answered_at"], changes=r["changes"]) for r in rows]
    found = [*fast_answers(answers, th), *late_changes(answers, head["finished_at"], th)]
    paper_id = head["paper_id"]
    if paper_id is not None:
        seconds = head["finished_at"] - head["started_at"]
        quick = quick_hand_in(seconds, *median_duration_in(conn, paper_id, head["user_id"]), th)
        if quick is not None:
            found.append(quick)
        found += _similar_in(conn, attempt_id, paper_id, rows, th)
    conn.executemany(
        "INSERT INTO attempt_signals (attempt_id, code, pos, other_attempt_id, other_pos, value, bound, at) "
        "VALUES (?,?,?,?,?,?,?,?)",
        [(attempt_id, f.code.value, f.pos, f.other_attempt_id, f.other_pos, f.value, f.bound, now) for f in found])
    # the other candidate's attempt shows the same pair from its side, while that answer has fewer
    # than SIMILAR_KEPT matches: the first copy of a leaked answer is not paired with every later one
    conn.executemany(
        f"""INSERT INTO attempt_signals (attempt_id, code, pos, other_attempt_id, other_pos, value, bound, at)
            SELECT ?,?,?,?,?,?,?,? WHERE (SELECT COUNT(*) FROM attempt_signals
                                          WHERE attempt_id=? AND code='{Signal.similar}' AND pos=?) < {SIMILAR_KEPT}""",
        [(f.other_attempt_id, f.code.value, f.other_pos, attempt_id, f.pos, f.value, f.bound, now,
          f.other_attempt_id, f.other_pos) for f in found if f.code == Signal.similar])
    return found


# other people's finished exam attempts of the paper, on migration 034's index (its WHERE, literally;
# user_id is its last column, so the count and the median's OFFSET read the index and never the table)
_DURATIONS = {engine: f"""FROM {indexed_by(engine, "attempts", "attempts_exam_durations_by_user")}
                WHERE paper_id=? AND user_id<>? AND status='{AttemptStatus.finished}' AND mode='{AttemptMode.exam}'"""
              for engine in Engine}


def median_duration_in(conn: sqlite3.Connection, paper_id: int, user_id: int) -> tuple[int, float | None]:
    """How many finished exam attempts other people have of the paper, and the median of their
    durations (seconds; None without any). Every sitting of `user_id` is left out: a candidate's own
    earlier quick sittings must not lower the bar for the next one. Counted and picked on the index
    of durations, not read row by row, so a hand-in costs the same with ten candidates before it or a
    thousand."""
    durations = _DURATIONS[engine_of(conn)]
    (count,) = conn.execute(f"SELECT COUNT(*) {durations}", (paper_id, user_id)).fetchone()
    if count == 0:
        return 0, None
    middle = [d for (d,) in conn.execute(
        f"SELECT finished_at - started_at AS d {durations} ORDER BY finished_at - started_at LIMIT ? OFFSET ?",
        (paper_id, user_id, 2 - count % 2, (count - 1) // 2))]
    return count, sum(middle) / len(middle)


def _similar_in(conn: sqlite3.Connection, attempt_id: int, paper_id: int, rows: list[sqlite3.Row],
                th: Thresholds) -> list[Found]:
    """Store this attempt's normalised written answers and compare each with the same paper's
    stored answers to the same question."""
    found: list[Found] = []
    for r in rows:
        if not written(Kind(r["kind"])):
            continue
        norm = normalise(response_text(r["response"]))
        if not norm:
            continue
        # other candidates' answers: never the same person's earlier sitting of the paper
        others = [(o[0], o[1], o[2]) for o in conn.execute(
            "SELECT w.attempt_id, w.pos, w.norm FROM written_answers w JOIN attempts a ON a.id = w.attempt_id "
            "WHERE w.paper_id=? AND w.question_id=? AND a.user_id <> (SELECT user_id FROM attempts WHERE id=?)",
            (paper_id, r["question_id"], attempt_id))]
        found += [Found(f.code, r["pos"], f.value, f.bound, f.other_attempt_id, f.other_pos)
                  for f in similar_to(norm, others, th)]
        conn.execute("INSERT INTO written_answers (attempt_id, pos, paper_id, question_id, norm) VALUES (?,?,?,?,?) "
                     "ON CONFLICT (attempt_id, pos) DO UPDATE SET paper_id = excluded.paper_id, "
                     "question_id = excluded.question_id, norm = excluded.norm", (attempt_id, r["pos"], paper_id, r["question_id"], norm))
    return found


# ---- reading ------------------------------------------------------------------------------------

async def counts(db: Database, attempt_ids: Iterable[int]) -> dict[int, dict[Signal, int]]:
    """Per attempt, how many signals of each kind (attempts without any are absent)."""
    ids = list(attempt_ids)
    if not ids:
        return {}
    return await db.run(lambda conn: counts_in(conn, ids))


def counts_in(conn: sqlite3.Connection, attempt_ids: Iterable[int]) -> dict[int, dict[Signal, int]]:
    """`counts` on the database thread."""
    ids = list(attempt_ids)
    out: dict[int, dict[Signal, int]] = {}
    for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
        for r in conn.execute(
                f"SELECT attempt_id, code, COUNT(*) FROM attempt_signals WHERE attempt_id IN "
                f"({','.join('?' * len(chunk))}) GROUP BY attempt_id, code", chunk):
            out.setdefault(r[0], {})[Signal(r[1])] = r[2]
    return out


@dataclass(frozen=True, slots=True)
class Evidence:
    """One signal with what shows it: the answer (and, for `similar`, the other candidate's)."""
    code: Signal
    pos: int | None
    question_id: int | None
    value: float
    bound: float
    answer: str
    shown_at: float | None
    answered_at: float | None
    changes: int
    other_user_id: int | None = None
    other_attempt_id: int | None = None
    other_pos: int | None = None
    other_answer: str = ""


async def evidence(db: Database, attempt_ids: Iterable[int], lens: Lens) -> dict[int, list[Evidence]]:
    """Per attempt, its signals with their evidence, question by question, as the lens' viewer may read
    them: what was written (this attempt's answer, and a similar answer's other side: who, which
    attempt, what they wrote) only where the viewer's Lens shows other people's answers of the
    paper; empty otherwise (the figures stay). Which others a
    team's leads may name is the roster's to say besides (proctor.teams.candidate.evidence)."""
    ids = list(attempt_ids)
    if not ids:
        return {}
    out: dict[int, list[Evidence]] = {}
    for r in await db.fetchall(
            f"""SELECT s.*, x.question_id, x.response, x.answered_at, x.changes, i.shown_at, t.paper_id,
                       o.user_id AS other_user_id, y.response AS other_response
                FROM attempt_signals s JOIN attempts t ON t.id = s.attempt_id
                LEFT JOIN answers x ON x.attempt_id = s.attempt_id AND x.pos = s.pos
                LEFT JOIN attempt_items i ON i.attempt_id = s.attempt_id AND i.pos = s.pos
                LEFT JOIN attempts o ON o.id = s.other_attempt_id
                LEFT JOIN answers y ON y.attempt_id = s.other_attempt_id AND y.pos = s.other_pos
                WHERE s.attempt_id IN ({','.join('?' * len(ids))})
                ORDER BY s.attempt_id, s.pos IS NOT NULL, s.pos, s.id""", ids):
        others = lens.of(r["paper_id"]).shows(Fact.others_answers)
        out.setdefault(r["attempt_id"], []).append(Evidence(
            code=Signal(r["code"]), pos=r["pos"], question_id=r["question_id"], value=r["value"],
            bound=r["bound"], answer=response_text(r["response"]) if others else "", shown_at=r["shown_at"],
            answered_at=r["answered_at"], changes=r["changes"] or 0,
            other_user_id=r["other_user_id"] if others else None,
            other_attempt_id=r["other_attempt_id"] if others else None,
            other_pos=r["other_pos"] if others else None,
            other_answer=response_text(r["other_response"]) if others else ""))
    return out
