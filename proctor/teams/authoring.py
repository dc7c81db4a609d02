"""A lead's unfinished /editq or /newpaper: one at a time per lead, kept in SQLite so a restart
(or a second press) finds it where it was. Its state is a small JSON object the handler owns."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from proctor.storage.db import Database

EDITQ = "editq"
NEWPAPER = "newpaper"


@dataclass(frozen=True, slots=True)
class Session:
    kind: str
    state: dict[str, Any]


async def get_session(db: Database, user_id: int) -> Session | None:
    row = await db.fetchone("SELECT kind, state FROM authoring_sessions WHERE user_id=?", (user_id,))
    return None if row is None else Session(row["kind"], json.loads(row["state"]))


async def put_session(db: Database, user_id: int, kind: str, state: dict[str, Any], now: float) -> None:
    """Start or move on the lead's session (a new one replaces whatever was open)."""

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO authoring_sessions (user_id, kind, state, updated_at) VALUES (?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET kind=excluded.kind, state=excluded.state, "
            "updated_at=excluded.updated_at", (user_id, kind, json.dumps(state, ensure_ascii=False), now))

    await db.run_write(transaction)


async def end_session(db: Database, user_id: int) -> Session | None:
    """/cancel: the lead's open session ends; returns it (None: none was open)."""
    row = await db.run_write(lambda conn: conn.execute(
        "DELETE FROM authoring_sessions WHERE user_id=? RETURNING kind, state", (user_id,)).fetchone())
    return None if row is None else Session(row[0], json.loads(row[1]))


async def clear_session(db: Database, user_id: int) -> None:
    await db.run_write(lambda conn: conn.execute("DELETE FROM authoring_sessions WHERE user_id=?", (user_id,)))
