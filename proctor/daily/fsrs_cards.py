"""Spaced repetition with FSRS: one card per user and question, reviewed on every daily answer."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from functools import cache

from fsrs import Card, Rating, Scheduler

from bank.grading.result import Verdict
from proctor.storage.db import Database


@cache
def scheduler() -> Scheduler:
    # no fuzzing: the same answers on the same days give the same due dates (and the same tests)
    return Scheduler(enable_fuzzing=False)


@cache
def _ratings() -> dict[Verdict, Rating]:
    return {Verdict.correct: Rating.Good, Verdict.partial: Rating.Hard, Verdict.wrong: Rating.Again}


def rating_for(verdict: Verdict) -> Rating | None:
    """correct -> Good, partial -> Hard, wrong -> Again; None for a verdict that is not a grade."""
    return _ratings().get(verdict)


def review(card_json: str | None, verdict: Verdict, now: float, question_id: int) -> tuple[str, float] | None:
    """The card after answering with `verdict` at `now`: (card JSON, due timestamp), or None."""
    rating = rating_for(verdict)
    if rating is None:
        return None

    at = datetime.fromtimestamp(now, UTC)
    card = Card.from_json(card_json) if card_json else Card(card_id=question_id, due=at)
    card, _log = scheduler().review_card(card, rating, review_datetime=at)
    return card.to_json(), card.due.timestamp()


_CARD = "SELECT card FROM review_cards WHERE user_id=? AND question_id=?"
_SAVE = """INSERT INTO review_cards (user_id, question_id, card, due) VALUES (?,?,?,?)
           ON CONFLICT(user_id, question_id) DO UPDATE SET card=excluded.card, due=excluded.due"""


def review_in(conn: sqlite3.Connection, user_id: int, question_id: int, verdict: Verdict, now: float) -> None:
    """Review the user's card inside the caller's write transaction."""
    row = conn.execute(_CARD, (user_id, question_id)).fetchone()
    reviewed = review(row[0] if row else None, verdict, now, question_id)
    if reviewed is not None:
        conn.execute(_SAVE, (user_id, question_id, *reviewed))


async def due_cards(db: Database, user_id: int, now: float) -> list[int]:
    """Question ids whose card is due at `now`, most overdue first."""
    rows = await db.fetchall(
        "SELECT question_id FROM review_cards WHERE user_id=? AND due<=? ORDER BY due",
        (user_id, now))
    return [r[0] for r in rows]


async def known_questions(db: Database, user_id: int) -> set[int]:
    rows = await db.fetchall("SELECT question_id FROM review_cards WHERE user_id=?", (user_id,))
    return {r[0] for r in rows}
