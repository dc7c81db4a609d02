"""The audit log: every lead action, written inside the transaction of the action itself."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from proctor.audit import AuditAction, record_audit
from proctor.storage.db import Database

# Append one entry inside the action's transaction (`Database.run_write`) so it commits with it. The
# writer is proctor/audit.py, beneath the packages whose actions write entries (and it says why).
record = record_audit


async def log(db: Database, *, at: float, actor: int, chat_id: int | None, action: AuditAction, target: str = "",
              **detail: Any) -> None:
    """An action that writes nothing else (an export, say): its entry in a transaction of its own."""
    await db.run_write(lambda conn: record(conn, at=at, actor=actor, chat_id=chat_id, action=action, target=target,
                                           **detail))


@dataclass(frozen=True, slots=True)
class Entry:
    at: float
    actor_id: int
    chat_id: int | None
    action: AuditAction | str  # an action this release no longer has stays as an older release wrote it
    target: str
    detail: dict[str, Any]  # as the action wrote it (JSON)
    target_user: int | None = None  # whom the action concerned (cleared when they are forgotten)


async def recent(db: Database, *, chat_id: int | None = None, limit: int = 20, action: AuditAction | None = None,
                 actor: int | None = None) -> list[Entry]:
    """The newest entries, of one group when `chat_id` is given, of one action or actor if given."""
    conds, params = [], []
    for column, value in (("chat_id", chat_id), ("action", action), ("actor_id", actor)):
        if value is not None:
            conds.append(f"{column}=?")
            params.append(value)
    where = f"WHERE {' AND '.join(conds)}" if conds else ""
    rows = await db.fetchall(
        f"SELECT * FROM audit_log {where} ORDER BY at DESC, id DESC LIMIT ?", [*params, limit])
    return [Entry(r["at"], r["actor_id"], r["chat_id"], _action(r["action"]), r["target"], json.loads(r["detail"]),
                  r["target_user"]) for r in rows]


def _action(stored: str) -> AuditAction | str:
    try:
        return AuditAction(stored)
    except ValueError:  # an action this release no longer has
        return stored
