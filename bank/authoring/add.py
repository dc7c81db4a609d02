"""Adding one question to the bank (`/newquestion`, `proctor bank add`), through the import's path.

The question goes into a paper (an existing one, or a new one with the given title), in the section
asked for or else the paper's last section of its kind (a new section titled by kind when there is
none), numbered after
the last question of that section, retired ones included: its fingerprint is then new. The paper is
written back with `write_papers` like an import (checks refreshed, key terms found first). A lead's
addition commits with its audit row: proctor.teams.curation.add_question.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from bank.errors import BankError, SameTitle
from bank.grading.terms import SegmentIn
from bank.kinds import SECTION_TITLES, fingerprint
from bank.models import Paper, Question, Section, Source
from bank.paper_store import free_slug, load_paper_in, slug_for, with_key_terms, write_papers
from bank.question_ref import QuestionRef

Claim = Callable[[sqlite3.Connection], None]  # more to commit with the question


class BadTarget(BankError):
    """The paper to add to is missing, or a new paper's title is taken or empty."""


@dataclass(frozen=True, slots=True)
class Added:
    question_id: int
    paper_id: int
    paper: str  # title
    section: str
    number: int
    slug: str = ""  # the paper's
    ref: QuestionRef = QuestionRef("", 0)  # the question's reference (P3 · Q43), given as it was written


async def with_terms(question: Question, *, segment_in: SegmentIn) -> Question:
    """The question with its key terms found, as an import finds them (jieba where `segment_in` says;
    before the write transaction). Raises TermsUnavailable."""
    holder = Paper(slug="new", title="new", sections=[Section(kind=question.kind, title="", questions=[question])])
    return (await with_key_terms([holder], segment_in=segment_in))[0].questions()[0]


def add_question_in(conn: sqlite3.Connection, question: Question, *, paper_id: int | None,
                    new_title: str = "", section: int | None = None, now: float) -> Added:
    """Add `question` (its key terms found: `with_terms`) to paper `paper_id`, or to a new paper titled
    `new_title`, inside the caller's write transaction; returns where it went.

    `section` is a 1-based position in the paper, 0 for a new section titled by the kind, or None
    for the paper's last section of the question's kind (a new one when there is none).
    Raises BadTarget; nothing is written then.
    """
    if paper_id is None and not new_title.strip():
        raise BadTarget("a new paper needs a title")
    if paper_id is None:
        paper = _new_paper(conn, new_title.strip())
    else:
        try:
            paper = load_paper_in(conn, paper_id, include_retired=True)
        except BankError as e:
            raise BadTarget(f"no paper {paper_id}") from e
    paper, section_title, position, number = place_question(paper, question, section)
    try:
        [written] = write_papers(conn, [paper], now, same_title=paper_id is not None)
    except SameTitle as e:
        raise BadTarget(f"a paper is already titled {paper.title!r}") from e
    fp = fingerprint(paper.slug, position, number)
    cur = conn.execute("SELECT q.id, q.seq, p.code FROM questions q JOIN papers p ON p.id = q.paper_id "
                       "WHERE q.fingerprint=?", (fp,))
    row = cur.fetchone()
    assert row is not None
    return Added(int(row[0]), written, paper.title, section_title, number, paper.slug,
                 QuestionRef(row["code"], row["seq"], int(row[0])))


def _new_paper(conn: sqlite3.Connection, title: str) -> Paper:
    return Paper(slug=free_slug(conn, slug_for(title, title)), title=title, source_file="")


def place_question(paper: Paper, question: Question, section: int | None) -> tuple[Paper, str, int, int]:
    """The paper with the question added; its section's title and position, its number."""
    sections = list(paper.sections)
    if section is None:
        at = next((i for i in range(len(sections) - 1, -1, -1) if sections[i].kind is question.kind), None)
    elif 1 <= section <= len(sections):
        if sections[section - 1].kind is not question.kind:
            raise BadTarget(f"section {section} of paper {paper.slug} holds {sections[section - 1].kind.value} "
                            f"questions, not {question.kind.value}")
        at = section - 1
    elif section == 0:
        at = None
    else:
        raise BadTarget(f"paper {paper.slug} has no section {section}")
    if at is None:
        sections.append(Section(kind=question.kind, title=SECTION_TITLES[question.kind], points_each=question.points))
        at = len(sections) - 1
    into = sections[at]
    number = max((q.number for q in into.questions), default=0) + 1
    placed = question.model_copy(update={"number": number, "source": Source(paper=paper.slug, section=at + 1,
                                                                              number=number)})
    sections[at] = into.model_copy(update={"questions": [*into.questions, placed]})
    return paper.model_copy(update={"sections": sections}), into.title, at + 1, number
