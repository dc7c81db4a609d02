"""Whether the leads' feature has a job to re-arm, asked before the bot loads its code: a group
with its weekly digest on. A process that finds none leaves bot/leads' handlers unloaded
(bot/feature.py)."""

from __future__ import annotations

from proctor.storage.db import Database


async def any_digest(db: Database) -> bool:
    """Some group has its weekly digest on (proctor.teams.digest.schedules would list it)."""
    return bool(await db.scalar("SELECT EXISTS(SELECT 1 FROM digest_schedules WHERE enabled=1)"))
