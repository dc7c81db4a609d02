"""Questions' measured difficulty as the author and the leads read it (docs/ratings.md, "Questions"):
"answered right by about N% of people at the median rating", beside the author's label, and the flags
that ask the author to look: a question nearly everyone gets right, one nearly nobody gets right beyond
guessing, one whose label says otherwise than its measure. Only once MIN_ANSWERS answers counted (a
question nearly everyone gets right tells little with each answer, so its uncertainty shrinks slowly:
a count is the plainer test), and through the read rule: a paper's only where the viewer's lens shows
its item statistics (`Fact.item_stats`)."""

from __future__ import annotations

import sqlite3
import statistics
from dataclasses import dataclass
from enum import StrEnum

from bank.store import engine_of, ids_in
from proctor.exams.visibility import Fact, Lens
from proctor.ratings import rule
from proctor.ratings.events import beliefs_in
from proctor.storage.db import Database

MIN_ANSWERS = 20  # counted answers before a measure flags anything
EASY = 0.90  # flagged as too easy when people at the median rating answer it right more often than this
HARD = 0.10  # flagged as too hard when they know it (beyond what guessing gives) less often than this
LABEL_GAP = rule.LABEL_STEP  # flagged when the measure is a whole label's step from where the label put it


class Flag(StrEnum):
    """Why the author should look at a question, from its measure."""

    too_easy = "too_easy"  # nearly everyone gets it right
    too_hard = "too_hard"  # nearly nobody gets it right beyond guessing
    label_disagrees = "label_disagrees"  # its label says easier or harder than it measures


@dataclass(frozen=True, slots=True)
class Measured:
    question_id: int
    right: float  # the chance that a person at the median rating answers it right, 0..1
    difficulty: int  # on the scale ratings are read on
    answers: int  # the counted answers it rests on
    settled: bool  # MIN_ANSWERS answers counted: flags only then
    label: str  # the author's label (questions.difficulty), as written
    flags: tuple[Flag, ...]


def flags_of(right: float, floor: float, measured: float, label: str, settled: bool) -> tuple[Flag, ...]:
    """The flags of a question at the median rating (`right`), its floor, its measure and label."""
    if not settled:
        return ()
    found = []
    if right > EASY:
        found.append(Flag.too_easy)
    if (right - floor) / (1 - floor) < HARD:
        found.append(Flag.too_hard)
    prior = rule.label_prior(label)
    if prior is not None and abs(measured - prior) >= LABEL_GAP:
        found.append(Flag.label_disagrees)
    return tuple(found)


def measured_in(conn: sqlite3.Connection, lens: Lens, paper_id: int | None = None) -> dict[int, Measured]:
    """The questions of every paper (or one) whose item statistics the lens shows, by question id; one
    without a counted answer has its label and its prior (`answers` 0)."""
    rows = conn.execute(
        "SELECT q.id, q.difficulty FROM questions q "
        f"WHERE q.paper_id IN ({ids_in(engine_of(conn))}) AND (CAST(? AS INTEGER) IS NULL OR q.paper_id = ?)",
        (lens.papers_showing(Fact.item_stats), paper_id, paper_id)).fetchall()
    if not rows:
        return {}
    people = [r[0] for r in conn.execute("SELECT mean FROM person_ratings")]
    median = statistics.median(people) if people else 0.0
    beliefs = beliefs_in(conn, (r[0] for r in rows))
    out = {}
    for qid, label in rows:
        belief, floor = beliefs[qid]
        right = rule.chance(median, belief, floor)
        settled = belief.answers >= MIN_ANSWERS
        out[qid] = Measured(qid, right, round(rule.points(belief.mean)), belief.answers, settled, label or "",
                            flags_of(right, floor, belief.mean, label or "", settled))
    return out


async def measured(db: Database, lens: Lens, paper_id: int | None = None) -> dict[int, Measured]:
    """`measured_in` in one read."""
    return await db.run(lambda conn: measured_in(conn, lens, paper_id))
