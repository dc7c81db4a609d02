"""Which live round answers count for ratings (docs/ratings.md): every answer, at once (how right it
is: the share of the poll's points its options earned)."""

from __future__ import annotations

import sqlite3

from proctor.ratings.events import Counting, Source, count_in

LIVE = Counting(Source.live, "SELECT a.user_id, i.question_id, a.fraction AS correct, a.received_at AS at, "
                "a.round_id AS ref_id, a.pos AS ref_pos FROM live_answers a "
                "JOIN live_items i ON i.round_id = a.round_id AND i.pos = a.pos "
                "JOIN questions q ON q.id = i.question_id WHERE true")


def answered_in(conn: sqlite3.Connection, round_id: int, pos: int, user_id: int) -> None:
    """A live answer just stored, inside its transaction: it counts now."""
    count_in(conn, LIVE, "a.round_id = ? AND a.pos = ? AND a.user_id = ?", (round_id, pos, user_id))
