"""The live rounds a start-up must go on with: running, or ended with their podium not posted yet."""

from __future__ import annotations

from proctor.live.states import RUNNING, RoundStatus, in_sql
from proctor.storage.db import Database


async def unfinished(db: Database) -> list[int]:
    """The ids of the rounds to go on with."""
    rows = await db.fetchall(
        f"SELECT id FROM live_rounds WHERE status IN ({in_sql(RUNNING)}) "
        f"OR (podium_posted = 0 AND status IN ({in_sql((RoundStatus.finished, RoundStatus.stopped))}))")
    return [r[0] for r in rows]
