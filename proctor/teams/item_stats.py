"""Question statistics from the answers the proctoring domain holds: exam answers (attempts,
answers) and daily answers. The figures themselves are the bank's (bank/item_stats.py); `cached`
reads them as a viewer may (the read rule's `Fact.item_stats`): a hiring paper's only for the
configured admins and the teams verified for it."""

from __future__ import annotations

import asyncio

from bank.item_stats import ItemStats, cached_stats, figures, questions, stats_of, store_figures
from bank.store import ids_in
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database

Pairs = dict[int, list[tuple[float, float]]]  # question id: (ability, item score share) per response


async def responses(db: Database, paper_id: int | None) -> Pairs:
    """Every scored response to a question (of one paper): a finished exam's final answers, with the
    attempt's score share as ability, and daily answers, with the user's overall daily accuracy."""
    where, params = ("AND q.paper_id=?", [paper_id]) if paper_id is not None else ("", [])
    out: Pairs = {}
    exam = await db.fetchall(
        f"""SELECT x.question_id, x.score / x.max_score AS share, t.score / t.max_score AS ability
            FROM answers x JOIN attempts t ON t.id = x.attempt_id JOIN questions q ON q.id = x.question_id
            WHERE t.mode = '{AttemptMode.exam}' AND t.status = '{AttemptStatus.finished}' AND x.final = 1
              AND x.max_score > 0 AND t.max_score > 0 {where}""", params)
    daily = await db.fetchall(
        f"""WITH ability AS (SELECT user_id, SUM(score) / SUM(max_score) AS ability FROM daily_answers
                             WHERE max_score > 0 GROUP BY user_id)
            SELECT d.question_id, d.score / d.max_score AS share, a.ability
            FROM daily_answers d JOIN ability a ON a.user_id = d.user_id
            JOIN questions q ON q.id = d.question_id WHERE d.max_score > 0 {where}""", params)
    for r in (*exam, *daily):
        out.setdefault(r[0], []).append((r[2], r[1]))
    return out


async def item_stats(db: Database, paper_id: int | None = None) -> list[ItemStats]:
    """Statistics of every question (of one paper), in paper, section, number order."""
    rows = await questions(db, paper_id)
    pairs = await responses(db, paper_id)
    return [stats_of(q, *figures(pairs.get(q["id"], []))) for q in rows]


async def refresh_cache(db: Database, now: float) -> None:
    """Compute every question's statistics and store them for `bank.item_stats.cached_stats`.
    Reads every answer: the figures are computed in a worker thread, off the event loop."""
    pairs = await responses(db, None)
    computed = await asyncio.to_thread(lambda: {qid: figures(p) for qid, p in pairs.items()})
    await store_figures(db, computed, now)


async def cached(db: Database, lens: Lens, paper_id: int | None = None) -> tuple[list[ItemStats], float | None]:
    """The stored statistics (bank.item_stats.cached_stats) of every question (of one paper) whose paper
    shows its item statistics to the lens' viewer, with when they were computed (None: never)."""
    stats, computed_at = await cached_stats(db, paper_id)
    shown = {r[0] for r in await db.fetchall(
        f"SELECT id FROM questions WHERE paper_id IN ({ids_in(db.engine)})",
        (lens.papers_showing(Fact.item_stats),))}
    return [s for s in stats if s.question_id in shown], computed_at
