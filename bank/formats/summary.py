"""What an export wrote and what it left out, and why: counted by the exporters as they write, so the
summary a person reads is the file's own count (a test parses the file back and compares)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from bank.models import Paper


class Reason(StrEnum):
    """Why a question is not in a file, or is there without a part of it."""

    retired = "retired"  # retired by a lead: never asked again, so never handed out
    unaskable = "unaskable"  # truncated, garbled or keyless: never asked, so never handed out (not JSON)
    not_single = "not_single"  # Aiken holds single choice only
    aiken_text = "aiken_text"  # Aiken: an empty text, an option over several lines, a line that reads as an option
    several_blanks = "several_blanks"  # GIFT, Moodle XML: a fill-in with several blanks
    many_options = "many_options"  # a sheet's columns hold 8 options
    separators = "separators"  # a key whose text holds the format's own separators (a sheet's | ;, GIFT's ->)
    # written without a part (the question is in the file)
    weights = "weights"  # a sheet has no per-answer weights
    feedback = "feedback"  # a sheet has no per-answer feedback


KEPT = frozenset({Reason.weights, Reason.feedback})  # reasons of a question written in part


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A question of `paper` (its code, or its title before it is stored) and why."""

    paper: str
    section: int  # 1-based position
    number: int
    reason: Reason


@dataclass
class ExportSummary:
    """Questions written per paper (by code), and the questions left out or written in part."""

    written: dict[str, int] = field(default_factory=dict)
    left_out: list[LeftOut] = field(default_factory=list)

    def wrote(self, paper: Paper) -> None:
        key = paper.code or paper.title
        self.written[key] = self.written.get(key, 0) + 1

    def leave_out(self, paper: Paper, section: int, number: int, reason: Reason) -> None:
        self.left_out.append(LeftOut(paper.code or paper.title, section, number, reason))

    @property
    def total(self) -> int:
        return sum(self.written.values())

    @property
    def papers(self) -> int:
        return sum(1 for n in self.written.values() if n)

    def counted(self, key: str) -> int:
        """How many questions of paper `key` (its code, or its title) the export counted: those it wrote and
        those it left out."""
        return self.written.get(key, 0) + sum(1 for x in self.left_out if x.paper == key and x.reason not in KEPT)

    def by_reason(self) -> dict[Reason, int]:
        """How many questions each reason covers, in Reason's order."""
        counts = Counter(x.reason for x in self.left_out)
        return {r: counts[r] for r in Reason if counts[r]}

    def started(self, paper: Paper) -> None:
        """A paper the export holds, though it may write none of its questions."""
        self.written.setdefault(paper.code or paper.title, 0)


def without_retired(papers: list[Paper], summary: ExportSummary) -> list[Paper]:
    """The papers without their retired questions, each counted in `summary`; every section stays, so
    the others keep their places."""
    out = []
    for p in papers:
        sections = []
        for pos, s in enumerate(p.sections, start=1):
            for q in s.questions:
                if q.retired:
                    summary.leave_out(p, pos, q.number, Reason.retired)
            sections.append(s.model_copy(update={"questions": [q for q in s.questions if not q.retired]}))
        out.append(p.model_copy(update={"sections": sections}))
    return out
