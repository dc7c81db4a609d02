"""From parsed questions to papers: grouping by paper and section, numbering, weights, slugs.

Every format's reader yields `Item`s; `assemble` turns them into the bank's Paper models.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from bank.kinds import CHOICE, SECTION_TITLES, Kind
from bank.models import Note, Paper, Question, Section, Source
from bank.option_order import LETTERS
from bank.paper_store import slug_for

BLANK = "_____"  # where a GIFT missing-word answer block stood in the stem

KIND_TITLES = SECTION_TITLES  # one home: bank.models
_CATEGORY_PREFIX = re.compile(r"^(?:\$[a-z0-9]+\$/)?(?:top(?:/|$))?", re.IGNORECASE)


@dataclass
class Item:
    """One question as a reader found it, with where it goes."""

    question: Question
    place: str  # "line 12", "sheet 题库, row 5": for messages
    paper: str = ""  # paper title; "" is the file's own paper
    section: str = ""  # section title; "" groups by kind


@dataclass
class Parsed:
    items: list[Item] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)  # what was skipped or doubtful, by place


def category_topic(path: str) -> str:
    """A Moodle category path as a topic: "$course$/top/Default/Algebra" -> "Default/Algebra"."""
    return _CATEGORY_PREFIX.sub("", path.strip()).strip("/ ").strip()


def default_weights(kind: Kind, key: str, n_options: int) -> list[float]:
    """The weights a key implies: single 1 for the key; multi 1/k for each of the k right
    options and -1/(n-k) for each wrong one, as Moodle scores a multiple-answer question."""
    if kind is Kind.single:
        return [1.0 if LETTERS[i] == key else 0.0 for i in range(n_options)]
    right = len(key)
    wrong = max(n_options - right, 1)
    return [1 / right if LETTERS[i] in key else -1 / wrong for i in range(n_options)]


def round_weight(w: float) -> float:
    return round(w, 7)


def keep_weights(q: Question, weights: list[float]) -> list[float]:
    """`weights` when they say more than the key, else [] (the key's own weights are implied)."""
    weights = [round_weight(w) for w in weights]
    if q.kind in CHOICE and isinstance(q.answer, str) and q.answer:
        implied = default_weights(q.kind, q.answer, len(q.options))
        if len(implied) == len(weights) and all(abs(a - b) < 1e-6 for a, b in zip(implied, weights, strict=True)):
            return []
    elif all(abs(w - 1.0) < 1e-9 for w in weights):
        return []
    return weights


def effective_weights(q: Question) -> list[float]:
    """The weight of each option or accepted answer, given or implied."""
    if q.weights:
        return list(q.weights)
    if q.kind in CHOICE and isinstance(q.answer, str) and q.answer:
        return default_weights(q.kind, q.answer, len(q.options))
    n = len(q.answer[0]) if q.kind is Kind.fill and isinstance(q.answer, list) and q.answer else (
        len(q.answer) if isinstance(q.answer, list) else 0)
    return [1.0] * n


def _slug(stem: str, title: str, several: bool) -> str:
    base = slug_for(stem, title)
    if not several:
        return base
    tail = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if not tail or not title.isascii() or len(tail) > 40:
        tail = hashlib.sha1(title.encode()).hexdigest()[:8]
    return f"{base}-{tail}"


def assemble(parsed: Parsed, *, file: str, stem: str, title: str) -> list[Paper]:
    """Papers (one per paper title, the file's own first) with sections in order of first use."""
    papers: dict[str, dict[str, list[Question]]] = {}
    kinds: dict[tuple[str, str], Kind] = {}
    for item in parsed.items:
        paper = item.paper.strip() or title
        section = item.section.strip() or KIND_TITLES[item.question.kind]
        papers.setdefault(paper, {}).setdefault(section, []).append(item.question)
        kinds.setdefault((paper, section), item.question.kind)
    several = len(papers) > 1
    notes = list(parsed.notes)
    out: list[Paper] = []
    for paper_title, sections in papers.items():
        slug = _slug(stem, paper_title, several)
        built = []
        for pos, (section_title, questions) in enumerate(sections.items(), start=1):
            for n, q in enumerate(questions, start=1):
                q.number = n
                q.source = Source(paper=slug, section=pos, number=n)
            points = {q.points for q in questions}
            built.append(Section(kind=kinds[(paper_title, section_title)], title=section_title,
                                 points_each=points.pop() if len(points) == 1 else None,
                                 questions=questions))
        out.append(Paper(slug=slug, title=paper_title, source_file=file, sections=built,
                         notes=[] if out else notes))
    return out
