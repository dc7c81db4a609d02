"""From parsed questions to papers: grouping by paper and section, numbering, weights, slugs.

Every format's reader yields `Item`s; `assemble` turns them into the bank's Paper models.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from bank.formats.paper_facts import PaperFacts, read_category
from bank.import_notes import note
from bank.kinds import CHOICE, SECTION_TITLES, Kind, ReviewOption
from bank.models import Note, Paper, PaperSettings, Question, Section, Source
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
    papers: dict[str, PaperFacts] = field(default_factory=dict)  # paper title ("": the file's own) -> its facts

    def paper_facts(self, title: str) -> PaperFacts:
        return self.papers.setdefault(title.strip(), PaperFacts())


def category_topic(path: str) -> str:
    """A Moodle category path as a topic: "$course$/top/Default/Algebra" -> "Default/Algebra"."""
    return _CATEGORY_PREFIX.sub("", path.strip()).strip("/ ").strip()


def category_place(path: str, exported: bool) -> tuple[str, str, str, str | None]:
    """What a GIFT or Moodle XML category says, as (topic, paper, section, code): in a file this bot
    exported, a paper's section (`read_category`; topic "", code "" for a paper without one); in any
    other, or a path of another shape, a topic (paper and section "", code None)."""
    named = read_category(path) if exported else None
    if named is None:
        return category_topic(path), "", "", None
    code, paper, section = named
    return "", paper, section, code


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


def assemble(parsed: Parsed, *, file: str, stem: str, title: str, safe: bool = False) -> list[Paper]:
    """Papers (one per paper title, the file's own first) with sections in order of first use, and the
    code, subject and settings the file gave each. A paper whose questions' refs (bank/formats/ref.py)
    all name one paper keeps that paper's slug, its sections' places and its questions' numbers, so a
    file exported from one bank and read into another names the same questions in both; a section the
    file does not hold keeps its place as an empty one.

    `safe`: a format that cannot carry a paper's settings (Aiken): the papers are exam-only, review
    `score`, and their notes say so."""
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
    claimed: set[str] = set()
    for paper_title, sections in papers.items():
        facts = parsed.papers.get(paper_title) or parsed.papers.get("" if paper_title == title else paper_title)
        facts = facts or PaperFacts()
        kept = _kept_places(sections, claimed)
        if kept is None:
            slug = _slug(stem, paper_title, several)
            built = [_section(kinds[(paper_title, t)], t, qs, set()) for t, qs in sections.items()]
        else:
            slug, positions = kept
            claimed.add(slug)
            built = _placed(paper_title, sections, positions, kinds)
        for pos, built_section in enumerate(built, start=1):
            for q in built_section.questions:
                q.source = Source(paper=slug, section=pos, number=q.number)
        settings = facts.settings or PaperSettings()
        paper_notes = [] if out else notes
        if safe:
            settings = PaperSettings(exam_only=True, review=ReviewOption.score)
            paper_notes = [*paper_notes, note("settings_safe")]
        out.append(Paper(slug=slug, title=paper_title, code=facts.code, subject=facts.subject, source_file=file,
                         sections=built, settings=settings, notes=paper_notes))
    return out


def _kept_places(sections: dict[str, list[Question]], claimed: set[str]) -> tuple[str, dict[str, int]] | None:
    """The slug and each section's place that the questions' refs name, when they name one paper that
    no other paper of the file took, one place per section and no place or number twice; else None."""
    refs = [(t, q.origin) for t, qs in sections.items() for q in qs if q.origin is not None]
    slugs = {o.paper for _, o in refs}
    if len(slugs) != 1 or (slug := slugs.pop()) in claimed:
        return None
    positions: dict[str, int] = {}
    for t, o in refs:
        if positions.setdefault(t, o.section) != o.section:
            return None
    numbers = [(o.section, o.number) for _, o in refs]
    if len(set(positions.values())) != len(positions) or len(set(numbers)) != len(numbers):
        return None
    return slug, positions


def _section(kind: Kind, title: str, questions: list[Question], keep: set[int]) -> Section:
    """A section of `questions` numbered in order: a question whose ref names a number in `keep` keeps
    it, the others take the next free ones."""
    free = (n for n in range(1, len(questions) + len(keep) + 1) if n not in keep)
    for q in questions:
        q.number = q.origin.number if q.origin is not None and q.origin.number in keep else next(free)
    points = {q.points for q in questions}
    return Section(kind=kind, title=title, points_each=points.pop() if len(points) == 1 else None,
                   questions=questions)


def _placed(paper: str, sections: dict[str, list[Question]], positions: dict[str, int],
            kinds: dict[tuple[str, str], Kind]) -> list[Section]:
    """Sections at the places the refs name (the others after them, in order of first use), a place
    between them that the file does not hold kept by an empty section."""
    at: dict[int, Section] = {}
    last = max(positions.values(), default=0)
    for t, qs in sections.items():
        pos = positions.get(t)
        if pos is None:
            last += 1
            pos = last
        keep = {q.origin.number for q in qs if q.origin is not None} if t in positions else set()
        at[pos] = _section(kinds[(paper, t)], t, qs, keep)
    return [at.get(pos) or Section(kind=at[min(p for p in at if p > pos)].kind, title="")
            for pos in range(1, max(at) + 1)]
