"""Question statistics, and the lead's curation of the bank (retire, restore, exam-only).

The figures are computed here from (ability, share) pairs; the answers they come from are the
proctoring domain's tables, read by proctor/teams/item_stats.py (`item_stats`, `refresh_cache`).

Difficulty is the facility index: the mean share of the points a response earned (for one-point
questions, the share of answers that are correct). Discrimination is the upper-lower 27% index:
the facility among the strongest 27% of respondents minus that among the weakest 27%, where
strength is the respondent's overall result: the attempt's score share for exam answers, the
candidate's overall daily-quiz accuracy for daily answers. It ranges from -1 to 1; below 0.2 a
question separates strong from weak candidates poorly, below 0 it favours the weak ones.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bank.errors import NotFound
from bank.question_checks import refresh_paper
from bank.question_ref import QuestionRef
from bank.store import Store, one_row

MIN_RESPONSES = 10  # fewer: no discrimination index
GROUP_SHARE = 0.27


@dataclass(frozen=True, slots=True)
class ItemStats:
    question_id: int
    paper: str
    section: int
    number: int
    retired: bool
    responses: int
    difficulty: float | None  # facility, 0..1; None: never answered
    discrimination: float | None  # -1..1; None: fewer than MIN_RESPONSES responses
    flags: tuple[str, ...] = ()  # the import lint's flags on the question
    section_title: str = ""  # the section's title as the paper has it ("一、单项选择题（每题2分）")
    ref: QuestionRef = QuestionRef("", 0)  # the question's reference (P3 · Q43)


def upper_lower_index(pairs: list[tuple[float, float]]) -> float | None:
    """(ability, item score share) pairs -> the upper-lower 27% discrimination index."""
    if len(pairs) < MIN_RESPONSES:
        return None
    ordered = sorted(pairs, key=lambda p: p[0])
    k = max(1, round(len(ordered) * GROUP_SHARE))
    lower = sum(s for _, s in ordered[:k]) / k
    upper = sum(s for _, s in ordered[-k:]) / k
    return round(upper - lower, 4)


async def questions(db: Store, paper_id: int | None) -> list[sqlite3.Row]:
    where, params = ("WHERE q.paper_id=?", [paper_id]) if paper_id is not None else ("", [])
    return await db.fetchall(
        f"""SELECT q.id, q.number, q.retired, q.flags, p.title, s.position, s.title AS section_title, p.code, q.seq
            FROM questions q
            JOIN papers p ON p.id = q.paper_id JOIN sections s ON s.id = q.section_id {where}
            ORDER BY p.id, s.position, q.number""", params)


def stats_of(q: sqlite3.Row, responses: int, difficulty: float | None, discrimination: float | None) -> ItemStats:
    return ItemStats(question_id=q["id"], paper=q["title"], section=q["position"], number=q["number"],
                     retired=bool(q["retired"]), responses=responses, difficulty=difficulty,
                     discrimination=discrimination, flags=tuple(json.loads(q["flags"] or "[]")),
                     section_title=q["section_title"], ref=QuestionRef(q["code"], q["seq"], q["id"]))


def figures(pairs: list[tuple[float, float]]) -> tuple[int, float | None, float | None]:
    """(responses, difficulty, discrimination) of one question's (ability, share) pairs."""
    facility = round(sum(s for _, s in pairs) / len(pairs), 4) if pairs else None
    return len(pairs), facility, upper_lower_index(pairs)


async def store_figures(db: Store, figures: dict[int, tuple[int, float | None, float | None]],
                        now: float) -> None:
    """Store every question's figures (question id: responses, difficulty, discrimination), computed
    at `now`, for `cached_stats`."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("DELETE FROM item_stats_cache")
        conn.executemany(
            "INSERT INTO item_stats_cache (question_id, responses, difficulty, discrimination) "
            "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM questions WHERE id = ?)",
            [(qid, n, d, x, qid) for qid, (n, d, x) in figures.items()])
        conn.execute("INSERT INTO item_stats_computed (id, computed_at) VALUES (1, ?) "
                     "ON CONFLICT (id) DO UPDATE SET computed_at = excluded.computed_at", (now,))

    await db.run_write(transaction)


async def cached_stats(db: Store, paper_id: int | None = None) -> tuple[list[ItemStats], float | None]:
    """The statistics as `store_figures` last stored them, with when (None: never computed); the
    question's status and flags are read now. Questions without a stored figure count 0 responses."""
    rows = await questions(db, paper_id)
    where, params = ("WHERE q.paper_id=?", [paper_id]) if paper_id is not None else ("", [])
    cached = {r[0]: (r[1], r[2], r[3]) for r in await db.fetchall(
        f"SELECT c.question_id, c.responses, c.difficulty, c.discrimination FROM item_stats_cache c "
        f"JOIN questions q ON q.id = c.question_id {where}", params)}
    computed_at = await db.scalar("SELECT computed_at FROM item_stats_computed WHERE id = 1")
    return [stats_of(q, *cached.get(q["id"], (0, None, None))) for q in rows], computed_at


def needs_attention(stats: list[ItemStats], limit: int = 10) -> list[ItemStats]:
    """Askable questions that discriminate worst, then the ones nearly everyone gets wrong."""
    scored = [s for s in stats if not s.retired and s.discrimination is not None]
    scored.sort(key=lambda s: (s.discrimination, s.difficulty or 0.0))
    return scored[:limit]


def set_retired_in(conn: sqlite3.Connection, question_id: int, retired: bool) -> None:
    """Retire a question (never asked again) or restore it, inside the caller's write transaction
    (a lead's: proctor.teams.curation.set_retired, audited). Raises NotFound."""
    cur = conn.execute("UPDATE questions SET retired=? WHERE id=?", (int(retired), question_id))
    if cur.rowcount != 1:
        raise NotFound(f"no question {question_id}")
    # retiring the first of two same-stem questions lets the repeat be asked (bank/question_checks.py)
    cur = conn.execute("SELECT paper_id FROM questions WHERE id=?", (question_id,))
    refresh_paper(conn, one_row(cur.fetchone())[0])


async def is_exam_only(db: Store, paper_id: int) -> bool:
    return bool(await db.scalar("SELECT exam_only FROM papers WHERE id=?", (paper_id,)))

