"""The current keys of questions as a lead or a configured admin reads them, through the read rule:
a key only where the viewer's Lens shows it (`Fact.key`: a hiring paper's for the admins and the
teams verified for it, never a question sealed for the viewer), and a read of a hiring paper's keys
written to the audit log (`key_read`) in the same transaction."""

from __future__ import annotations

import json
import sqlite3

from proctor.exams.visibility import Fact, Lens, record_key_read_in
from proctor.storage.db import Database
from proctor.teams.question_edit import key_text


async def current_keys(db: Database, lens: Lens, question_ids: list[int], *, now: float) -> dict[int, str]:
    """question id -> its key as a lead reads it (letters, true/false, blanks separated by 、), for
    the questions whose key the viewer may read; the others are absent."""
    ids = sorted(set(question_ids))
    if not ids:
        return {}

    def transaction(conn: sqlite3.Connection) -> dict[int, str]:
        out: dict[int, str] = {}
        read: dict[int, list[int]] = {}  # paper id -> the questions whose keys were read
        for r in conn.execute("SELECT id, paper_id, answer FROM questions WHERE id IN (SELECT value FROM json_each(?))",
                              (json.dumps(ids),)):
            if lens.of(r["paper_id"]).shows(Fact.key, r["id"]):
                out[r["id"]] = key_text(json.loads(r["answer"]))
                read.setdefault(r["paper_id"], []).append(r["id"])
        for paper_id, qids in read.items():
            record_key_read_in(conn, lens.viewer, lens.scope, lens.of(paper_id), qids, now=now)
        return out

    return await db.run_write(transaction)
