"""The ratings people are shown (docs/ratings.md, "Who sees which rating"): read from counted answers
against the questions as they stand now (rule.shown), for the person themself (every answer) or for a
team (the answers it may read: proctor/teams/rating_board.py), and the band they are shown with."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from proctor.ratings import rule
from proctor.ratings.events import beliefs_in
from proctor.ratings.listing import LISTED
from proctor.ratings.rule import Rating
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as a screen shows it, at `now`: points, the band it very likely lies in, the answers it
    rests on, and whether it is still provisional (its uncertainty above rule.PROVISIONAL)."""

    rating: int
    low: int
    high: int
    answers: int
    provisional: bool
    mean: float  # logits, for ranking

    @classmethod
    def of(cls, r: Rating, now: float) -> Shown:
        deviation = rule.deviation_at(r, now)
        low, high = rule.band(r.mean, deviation)
        return cls(round(rule.points(r.mean)), low, high, r.answers, deviation > rule.PROVISIONAL, r.mean)


def shown_in(conn: sqlite3.Connection, where: str = "true", params: Sequence[object] | Mapping[str, object] = ()) -> dict[int, Rating]:
    """The rating each person is shown (rule.shown) from their counted answers that `where` keeps (SQL
    over the event `e` and its question `q`), read against the questions as they stand now."""
    rows = conn.execute(f"SELECT e.user_id, e.question_id, e.correct, e.at FROM rating_events e "
                        f"JOIN questions q ON q.id = e.question_id WHERE {where} ORDER BY e.seq", params).fetchall()
    beliefs = beliefs_in(conn, (r[1] for r in rows))
    answers: dict[int, list[tuple[float, Rating, float, float]]] = {}
    for user_id, question_id, correct, at in rows:
        belief, floor = beliefs[question_id]
        answers.setdefault(user_id, []).append((correct, belief, floor, at))
    return {user_id: r for user_id, mine in answers.items() if (r := rule.shown(mine)) is not None}


@dataclass(frozen=True, slots=True)
class Own:
    """What /mystats says of the person's rating: it (None before their first counted answer), and
    whether their groups' boards name them (proctor/ratings/listing.py)."""

    shown: Shown | None
    listed: bool


async def own(db: Database, user_id: int, now: float) -> Own:
    """The person's own rating, from every answer of theirs that counted, in one read."""

    def read(conn: sqlite3.Connection) -> Own:
        found = shown_in(conn, "e.user_id = ?", (user_id,))
        listed = conn.execute(f"SELECT 1 FROM ({LISTED}) listed WHERE user_id = ?", (user_id,)).fetchone() is not None
        return Own(Shown.of(found[user_id], now) if user_id in found else None, listed)

    return await db.run(read)
