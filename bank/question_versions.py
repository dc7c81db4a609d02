"""Versions of a question's text and key (/editq, /keyfix): what a sheet showed stays readable.

A question's current version is its `questions` row (`key_version`); `question_versions` holds the
text and key of every version an edit replaced (and the one it made). An answer is graded against the
version its sheet showed; a regrade moves it to the new version.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from bank.models import Question

_COLUMNS = "question_id, version, stem, options, answer, explanation"


def at_version(q: Question, text: sqlite3.Row | None, key: sqlite3.Row | None) -> Question:
    """The question with the text (stem, options, explanation) of one stored version and the key of
    another; None keeps the current one. `version` becomes the key's version (what grading uses)."""
    update: dict[str, object] = {}
    if text is not None:
        update.update(stem=text["stem"], options=json.loads(text["options"]), explanation=text["explanation"])
    if key is not None:
        update.update(answer=json.loads(key["answer"]), version=key["version"])
    return q.model_copy(update=update) if update else q


def versions_in(conn: sqlite3.Connection, wanted: Iterable[tuple[int, int]]) -> dict[tuple[int, int], sqlite3.Row]:
    """The stored versions among (question id, version) pairs, on the database thread."""
    pairs = sorted(set(wanted))
    if not pairs:
        return {}
    where = " OR ".join("(question_id=? AND version=?)" for _ in pairs)
    rows = conn.execute(f"SELECT {_COLUMNS} FROM question_versions WHERE {where}",
                        [x for p in pairs for x in p]).fetchall()
    return {(r["question_id"], r["version"]): r for r in rows}


def keep_version_in(conn: sqlite3.Connection, q: Question) -> None:
    """Store `q` as it is now as its version (once); call inside the transaction that edits it."""
    conn.execute(
        f"INSERT INTO question_versions ({_COLUMNS}) VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING",
        (q.id, q.version, q.stem, json.dumps(q.options, ensure_ascii=False),
         json.dumps(q.answer, ensure_ascii=False), q.explanation))
