"""The questions held out of use with the doubt about their key (bank/question_checks.py), as a viewer
may read them. (The disputes candidates raise are read through the same rule by disputes.py.)

A doubt names the key ("key AB, but the explanation speaks for C"), and so does a dispute's reason
("B is right"): both are the read rule's `Fact.doubt`, shown only where the viewer's Lens shows it
for that question's paper, and never for a question sealed for the viewer (their running exam's).
"""

from __future__ import annotations

import json

from bank.question_checks import HELD_DUPLICATE, Held, held_questions
from bank.store import ids_in
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database


async def _papers(db: Database, question_ids: list[int]) -> dict[int, int]:
    """question id -> its paper's id."""
    if not question_ids:
        return {}
    rows = await db.fetchall(f"SELECT id, paper_id FROM questions WHERE id IN ({ids_in(db.engine)})",
                             (json.dumps(sorted(set(question_ids))),))
    return {r[0]: r[1] for r in rows}


def _shows(lens: Lens, papers: dict[int, int], question_id: int) -> bool:
    paper = papers.get(question_id)
    return paper is not None and lens.of(paper).shows(Fact.doubt, question_id)


async def held(db: Database, lens: Lens) -> list[Held]:
    """The questions held out of use (bank.question_checks.held_questions) whose doubts the viewer
    may read; a duplicate (held for its stem, not its key) wherever the paper shows doubts at all."""
    rows = await held_questions(db)
    papers = await _papers(db, [h.question_id for h in rows])
    return [h for h in rows
            if _shows(lens, papers, h.question_id)
            or (h.held == HELD_DUPLICATE and h.question_id in papers
                and Fact.doubt in lens.of(papers[h.question_id]).facts)]
