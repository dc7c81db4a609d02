"""The audit log: every lead action, written inside the transaction of the action itself; read back
whole (`recent`), or as a lead or an admin may read it (`read`): an entry's details that are facts of
a paper (a confirmed key, a question's score before and after) only through the read rule."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from proctor.audit import AuditAction, record_audit
from proctor.exams.visibility import NONE, Fact, Lens, Visibility, record_key_read_in
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
    withheld: tuple[str, ...] = ()  # detail keys left out: facts the reader may not read (`read`)


_SELECT = "SELECT * FROM audit_log {where} ORDER BY at DESC, id DESC LIMIT ?"


def _query(chat_id: int | None, action: AuditAction | None, actor: int | None, limit: int) -> tuple[str, list[Any]]:
    conds, params = [], []
    for column, value in (("chat_id", chat_id), ("action", action), ("actor_id", actor)):
        if value is not None:
            conds.append(f"{column}=?")
            params.append(value)
    where = f"WHERE {' AND '.join(conds)}" if conds else ""
    return _SELECT.format(where=where), [*params, limit]


def _entry(r: sqlite3.Row) -> Entry:
    return Entry(r["at"], r["actor_id"], r["chat_id"], _action(r["action"]), r["target"], json.loads(r["detail"]),
                 r["target_user"])


async def recent(db: Database, *, chat_id: int | None = None, limit: int = 20, action: AuditAction | None = None,
                 actor: int | None = None) -> list[Entry]:
    """The newest entries, of one group when `chat_id` is given, of one action or actor if given."""
    sql, params = _query(chat_id, action, actor, limit)
    return [_entry(r) for r in await db.fetchall(sql, params)]


# an entry's details that are facts of its question's paper, by action
_FACTS: dict[str, dict[str, Fact]] = {
    AuditAction.confirm_key: {"key": Fact.key},
    # a regrade's totals too: they move by the question's change
    AuditAction.regrade: {"answer_old": Fact.result, "answer_new": Fact.result, "old": Fact.result, "new": Fact.result},
    AuditAction.review: {"provisional": Fact.result, "final": Fact.result},
}


def _question_in(conn: sqlite3.Connection, e: Entry) -> int | None:
    """The question an entry with facts is about (None: not found)."""
    try:
        match e.action:
            case AuditAction.confirm_key:  # target "question 12"
                return int(e.target.split()[-1])
            case AuditAction.regrade:
                return int(e.detail["question"])
            case _:  # review: target "answer:7/1" (attempt 7, position 1)
                attempt, _, pos = e.target.partition(":")[2].partition("/")
                found = conn.execute("SELECT question_id FROM attempt_items WHERE attempt_id=? AND pos=?",
                                     (int(attempt), int(pos))).fetchone()
                return None if found is None else int(found[0])
    except (KeyError, ValueError, TypeError):
        return None


async def read(db: Database, lens: Lens, *, now: float, limit: int = 20, action: AuditAction | None = None,
               actor: int | None = None) -> list[Entry]:
    """The newest entries of the lens' team (every team's for scope None), of one action or actor if
    given, as the lens' viewer may read them: a detail that is a fact of the entry's question's paper
    (a confirmed key, a question's score) is left out (named in `withheld`) where the lens does not
    show it; a hiring paper's key shown to a lead or an admin is written down (`key_read`), in the
    same transaction."""
    sql, params = _query(lens.scope, action, actor, limit)

    def transaction(conn: sqlite3.Connection) -> list[Entry]:
        out: list[Entry] = []
        read_keys: dict[int, list[int]] = {}  # paper id -> questions whose keys an entry showed
        for e in map(_entry, conn.execute(sql, params).fetchall()):
            facts = _FACTS.get(e.action, {})
            if not any(k in e.detail for k in facts):
                out.append(e)
                continue
            qid = _question_in(conn, e)
            row = None if qid is None else conn.execute("SELECT paper_id FROM questions WHERE id=?", (qid,)).fetchone()
            vis = Visibility(None, NONE) if row is None else lens.of(row[0])
            hidden = tuple(k for k, fact in facts.items() if k in e.detail and not vis.shows(fact, qid))
            if qid is not None and row is not None and "key" in facts and "key" in e.detail and "key" not in hidden:
                read_keys.setdefault(row[0], []).append(qid)
            out.append(dataclasses.replace(e, detail={k: v for k, v in e.detail.items() if k not in hidden},
                                           withheld=hidden) if hidden else e)
        for paper_id, qids in read_keys.items():
            record_key_read_in(conn, lens.viewer, lens.scope, lens.of(paper_id), qids, now=now)
        return out

    return await db.run_write(transaction)


def _action(stored: str) -> AuditAction | str:
    try:
        return AuditAction(stored)
    except ValueError:  # an action this release no longer has
        return stored
