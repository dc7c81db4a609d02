"""The audit log's writer: one row per lead action, inside the transaction of the action itself.

Its reading side is proctor/teams/audit.py. The writer sits here, beneath the packages, because
actions outside proctor/teams write entries too (an attempt's regrade, invites, hiring papers, a
paper composed, the daily schedule) and proctor/teams imports those packages: a writer inside it
would close an import circle.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import aiosqlite

_AUDIT = ("INSERT INTO audit_log (at, actor_id, chat_id, action, target, target_user, detail) "
          "VALUES (?,?,?,?,?,?,?)")


async def record_audit(conn: aiosqlite.Connection, *, at: float, actor: int, chat_id: int | None,
                       action: str, target: str = "", target_user: int | None = None,
                       **detail: Any) -> None:
    """Append one audit entry; call inside `Database.write()` so it commits with the action."""
    await conn.execute(_AUDIT, (at, actor, chat_id, action, target, target_user,
                                json.dumps(detail, ensure_ascii=False)))


def record_audit_on(conn: sqlite3.Connection, *, at: float, actor: int, chat_id: int | None,
                    action: str, target: str = "", target_user: int | None = None, **detail: Any) -> None:
    """`record_audit` for a transaction run on the database thread (`Database.run_write`)."""
    conn.execute(_AUDIT, (at, actor, chat_id, action, target, target_user, json.dumps(detail, ensure_ascii=False)))
