"""The one home of chats: their type, title and zone (`chats`), the team groups the bot knows, and
who was seen in a group (`chat_members`). The daily quiz, the leads' commands, leaderboards, digests
and the desk read and write them only here."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from proctor.local_time import zone
from proctor.storage.db import Database

_MEMBER_UPSERT = """INSERT INTO chat_members (chat_id, user_id, first_seen, last_seen) VALUES (?,?,?,?)
                    ON CONFLICT(chat_id, user_id) DO UPDATE SET last_seen=excluded.last_seen"""


@dataclass(frozen=True, slots=True)
class Team:
    chat_id: int
    title: str


async def all_teams(db: Database) -> list[Team]:
    """Every group or supergroup the bot has seen (a group where it was used), by title."""
    rows = await db.fetchall(
        "SELECT id, title FROM chats WHERE type IN ('group', 'supergroup') ORDER BY title, id")
    return [Team(r[0], r[1] or str(r[0])) for r in rows]


async def ensure_chat(db: Database, chat_id: int, chat_type: str, title: str, now: float) -> None:
    """Record the chat on first sight; keep its type and title fresh."""
    row = await db.fetchone("SELECT type, title FROM chats WHERE id=?", (chat_id,))
    if row is not None and row["type"] == chat_type and row["title"] == title:
        return

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute(
            """INSERT INTO chats (id, type, title, updated_at) VALUES (?,?,?,?)
               ON CONFLICT(id) DO UPDATE SET type=excluded.type, title=excluded.title,
                   updated_at=excluded.updated_at""",
            (chat_id, chat_type, title, now))

    await db.run_write(transaction)


async def chat_title(db: Database, chat_id: int) -> str:
    return await db.scalar("SELECT title FROM chats WHERE id=?", (chat_id,)) or ""


async def chat_timezone(db: Database, chat_id: int) -> str | None:
    """The zone the chat's schedule last set, if any."""
    zone: str | None = await db.scalar("SELECT timezone FROM chats WHERE id=?", (chat_id,))
    return zone


def set_timezone(conn: sqlite3.Connection, chat_id: int, timezone: str, now: float) -> None:
    """Inside the caller's write: the chat's zone is now `timezone`."""
    conn.execute("UPDATE chats SET timezone=?, updated_at=? WHERE id=?", (timezone, now, chat_id))


async def chat_zone(db: Database, chat_id: int | None, default: str) -> ZoneInfo:
    """The chat's zone: chats.timezone, else its daily quiz's zone, else `default`, else UTC (no chat:
    `default`, as for every team at once)."""
    if chat_id is None:
        return zone(default)
    name = await db.scalar(
        "SELECT COALESCE(c.timezone, s.timezone) FROM chats c "
        "LEFT JOIN daily_subscriptions s ON s.chat_id = c.id WHERE c.id=?", (chat_id,))
    return zone(name, default)


async def note_member(db: Database, chat_id: int, user_id: int, now: float) -> None:
    """Record that the user was seen in the group (the chat row must exist)."""
    await db.run_write(lambda conn: note_member_in(conn, chat_id, user_id, now))


def note_member_in(conn: sqlite3.Connection, chat_id: int, user_id: int, now: float) -> None:
    """`note_member` inside the caller's transaction (an answer and the sighting commit together)."""
    conn.execute(_MEMBER_UPSERT, (chat_id, user_id, now, now))


async def group_prefs(db: Database, chat_id: int) -> tuple[str | None, str | None]:
    """The group's own language and script (/lang, /script by its administrators); None: not set."""
    return await db.run(lambda conn: group_prefs_in(conn, chat_id))


def group_prefs_in(conn: sqlite3.Connection, chat_id: int) -> tuple[str | None, str | None]:
    """`group_prefs` on the database thread (an update's claim carries it: bot/userctx.py)."""
    row = conn.execute("SELECT language, script FROM chats WHERE id=?", (chat_id,)).fetchone()
    return (None, None) if row is None else (row["language"], row["script"])


async def set_group_language(db: Database, chat_id: int, language: str | None, now: float) -> None:
    """The group's language from now on (None: the bot's default). The chat row must exist."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE chats SET language=?, updated_at=? WHERE id=?", (language, now, chat_id))

    await db.run_write(transaction)


async def set_group_script(db: Database, chat_id: int, script: str, now: float) -> None:
    """How the group sees question text: as written, Simplified or Traditional. The chat row must exist."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE chats SET script=?, updated_at=? WHERE id=?", (script, now, chat_id))

    await db.run_write(transaction)
