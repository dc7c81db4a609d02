"""Which papers daily practice may draw from: a hiring paper is marked exam-only and never leaks."""

from __future__ import annotations

from bank.db import Database
from bank.errors import NotFound


async def set_exam_only(db: Database, paper: int | str, flag: bool) -> None:
    """Mark a paper (by id or slug) exam-only, or allow it in practice again. Raises NotFound."""
    col = "id" if isinstance(paper, int) else "slug"
    async with db.write() as conn:
        cur = await conn.execute(f"UPDATE papers SET exam_only=? WHERE {col}=?", (int(flag), paper))
        if cur.rowcount == 0:
            raise NotFound(f"no paper {paper!r}")


async def is_exam_only(db: Database, paper: int | str) -> bool:
    """Raises NotFound."""
    col = "id" if isinstance(paper, int) else "slug"
    value = await db.scalar(f"SELECT exam_only FROM papers WHERE {col}=?", (paper,))
    if value is None:
        raise NotFound(f"no paper {paper!r}")
    return bool(value)


async def multi_policy(db: Database, question_id: int) -> str:
    """The multiple-choice scoring rule of the question's paper ('partial' if unknown)."""
    return await db.scalar(
        "SELECT p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id WHERE q.id=?",
        (question_id,)) or "partial"
