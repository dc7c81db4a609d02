"""Whether daily practice has anything in hand, asked before the bot loads its code: a chat with the
quiz on, or a quiz not finished (still accepting answers, or closed with its keys not yet posted).
A process that finds nothing here leaves bot/daily's handlers unloaded (bot/feature.py)."""

from __future__ import annotations

from proctor.daily import states
from proctor.daily.states import DeliveryStatus
from proctor.storage.db import Database

_OPEN_SQL = states.in_sql()  # the stored statuses of a quiz that accepts answers


def unfinished_sql(table: str = "daily_deliveries") -> str:
    """The condition on `table` (a name or alias of daily_deliveries) of a quiz start-up must pick
    up: open, or closed to answers with its keys not yet posted."""
    return (f"({table}.status IN ({_OPEN_SQL}) OR ({table}.status="
            f"'{states.stored(DeliveryStatus.keys_pending)}' AND {table}.closed_at IS NULL))")


async def anything_to_recover(db: Database) -> bool:
    """A schedule to re-arm or a quiz to resume or close: what daily practice's start-up looks for."""
    return bool(await db.scalar(
        "SELECT EXISTS(SELECT 1 FROM daily_subscriptions WHERE enabled=1) "
        f"OR EXISTS(SELECT 1 FROM daily_deliveries WHERE {unfinished_sql()})"))


async def accepting_answers(db: Database, chat_id: int) -> bool:
    """The chat has a quiz that accepts answers."""
    return bool(await db.scalar(
        f"SELECT EXISTS(SELECT 1 FROM daily_deliveries WHERE chat_id=? AND status IN ({_OPEN_SQL}))",
        (chat_id,)))
