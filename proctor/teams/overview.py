"""The team groups the bot knows (a group where it was used)."""

from __future__ import annotations

from dataclasses import dataclass

from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Team:
    chat_id: int
    title: str


async def all_teams(db: Database) -> list[Team]:
    """Every group or supergroup the bot has seen, by title."""
    rows = await db.fetchall(
        "SELECT id, title FROM chats WHERE type IN ('group', 'supergroup') ORDER BY title, id")
    return [Team(r[0], r[1] or str(r[0])) for r in rows]

