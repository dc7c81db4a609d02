"""What daily practice needs to know about a question's paper.

Marking a paper exam-only (a hiring paper must never leak into practice) is a lead action with an
audit entry: bank.item_stats.set_exam_only. Selection reads papers.exam_only on every draw.
"""

from __future__ import annotations

from bank.models import MultiPolicy
from proctor.storage.db import Database


async def multi_policy(db: Database, question_id: int) -> MultiPolicy:
    """The multiple-choice scoring rule of the question's paper (partial if unknown)."""
    return MultiPolicy(await db.scalar(
        "SELECT p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id WHERE q.id=?",
        (question_id,)) or MultiPolicy.partial)
