"""Streaks: how many daily quizzes in a row a user has answered in a chat.

A day counts when the chat had a quiz that day; a day without a quiz (the schedule was off, or
the bot was down all day) neither breaks nor extends a streak. Today's quiz, while the user has
not answered it yet, does not break it either: it can still be answered.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import date

from proctor.daily.states import DeliveryStatus
from proctor.storage.db import Database


def streak_from(quiz_days: Iterable[str], answered_days: Iterable[str], today: str) -> int:
    """The streak ending today, given the chat's quiz days and the days the user answered.

    Days are ISO dates ('YYYY-MM-DD'); days after `today` are ignored.
    """
    answered = set(answered_days)
    count = 0
    for day in sorted({d for d in quiz_days if d <= today} | {d for d in answered if d <= today},
                      reverse=True):
        if day in answered:
            count += 1
        elif day == today:
            continue
        else:
            break
    return count


async def streak(db: Database, chat_id: int, user_id: int, today: date | str) -> int:
    """The user's current streak of answered daily quizzes in this chat (private or group)."""
    return (await streaks(db, chat_id, [user_id], today))[user_id]


async def streaks(db: Database, chat_id: int, user_ids: Iterable[int], today: date | str) -> dict[int, int]:
    """Each user's streak in the chat, in one round trip (`streaks_in`)."""
    ids = list(user_ids)
    return await db.run(lambda conn: streaks_in(conn, chat_id, ids, today))


def streaks_in(conn: sqlite3.Connection, chat_id: int, user_ids: Iterable[int], today: date | str) -> dict[int, int]:
    """Each user's streak in the chat: two queries for the whole list, not two per user (the one
    reader: the push's top, /daily status, leaderboards, reports and a private quiz's summary). The
    days answered come from the daily_scores summary (a row per answered day and quarter hour:
    proctor/daily/scores.py)."""
    user_ids = list(dict.fromkeys(user_ids))
    if not user_ids:
        return {}
    day = today.isoformat() if isinstance(today, date) else today
    quiz_days = [r[0] for r in conn.execute(
        f"SELECT day FROM daily_deliveries WHERE chat_id=? AND day<=? AND status!='{DeliveryStatus.failed}'",
        (chat_id, day))]
    answered: dict[int, list[str]] = {}
    for at in range(0, len(user_ids), _BATCH):
        batch = user_ids[at:at + _BATCH]
        marks = ",".join("?" * len(batch))
        for r in conn.execute(
                f"SELECT DISTINCT user_id, day FROM daily_scores WHERE chat_id=? AND user_id IN ({marks}) "
                "AND day<=?", (chat_id, *batch, day)):
            answered.setdefault(r[0], []).append(r[1])
    return {uid: streak_from(quiz_days, answered.get(uid, ()), day) for uid in user_ids}


_BATCH = 500  # user ids per query (SQLite's variable limit)
