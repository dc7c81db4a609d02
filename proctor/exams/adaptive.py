"""Practice at the person's level (`/practice` with no paper named; docs/ratings.md, "Adaptive practice"):
questions the person is expected to answer right about TARGET of the time, near their rating.

Which questions may be picked: objective ones (a written answer waits for a lead's review, and
practice gives its feedback at once) that are askable (not retired, held or flagged unaskable), of
practice papers only (never a hiring paper: exam-only or invite-only; never a composed paper's copy),
none sealed for the person (an exam of theirs running on it), none they met in the last AWAY (shown on
an exam's or practice's screen, answered in a daily quiz or a live round). The daily quiz keeps spaced repetition for
review (proctor/daily/)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from bank.kinds import OBJECTIVE, SECTION_TITLES
from bank.models import Question
from bank.question_rows import QUESTION_SELECT, question_from_row
from proctor.exams import seal
from proctor.hiring import hiring_sql
from proctor.ratings import rule
from proctor.ratings.events import beliefs_in
from proctor.ratings.rule import Rating
from proctor.storage.db import Database

TARGET = 0.70  # the chance of a right answer each question is picked for: hard enough to learn from
SESSION = 10  # questions a session picks
AWAY = 7 * 86400.0  # a question met this recently is not asked again
REPEAT = 0.10  # a question answered before (its answer no longer counts) is picked as if this much further off

_KINDS = "(" + ",".join(f"'{k}'" for k in sorted(OBJECTIVE)) + ")"
# the questions the person met since :since: on a sheet, in a daily quiz, in a live round
_MET = """SELECT i.question_id FROM attempt_items i JOIN attempts t ON t.id = i.attempt_id
          WHERE t.user_id = :user AND i.shown_at >= :since
          UNION SELECT a.question_id FROM daily_answers a WHERE a.user_id = :user AND a.answered_at >= :since
          UNION SELECT i.question_id FROM live_answers a JOIN live_items i ON i.round_id = a.round_id AND i.pos = a.pos
          WHERE a.user_id = :user AND a.received_at >= :since"""
_POOL = f"""{QUESTION_SELECT}
    WHERE q.retired = 0 AND q.kind IN {_KINDS} AND p.blueprint IS NULL AND NOT {hiring_sql('p')}
      AND q.id NOT IN (SELECT s.id FROM ({seal.SEALED_FOR_USER}) s) AND q.id NOT IN ({_MET})
    ORDER BY q.id"""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A question that may be picked: its measured difficulty as it stands, its floor, and whether the
    person answered it before (their first answer counted: a repeat measures memory)."""

    question_id: int
    belief: Rating
    floor: float
    seen: bool = False


def pick(person: Rating, candidates: Sequence[Candidate], n: int, rng: random.Random) -> list[int]:
    """The `n` candidates whose chance of a right answer for `person` (rule.chance at their running
    mean) is nearest TARGET, a repeat counted REPEAT further off; ties broken at random. Pure."""
    def off(c: Candidate) -> tuple[float, float]:
        return abs(rule.chance(person.mean, c.belief, c.floor) - TARGET) + (REPEAT if c.seen else 0.0), rng.random()

    return [c.question_id for c in sorted(candidates, key=off)[:n]]


def drawn_in(conn: sqlite3.Connection, user_id: int, now: float, rng: random.Random,
             n: int = SESSION) -> list[tuple[str, Question]]:
    """A session's questions for the person, as (section title, question): the picked ones, grouped by
    kind as a paper's sections are."""
    pool = {r["id"]: question_from_row(r) for r in conn.execute(_POOL, {"user": user_id, "since": now - AWAY})}
    pool = {qid: q for qid, q in pool.items() if q.askable}
    beliefs = beliefs_in(conn, pool)
    seen = {r[0] for r in conn.execute("SELECT question_id FROM rating_events WHERE user_id = ?", (user_id,))}
    row = conn.execute("SELECT mean, deviation, answers, at FROM person_ratings WHERE user_id = ?",
                       (user_id,)).fetchone()
    person = rule.newcomer(now) if row is None else Rating(*row)
    picked = pick(person, [Candidate(qid, *beliefs[qid], qid in seen) for qid in pool], n, rng)
    order = list(SECTION_TITLES)
    chosen = sorted((pool[qid] for qid in picked), key=lambda q: order.index(q.kind))
    return [(SECTION_TITLES[q.kind], q) for q in chosen]


async def drawn(db: Database, user_id: int, now: float, rng: random.Random) -> list[tuple[str, Question]]:
    """`drawn_in` in one read."""
    return await db.run(lambda conn: drawn_in(conn, user_id, now, rng))
