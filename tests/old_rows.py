"""A paper written as the first release wrote it: the columns migration 001 made, nothing later (the
upgrade gives later columns their defaults and fills what it fills). For tests that craft a database at
an older version; today's writer (bank/paper_store.write_papers) writes today's schema."""

from __future__ import annotations

import json
import sqlite3

from bank.kinds import fingerprint
from bank.models import Paper
from bank.store import Store


async def old_paper(db: Store, paper: Paper, now: float) -> int:
    """`paper` stored by the statements of release 0.1.0; its id."""

    def transaction(conn: sqlite3.Connection) -> int:
        [paper_id] = conn.execute("INSERT INTO papers (slug, title, imported_at) VALUES (?,?,?) RETURNING id",
                                  (paper.slug, paper.title, now)).fetchone()
        for pos, section in enumerate(paper.sections, start=1):
            [section_id] = conn.execute(
                "INSERT INTO sections (paper_id, position, kind, title) VALUES (?,?,?,?) RETURNING id",
                (paper_id, pos, section.kind.value, section.title)).fetchone()
            conn.executemany(
                "INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, options, answer, "
                "points) VALUES (?,?,?,?,?,?,?,?,?)",
                [(fingerprint(paper.slug, pos, q.number), paper_id, section_id, q.number, q.kind.value, q.stem,
                  json.dumps(q.options, ensure_ascii=False), json.dumps(q.answer, ensure_ascii=False), q.points)
                 for q in section.questions])
        return int(paper_id)

    return await db.run_write(transaction)
