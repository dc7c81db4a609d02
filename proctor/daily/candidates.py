"""The questions daily practice may ask: auto-gradable and askable, from papers not marked
exam-only (proctor/daily/selection.py chooses the day's set among them)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bank.kinds import CHOICE, OBJECTIVE, UNASKABLE, Kind
from bank.matching_answer import shown_count
from bank.option_order import MAX_OPTIONS
from bank.paper_counts import ASKABLE_SQL
from bank.store import Engine, one_row, text_agg
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Candidate:
    id: int
    paper_id: int
    topic: str  # the question's topic, else its section: what "balance across topics" spreads over
    kind: Kind = Kind.single

    @property
    def group_askable(self) -> bool:
        """May a group's quiz ask it? Not a matching question (private chats only)."""
        return self.kind != Kind.matching


def eligible(kind: Kind, flags: Iterable[str], retired: bool, exam_only: bool, n_options: int) -> bool:
    """May this question appear in daily practice?"""
    if exam_only or retired or kind not in OBJECTIVE or set(flags) & UNASKABLE:
        return False
    return (kind not in CHOICE and kind != Kind.matching) or 2 <= n_options <= MAX_OPTIONS


# What changes the candidates: papers (re)imported or toggled exam-only, questions added, retired,
# held (bank/question_checks.py) or released.
_VERSION = {engine: f"""SELECT (SELECT {text_agg(engine, "id || ':' || exam_only || ':' || imported_at", order_by="id")} FROM papers),
                     (SELECT COUNT(*) FROM questions), (SELECT COALESCE(SUM(id * retired), 0) FROM questions),
                     (SELECT COUNT(*) || ':' || COALESCE(SUM(question_id), 0) FROM question_checks WHERE held != '')"""
            for engine in Engine}


class CandidatePool:
    """Daily practice's candidates, loaded again only when a paper or question changed (at 09:00
    every chat asks at once). The running bot holds one for its database (bot.services.Services)."""

    def __init__(self) -> None:
        self._version: tuple[Any, ...] | None = None
        self._found: list[Candidate] = []

    async def candidates(self, db: Database) -> list[Candidate]:
        version = tuple(one_row(await db.fetchone(_VERSION[db.engine])))  # sub-selects only: always one row
        if version != self._version:
            self._found, self._version = await candidates(db), version
        return self._found


async def candidates(db: Database) -> list[Candidate]:
    """Every question daily practice may ask, from papers not marked exam-only (a `CandidatePool`
    keeps them while nothing changes)."""
    kinds = ",".join(f"'{k.value}'" for k in OBJECTIVE)
    rows = await db.fetchall(
        f"""SELECT q.id, q.paper_id, q.section_id, q.kind, q.topic, q.flags, q.options, q.answer, q.retired,
                   p.exam_only
            FROM questions q JOIN papers p ON p.id = q.paper_id
            LEFT JOIN question_checks c ON c.question_id = q.id
            WHERE p.exam_only = 0 AND {ASKABLE_SQL} AND q.kind IN ({kinds})""")
    return [
        Candidate(r["id"], r["paper_id"], r["topic"] or f"section {r['section_id']}", kind)
        for r in rows
        if eligible(kind := Kind(r["kind"]), json.loads(r["flags"]), bool(r["retired"]), bool(r["exam_only"]),
                    shown_count(kind, json.loads(r["options"]), json.loads(r["answer"])))
    ]
