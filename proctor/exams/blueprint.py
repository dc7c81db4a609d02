"""A blueprint: how many questions of each kind a paper draws, from which topics or papers, worth how
many points each. The mock paper (/exam random) is one; a composed paper (/newpaper) stores its own.

Only askable questions are drawn: never retired, quarantined (held), flagged or not-yet-asked kinds.
Exam-only papers are drawn from only when the blueprint says so (an exam-only composed paper): a
practice paper must not show a hiring paper's questions.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from bank.errors import BankError
from bank.models import Kind, Question
from bank.paper_store import get_questions
from proctor.storage.db import Database

SECTION_NAMES = {
    Kind.fill: "填空题", Kind.single: "单项选择题", Kind.multi: "多项选择题", Kind.truefalse: "判断题",
    Kind.short: "简答题", Kind.discussion: "讨论题", Kind.case: "案例分析题",
    Kind.numerical: "数值题", Kind.matching: "匹配题",
}


@dataclass(frozen=True)
class Part:
    """`count` questions of `kind`, from `topics` and `papers` (paper ids; empty: any)."""

    kind: Kind
    count: int
    points: float | None = None  # each; None: the question's own
    topics: tuple[str, ...] = ()
    papers: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "count": self.count, "points": self.points,
                "topics": list(self.topics), "papers": list(self.papers)}


@dataclass(frozen=True)
class Blueprint:
    parts: tuple[Part, ...]
    exam_pool: bool = False  # exam-only papers may be drawn from too

    @classmethod
    def of_counts(cls, counts: dict[Kind, int]) -> Blueprint:
        return cls(tuple(Part(k, n) for k, n in counts.items()))

    @property
    def count(self) -> int:
        return sum(p.count for p in self.parts)

    def to_json(self) -> str:
        return json.dumps({"parts": [p.to_dict() for p in self.parts], "exam_pool": self.exam_pool},
                          ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Blueprint:
        data = json.loads(text)
        return cls(tuple(Part(Kind(p["kind"]), int(p["count"]), p.get("points"), tuple(p.get("topics", ())),
                              tuple(int(x) for x in p.get("papers", ()))) for p in data["parts"]),
                   bool(data.get("exam_pool", False)))


@dataclass(frozen=True)
class Short:
    part: Part
    available: int


class Shortfall(BankError):
    """The bank has too few askable questions for some parts of a blueprint."""

    def __init__(self, short: list[Short]) -> None:
        self.short = short
        super().__init__("not enough questions: " + "; ".join(
            f"{s.part.kind.value}: {s.part.count} wanted, {s.available} available" for s in short))


# the mock paper (/exam random): how many questions of each kind it draws, and its minutes
MOCK = Blueprint.of_counts({Kind.fill: 10, Kind.single: 10, Kind.multi: 10, Kind.truefalse: 10, Kind.short: 2})
MOCK_MINUTES = 60


async def _pool(db: Database, exam_pool: bool) -> dict[int, Question]:
    rows = await db.fetchall(
        "SELECT q.id FROM questions q JOIN papers p ON p.id=q.paper_id "
        "WHERE q.retired=0 AND p.blueprint IS NULL AND (? OR p.exam_only=0) ORDER BY q.id", (int(exam_pool),))
    return await get_questions(db, [r["id"] for r in rows])


def _fits(q: Question, part: Part, paper_of: dict[int, int]) -> bool:
    return (q.askable and q.kind == part.kind and (not part.topics or q.topic in part.topics)
            and (not part.papers or paper_of.get(q.id or 0) in part.papers))


async def draw(db: Database, blueprint: Blueprint, rng: random.Random, *,
               strict: bool = False) -> list[tuple[str, Question]]:
    """(section title, question) per drawn question, each question once, points as the part says.
    `strict` raises Shortfall when a part cannot be filled; otherwise it takes what there is."""
    pool = await _pool(db, blueprint.exam_pool)
    paper_of: dict[int, int] = {}
    if any(p.papers for p in blueprint.parts) and pool:
        marks = ",".join("?" * len(pool))
        rows = await db.fetchall(f"SELECT id, paper_id FROM questions WHERE id IN ({marks})", list(pool))
        paper_of = {r["id"]: r["paper_id"] for r in rows}
    taken: set[int] = set()
    chosen: list[tuple[str, Question]] = []
    short: list[Short] = []
    for part in blueprint.parts:
        fits = [q for qid, q in pool.items() if qid not in taken and _fits(q, part, paper_of)]
        if len(fits) < part.count:
            short.append(Short(part, len(fits)))
        for q in rng.sample(fits, min(part.count, len(fits))):
            taken.add(q.id or 0)
            chosen.append((SECTION_NAMES.get(part.kind, part.kind.value),
                           q if part.points is None else q.model_copy(update={"points": part.points})))
    if strict and short:
        raise Shortfall(short)
    return chosen
