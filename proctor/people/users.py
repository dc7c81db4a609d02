"""Users and their preferences."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class UserPrefs:
    id: int
    first_name: str
    language: str | None  # None: follow Telegram
    script: str  # 'orig' | 'hans' | 'hant'
    telegram_language: str | None = None  # what their Telegram app last reported (language_code)


async def ensure_user(db: Database, user_id: int, first_name: str, username: str | None,
                      now: float, *, telegram_language: str | None = None) -> UserPrefs:
    """Create the user on first sight, refresh their name (and the language their Telegram app
    reports, when the update gives one); returns their preferences. A known user costs a read; a
    new, renamed or relanguaged one a write transaction (`ensure_user_in`)."""
    known = await db.run(lambda conn: known_prefs_in(conn, user_id, first_name, username,
                                                     telegram_language=telegram_language))
    if known is not None:
        return known
    return await db.run_write(lambda conn: ensure_user_in(conn, user_id, first_name, username, now,
                                                          telegram_language=telegram_language))


def _prefs(row: sqlite3.Row) -> UserPrefs:
    return UserPrefs(row["id"], row["first_name"], row["language"], row["script"], row["telegram_language"])


def known_prefs_in(conn: sqlite3.Connection, user_id: int, first_name: str, username: str | None, *,
                   telegram_language: str | None = None) -> UserPrefs | None:
    """On the database thread: a known user's preferences when their record is up to date (the
    name Telegram gives now, and its language when given); None when `ensure_user` has something
    to write."""
    row = conn.execute("SELECT * FROM users WHERE id=?", (user_id,)).fetchone()
    if row is None or row["first_name"] != first_name or row["username"] != username:
        return None
    if telegram_language is not None and row["telegram_language"] != telegram_language:
        return None
    return _prefs(row)


def ensure_user_in(conn: sqlite3.Connection, user_id: int, first_name: str, username: str | None,
                   now: float, *, telegram_language: str | None = None) -> UserPrefs:
    """`ensure_user` on the database thread, under the write lock (an update's claim carries it:
    bot.core): writes only for a new, renamed or relanguaged user (an update without a language
    keeps the one known)."""
    known = known_prefs_in(conn, user_id, first_name, username, telegram_language=telegram_language)
    if known is not None:
        return known
    row = conn.execute(
        """INSERT INTO users (id, first_name, username, telegram_language, created_at) VALUES (?,?,?,?,?)
           ON CONFLICT(id) DO UPDATE SET first_name=excluded.first_name, username=excluded.username,
               telegram_language=COALESCE(excluded.telegram_language, users.telegram_language)
           RETURNING id, first_name, language, script, telegram_language""",
        (user_id, first_name, username, telegram_language, now)).fetchall()[0]  # stepped to its end
    return _prefs(row)


async def find_prefs(db: Database, user_id: int) -> UserPrefs | None:
    """A known user's preferences, without touching the record; None for an unknown user."""
    return await db.run(lambda conn: prefs_in(conn, user_id))


def prefs_in(conn: sqlite3.Connection, user_id: int) -> UserPrefs | None:
    """`find_prefs` on the database thread."""
    row = conn.execute("SELECT * FROM users WHERE id=?", (user_id,)).fetchone()
    return None if row is None else _prefs(row)


async def set_language(db: Database, user_id: int, language: str | None) -> None:

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE users SET language=? WHERE id=?", (language, user_id))

    await db.run_write(transaction)


async def set_script(db: Database, user_id: int, script: str) -> None:
    if script not in ("orig", "hans", "hant"):
        raise ValueError(script)

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE users SET script=? WHERE id=?", (script, user_id))

    await db.run_write(transaction)


async def handles(db: Database, user_ids: list[int]) -> dict[int, str]:
    """How to reach each of these users, for those the bot has met: "@username", else their first
    name. Users it has never met are left out."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    rows = await db.fetchall(f"SELECT id, first_name, username FROM users WHERE id IN ({marks})", tuple(user_ids))
    return {r["id"]: f"@{r['username']}" if r["username"] else r["first_name"] or str(r["id"]) for r in rows}
