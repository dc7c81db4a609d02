"""Answers to the daily quiz: each member's first answer counts; standings for the day's top."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bank.grading.result import Grade, Verdict
from proctor.daily.delivery import answers_to_in
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Answer:
    pos: int
    user_id: int
    response: object
    score: float
    max_score: float
    verdict: Verdict


def daily_score(g: Grade, worth: float) -> float:
    """A daily answer's stored score, the answer being worth `worth` points: the grade's own score
    (to 4 decimals) when that is its question's points, as when answered; else the grade's share of
    `worth` (a question whose points changed since). Answering and a regrade both store this, so an
    unchanged key gives back the same score."""
    if worth == g.max_score:
        return g.score
    return min(worth, round(g.score / g.max_score * worth, 4)) if g.max_score else 0.0


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    name: str
    score: float
    max_score: float
    answered: int
    last_at: float


def _answer(row: sqlite3.Row) -> Answer:
    return Answer(row["pos"], row["user_id"], json.loads(row["response"]), row["score"],
                  row["max_score"], Verdict(row["verdict"]))


_USER_ANSWERS = "SELECT * FROM daily_answers WHERE delivery_id=? AND user_id=? ORDER BY pos"


async def user_answers(db: Database, delivery_id: int, user_id: int) -> list[Answer]:
    rows = await db.fetchall(_USER_ANSWERS, (delivery_id, user_id))
    return [_answer(r) for r in rows]


def user_answers_in(conn: sqlite3.Connection, delivery_id: int, user_id: int) -> list[Answer]:
    """`user_answers` on the database thread."""
    return [_answer(r) for r in conn.execute(_USER_ANSWERS, (delivery_id, user_id))]


async def answers_given(db: Database, delivery_id: int) -> int:
    """Every answer given to the delivery so far, all questions together."""
    count: int = await db.scalar("SELECT COUNT(*) FROM daily_answers WHERE delivery_id=?", (delivery_id,))
    return count


async def answer_count(db: Database, delivery_id: int, pos: int) -> int:
    return await db.run(lambda conn: answers_to_in(conn, delivery_id, pos))


async def standings(db: Database, delivery_id: int) -> list[Standing]:
    """Everyone who answered, best first; ties go to whoever finished first."""
    rows = await db.fetchall(
        """SELECT a.user_id, COALESCE(NULLIF(u.first_name, ''), u.username, CAST(a.user_id AS TEXT)) AS name,
                  SUM(a.score) AS score, SUM(a.max_score) AS max_score, COUNT(*) AS answered,
                  MAX(a.answered_at) AS last_at
           FROM daily_answers a JOIN users u ON u.id = a.user_id
           WHERE a.delivery_id=? GROUP BY a.user_id, u.id ORDER BY score DESC, last_at ASC, a.user_id""",
        (delivery_id,))
    return [Standing(r["user_id"], r["name"], r["score"], r["max_score"], r["answered"], r["last_at"])
            for r in rows]
