"""Papers counted with what the proctoring domain knows: which questions were ever asked.

A question is *asked* once it is put before somebody: on an attempt's sheet (exam or practice), sent in
a daily quiz, or posted in a live round. The standings and the rest of a paper's tally are the bank's
(bank/paper_counts.py); this adds its `not_yet_asked`, and each question's place for the desk's Items page.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass

from bank.kinds import Flag
from bank.paper_counts import Standing, Tally, standing_of, tallies, unaskable_reason
from bank.store import ids_in
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database

ASKED_SQL = ("SELECT question_id FROM attempt_items "
             "UNION SELECT question_id FROM daily_items WHERE message_id IS NOT NULL "
             "UNION SELECT question_id FROM live_items WHERE message_id IS NOT NULL")


async def paper_tallies(db: Database, paper_ids: Collection[int] | None = None) -> dict[int, Tally]:
    """Every paper's tally (of `paper_ids` only, if given), by paper id, in one query."""
    return await tallies(db, paper_ids, asked_sql=ASKED_SQL)


async def asked(db: Database, question_ids: Collection[int]) -> set[int]:
    """Which of `question_ids` were ever asked."""
    rows = await db.fetchall(f"SELECT question_id FROM ({ASKED_SQL}) asked "
                             f"WHERE question_id IN ({ids_in(db.engine)})",
                             (json.dumps(sorted(set(question_ids))),))
    return {r[0] for r in rows}


async def shown_tallies(db: Database, lens: Lens) -> dict[int, Tally]:
    """The tallies of the papers whose item statistics the lens's viewer may read (the read rule's
    `Fact.item_stats`), by paper id."""
    shown = [pid for pid, v in lens.papers.items() if Fact.item_stats in v.facts]
    return await paper_tallies(db, shown) if shown else {}


@dataclass(frozen=True, slots=True)
class Placed:
    """Where one question stands (`standing_of`), why when it is unaskable, and whether it was ever asked."""

    standing: Standing
    reason: Flag | None  # an unaskable question's first reason
    asked: bool


async def question_standings(db: Database, paper_id: int | None = None) -> dict[int, Placed]:
    """Every question's place (of one paper's own questions, if given), by question id, in one query."""
    where, params = ("WHERE q.paper_id = ?", (paper_id,)) if paper_id is not None else ("", ())
    rows = await db.fetchall(
        f"SELECT q.id, q.retired, q.flags, c.held, q.id IN ({ASKED_SQL}) AS asked FROM questions q "
        f"LEFT JOIN question_checks c ON c.question_id = q.id {where}", params)
    out = {}
    for r in rows:
        flags = json.loads(r["flags"])
        s = standing_of(retired=bool(r["retired"]), flags=flags, held=r["held"] or "")
        out[r["id"]] = Placed(s, unaskable_reason(flags) if s is Standing.unaskable else None, bool(r["asked"]))
    return out
