"""Which daily quiz answers count for ratings, and when (docs/ratings.md): a private quiz's answer at
once (its key is shown with it), a group's at the close that posts its keys (until then the group's
answers are open, and a rating that moved would say who was right)."""

from __future__ import annotations

import sqlite3

from proctor.ratings.events import Counting, Source, correct_sql, count_in

_ANSWERS = (f"SELECT a.user_id, a.question_id, {correct_sql('a')} AS correct, {{at}} AS at, a.delivery_id AS ref_id, "
            "a.pos AS ref_pos FROM daily_answers a JOIN daily_deliveries d ON d.id = a.delivery_id "
            "JOIN chats c ON c.id = d.chat_id WHERE ")

PRIVATE = Counting(Source.daily, _ANSWERS.format(at="a.answered_at") + "c.type = 'private'")
GROUP = Counting(Source.group_daily, _ANSWERS.format(at="d.closed_at") +
                 "c.type != 'private' AND d.closed_at IS NOT NULL")


def answered_in(conn: sqlite3.Connection, private: bool, delivery_id: int, pos: int, user_id: int) -> None:
    """A daily answer just stored, inside its step's transaction: a private quiz's counts now."""
    if private:
        count_in(conn, PRIVATE, "a.delivery_id = ? AND a.pos = ? AND a.user_id = ?", (delivery_id, pos, user_id))


def closed_in(conn: sqlite3.Connection, delivery_id: int) -> None:
    """A group's quiz closed with its keys posted, inside that transaction: its answers count now."""
    count_in(conn, GROUP, "a.delivery_id = ?", (delivery_id,))
