"""What daily practice needs to know about a question's paper.

Marking a paper exam-only (a hiring paper must never leak into practice) is a lead action with an
audit entry: bank.paper_settings.set_exam_only. Selection reads papers.exam_only on every draw.
"""

from __future__ import annotations

from bank import paper_settings
from bank.kinds import MultiPolicy
from proctor.storage.db import Database


async def multi_policy(db: Database, question_id: int) -> MultiPolicy:
    """The multiple-choice scoring rule of the question's paper (its one home: bank/paper_settings.py)."""
    return await paper_settings.multi_policy(db, question_id=question_id)
