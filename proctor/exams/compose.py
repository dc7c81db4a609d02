"""Composing a paper (/newpaper, `proctor paper compose`): a title, a time limit and a blueprint.

Drawn once and frozen (every candidate gets the same questions), or drawn anew for each attempt
(`per_candidate`, like /exam random); either way the draw made now is stored, so the paper lists
with its count and points and is taken like any paper. A shortfall is refused, naming each part.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

from bank.errors import SameTitle
from bank.kinds import Kind
from bank.models import Question
from bank.paper_store import free_slug, refuse_same_title
from proctor.audit import AuditAction, record_audit
from proctor.errors import ProctorError
from proctor.exams.blueprint import Blueprint, draw
from proctor.storage.db import Database

MAX_MINUTES = 600
MAX_TITLE = 80


class BadPaper(ProctorError):
    """The paper can't be made as asked (an empty or taken title, a time limit out of range)."""


@dataclass(frozen=True, slots=True)
class Draft:
    """What /newpaper asks for, and what the CLI reads."""

    title: str
    minutes: int
    blueprint: Blueprint
    per_candidate: bool = False
    exam_only: bool = False


@dataclass(frozen=True, slots=True)
class Preview:
    questions: int
    points: float
    by_kind: dict[Kind, int]


@dataclass(frozen=True, slots=True)
class Composed:
    paper_id: int
    slug: str
    preview: Preview
    code: str = ""  # "P12": what people see and type (bank/paper_list.py)


def checked_title(text: str) -> str:
    """The paper's title, trimmed. Raises BadPaper (empty, or longer than MAX_TITLE)."""
    title = text.strip()
    if not title or len(title) > MAX_TITLE:
        raise BadPaper(f"a title of 1 to {MAX_TITLE} characters")
    return title


def checked_minutes(text: str | int) -> int:
    """The time limit in whole minutes (a number, or the text of one). Raises BadPaper (not 1 to MAX_MINUTES)."""
    minutes = int(text) if isinstance(text, int) or text.strip().isdecimal() else 0
    if not 1 <= minutes <= MAX_MINUTES:
        raise BadPaper(f"a time limit of 1 to {MAX_MINUTES} minutes")
    return minutes


def _check(draft: Draft) -> str:
    """The draft's title, trimmed, once its title and time limit are checked. Raises BadPaper."""
    title = checked_title(draft.title)
    checked_minutes(draft.minutes)
    return title


def _summary(drawn: list[tuple[str, Question]]) -> Preview:
    by_kind: dict[Kind, int] = {}
    for _, q in drawn:
        by_kind[q.kind] = by_kind.get(q.kind, 0) + 1
    return Preview(len(drawn), round(sum(q.points for _, q in drawn), 2), by_kind)


def pool_of(draft: Draft) -> Blueprint:
    """The blueprint as drawn: an exam-only paper may draw from exam-only papers, a practice one not."""
    return Blueprint(draft.blueprint.parts, draft.exam_only)


async def preview(db: Database, draft: Draft, *, seed: int | None = None) -> Preview:
    """Counts and points of the paper as it would be drawn; nothing is written.
    Raises BadPaper, blueprint.Shortfall."""
    _check(draft)
    return _summary(await draw(db, pool_of(draft), random.Random(seed), strict=True))


async def compose_paper(db: Database, draft: Draft, *, actor: int, now: float, chat_id: int | None = None,
                        seed: int | None = None) -> Composed:
    """Draw and store the paper; it is then listed and taken like any paper.
    Raises BadPaper (a title another paper has, ...), blueprint.Shortfall (nothing is written)."""
    title = _check(draft)
    drawn = await draw(db, pool_of(draft), random.Random(seed), strict=True)

    def transaction(conn: sqlite3.Connection) -> Composed:
        cur = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM papers")
        n = (cur.fetchone() or (1,))[0]
        slug = free_slug(conn, f"composed-{n}")  # an imported composed-N.txt keeps its slug
        try:
            refuse_same_title(conn, title, slug)
        except SameTitle as e:
            raise BadPaper(f"a paper is already called “{title}”") from e
        cur = conn.execute(
            "INSERT INTO papers (slug, title, source_file, time_limit_min, exam_only, imported_at, blueprint, "
            "per_candidate) VALUES (?,?,?,?,?,?,?,?) RETURNING id",
            (slug, title, "", draft.minutes, int(draft.exam_only), now, pool_of(draft).to_json(),
             int(draft.per_candidate)))
        row = cur.fetchone()
        assert row is not None  # RETURNING gives the inserted row
        paper_id = row[0]
        cur = conn.execute("SELECT code FROM papers WHERE id=?", (paper_id,))  # given by its trigger
        code = (cur.fetchone() or [""])[0]
        conn.executemany(
            "INSERT INTO composed_items (paper_id, pos, question_id, section, points) VALUES (?,?,?,?,?)",
            [(paper_id, pos, q.id, section, q.points) for pos, (section, q) in enumerate(drawn)])
        record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.paper_compose,
                     target=f"paper:{paper_id}", title=title, questions=len(drawn),
                     per_candidate=draft.per_candidate, exam_only=draft.exam_only)
        return Composed(paper_id, slug, _summary(drawn), code)

    return await db.run_write(transaction)
