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

from bank.kinds import SECTION_TITLES, Kind
from bank.models import Question
from bank.question_rows import QUESTION_SELECT, question_from_row
from bank.topics import topic_of
from proctor.errors import ProctorError
from proctor.storage.db import Database


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


@dataclass(frozen=True, slots=True)
class Short:
    part: Part
    available: int


class Shortfall(ProctorError):
    """The bank has too few askable questions for some parts of a blueprint."""

    def __init__(self, short: list[Short]) -> None:
        self.short = short
        super().__init__("not enough questions: " + "; ".join(
            f"{s.part.kind.value}: {s.part.count} wanted, {s.available} available" for s in short))


# the mock paper (/exam random): how many questions of each kind it draws, and its minutes. The bundled
# bank has no numerical or matching questions: the mock draws what the bank has (42 there), and its
# rules card says so (drawn_size)
MOCK = Blueprint.of_counts({Kind.fill: 10, Kind.single: 10, Kind.multi: 10, Kind.truefalse: 10, Kind.short: 2,
                           Kind.numerical: 2, Kind.matching: 1})
MOCK_MINUTES = 60


async def _pool(db: Database, exam_pool: bool) -> tuple[dict[int, Question], dict[int, tuple[int, str]]]:
    """The questions a blueprint may draw, by id, and each one's paper and topic (its own, else its
    paper's subject: bank/topics.py)."""
    rows = await db.fetchall(
        f"{QUESTION_SELECT} WHERE q.retired=0 AND p.blueprint IS NULL AND (? = 1 OR p.exam_only=0) ORDER BY q.id",
        (int(exam_pool),))
    subjects = {r["id"]: r["subject"] for r in await db.fetchall("SELECT id, subject FROM papers")}
    return ({r["id"]: question_from_row(r) for r in rows},
            {r["id"]: (r["paper_id"], topic_of(r["topic"], subjects[r["paper_id"]])) for r in rows})


def _fits(q: Question, part: Part, homes: dict[int, tuple[int, str]]) -> bool:
    paper, topic = homes[q.id or 0]
    return (q.askable and q.kind == part.kind and (not part.topics or topic in part.topics)
            and (not part.papers or paper in part.papers))


async def draw(db: Database, blueprint: Blueprint, rng: random.Random, *,
               strict: bool = False) -> list[tuple[str, Question]]:
    """(section title, question) per drawn question, each question once, points as the part says.
    `strict` raises Shortfall when a part cannot be filled; otherwise it takes what there is."""
    pool, homes = await _pool(db, blueprint.exam_pool)
    taken: set[int] = set()
    chosen: list[tuple[str, Question]] = []
    short: list[Short] = []
    for part in blueprint.parts:
        fits = [q for qid, q in pool.items() if qid not in taken and _fits(q, part, homes)]
        if len(fits) < part.count:
            short.append(Short(part, len(fits)))
        for q in rng.sample(fits, min(part.count, len(fits))):
            taken.add(q.id or 0)
            chosen.append((SECTION_TITLES.get(part.kind, part.kind.value),
                           q if part.points is None else q.model_copy(update={"points": part.points})))
    if strict and short:
        raise Shortfall(short)
    return chosen


class BadBlueprint(ProctorError):
    """A blueprint line or file that can't be read; the message names the line and what was expected."""


KIND_NAMES: dict[str, Kind] = {k.value: k for k in Kind} | {
    "tf": Kind.truefalse, "true/false": Kind.truefalse, "单选": Kind.single, "单选题": Kind.single,
    "多选": Kind.multi, "多选题": Kind.multi, "判断": Kind.truefalse, "判断题": Kind.truefalse,
    "填空": Kind.fill, "填空题": Kind.fill, "简答": Kind.short, "简答题": Kind.short,
}
LINE_HELP = "kind count [points] [topic:NAME] [paper:CODE]"


def part_of(line: str, paper_ids: dict[str, int]) -> Part:
    """One part from a line like `single 5 2 topic:梯度累积 paper:P1` (a topic as bank/topics.py reads
    it: a question's own, else its paper's subject). Raises BadBlueprint."""
    words = line.split()
    if len(words) < 2 or words[0].lower() not in KIND_NAMES or not words[1].isdigit() or int(words[1]) < 1:
        raise BadBlueprint(f"“{line.strip()[:60]}”: expected {LINE_HELP}")
    kind, count = KIND_NAMES[words[0].lower()], int(words[1])
    points: float | None = None
    topics: list[str] = []
    papers: list[int] = []
    for w in words[2:]:
        if w.startswith(("topic:", "paper:")):
            name, _, value = w.partition(":")
            if name == "topic":
                topics.append(value)
            elif value in paper_ids:
                papers.append(paper_ids[value])
            else:
                raise BadBlueprint(f"“{line.strip()[:60]}”: no paper {value!r}")
        elif points is None and _number(w) is not None:
            points = _number(w)
        else:
            raise BadBlueprint(f"“{line.strip()[:60]}”: “{w[:30]}” is not points, topic:NAME or paper:CODE")
    if count > 500:
        raise BadBlueprint(f"“{line.strip()[:60]}”: at most 500 questions a part")
    return Part(kind, count, points, tuple(topics), tuple(papers))


def parse_lines(text: str, paper_ids: dict[str, int], *, exam_pool: bool = False) -> Blueprint:
    """A blueprint from one part per line. Raises BadBlueprint."""
    parts = [part_of(line, paper_ids) for line in text.splitlines() if line.strip()]
    if not parts:
        raise BadBlueprint(f"no parts: one line each, {LINE_HELP}")
    return Blueprint(tuple(parts), exam_pool)


def _number(word: str) -> float | None:
    try:
        value = float(word)
    except ValueError:
        return None
    return value if 0 < value <= 1000 else None


async def paper_ids(db: Database) -> dict[str, int]:
    """Imported papers by code (P3) and by slug: what `paper:CODE` may name."""
    rows = await db.fetchall("SELECT slug, code, id FROM papers WHERE blueprint IS NULL")
    return {r["slug"]: r["id"] for r in rows} | {r["code"]: r["id"] for r in rows}


@dataclass(frozen=True, slots=True)
class DrawSize:
    """What a rules card promises for a draw from this bank: its questions and its points."""

    questions: int
    low: float  # the fewest points a draw is worth (its questions' own points differ)
    high: float  # the most


async def drawn_size(db: Database, blueprint: Blueprint) -> DrawSize:
    """How many questions a draw of the blueprint gives from this bank (a part the bank cannot fill
    gives what there is) and the points it is worth: each part's cheapest and dearest questions
    (exact while no two parts can draw the same question, as in the mock's one part a kind)."""
    pool, homes = await _pool(db, blueprint.exam_pool)
    n, low, high = len(await draw(db, blueprint, random.Random(0))), 0.0, 0.0
    for part in blueprint.parts:
        worth = sorted(part.points if part.points is not None else q.points
                       for q in pool.values() if _fits(q, part, homes))
        take = min(part.count, len(worth))
        low += sum(worth[:take])
        high += sum(worth[len(worth) - take:])
    return DrawSize(n, low, high)


async def pool_counts(db: Database, *, exam_pool: bool = False) -> dict[Kind, int]:
    """Askable questions per kind that a blueprint may draw."""
    counts: dict[Kind, int] = {}
    for q in (await _pool(db, exam_pool))[0].values():
        if q.askable:
            counts[q.kind] = counts.get(q.kind, 0) + 1
    return counts
