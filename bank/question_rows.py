"""A question as stored: the one SELECT that reads it whole (with its import checks) and the row
to `Question` conversion, shared by paper_store (which writes papers) and question_checks (which
analyses them inside the writing transaction)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from typing import Any

from bank.kinds import Kind
from bank.models import Question, Source


def question_from_row(row: sqlite3.Row) -> Question:
    keys = row.keys()
    return Question(
        id=row["id"],
        number=row["number"],
        kind=Kind(row["kind"]),
        stem=row["stem"],
        options=json.loads(row["options"]),
        answer=json.loads(row["answer"]),
        explanation=row["explanation"],
        points=row["points"],
        flags=json.loads(row["flags"]),
        topic=row["topic"],
        retired=bool(row["retired"]),
        name=row["name"],
        weights=json.loads(row["weights"]),
        feedback=json.loads(row["feedback"]),
        difficulty=row["difficulty"],
        key_terms=None if row["key_terms"] is None else json.loads(row["key_terms"]),
        source=Source(paper=row["slug"], section=row["section_pos"], number=row["number"],
                      paper_title=row["paper_title"] if "paper_title" in keys else "",
                      section_title=row["section_title"] if "section_title" in keys else "",
                      code=row["paper_code"] if "paper_code" in keys else "")
        if "slug" in keys else None,
        seq=row["seq"] if "seq" in keys else None,
        version=row["key_version"] if "key_version" in keys else 1,
        **_checks(row, keys),
    )


def _checks(row: sqlite3.Row, keys: Collection[str]) -> dict[str, Any]:
    """What the import found (bank/question_checks.py), when the row carries it."""
    if "held" not in keys or row["pinned"] is None:
        return {}
    return {"pinned": json.loads(row["pinned"]), "letter_refs": json.loads(row["letter_refs"]),
            "held": row["held"]}


QUESTION_SELECT = """SELECT q.*, p.slug AS slug, s.position AS section_pos, p.title AS paper_title,
                             s.title AS section_title, p.code AS paper_code,
                             c.pinned, c.letter_refs, c.held, c.confirmed_answer
                      FROM questions q JOIN papers p ON p.id = q.paper_id
                      JOIN sections s ON s.id = q.section_id
                      LEFT JOIN question_checks c ON c.question_id = q.id"""
