"""A sitting's ability estimate on its paper (docs/ratings.md, "Hiring"): what the invite report and the
inviting lead's card show beside the raw score, with its band.

It is read from the sitting's questions as the score counts them (each final answer's share of its
points, a question left unanswered as 0; one awaiting review is left out until reviewed) against the
questions' measured difficulties as they stand when it is read, their priors where no answer counted
yet. An invited attempt counts for no rating (proctor/exams/rated.py), so no candidate's answers move a
question: every candidate of a round is read against the same difficulties, and who sat first changes
nobody's estimate."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from bank.store import Engine, engine_of, ids_in
from proctor.ratings import rule
from proctor.ratings.events import beliefs_in, correct_sql
from proctor.ratings.shown import Shown
from proctor.storage.db import Database

_ASKED = {engine: f"""SELECT i.attempt_id, i.question_id, CASE WHEN x.attempt_id IS NULL THEN 0.0 ELSE {correct_sql('x')} END,
                    COALESCE(t.finished_at, t.started_at)
             FROM attempt_items i JOIN attempts t ON t.id = i.attempt_id
             LEFT JOIN answers x ON x.attempt_id = i.attempt_id AND x.pos = i.pos
             WHERE i.attempt_id IN ({ids_in(engine)}) AND i.question_id IS NOT NULL
               AND (x.attempt_id IS NULL OR x.final = 1)
             ORDER BY i.attempt_id, i.pos""" for engine in Engine}


def estimates_in(conn: sqlite3.Connection, attempt_ids: Iterable[int]) -> dict[int, Shown]:
    """Each sitting's estimate by attempt id (none for a sitting with no question read), every one
    against the same difficulties, read once."""
    rows = conn.execute(_ASKED[engine_of(conn)], (json.dumps(sorted(set(attempt_ids))),)).fetchall()
    beliefs = beliefs_in(conn, (r[1] for r in rows))
    sittings: dict[int, list[tuple[float, rule.Rating, float, float]]] = {}
    for attempt_id, question_id, correct, at in rows:
        belief, floor = beliefs[question_id]
        sittings.setdefault(attempt_id, []).append((correct, belief, floor, at))
    out = {}
    for attempt_id, answers in sittings.items():
        found = rule.shown(answers)
        if found is not None:
            out[attempt_id] = Shown.of(found, found.at)  # as of the sitting: no time away widens it
    return out


async def estimates(db: Database, attempt_ids: Iterable[int]) -> dict[int, Shown]:
    """`estimates_in` in one read."""
    ids = list(attempt_ids)
    return await db.run(lambda conn: estimates_in(conn, ids)) if ids else {}
