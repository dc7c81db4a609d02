"""Counts per paper and kind: how many questions can be asked and how many are flagged."""

from __future__ import annotations

from dataclasses import dataclass, field

from bank.kinds import Flag, Kind
from bank.models import Paper


@dataclass
class KindCount:
    total: int = 0
    askable: int = 0
    flagged: int = 0  # cannot be asked: truncated, corrupted, no answer, retired, held (bank/question_checks.py)
    repaired: int = 0


@dataclass
class PaperStats:
    slug: str
    label: str  # "P3 title" (Paper.label)
    kinds: dict[Kind, KindCount] = field(default_factory=dict)

    @property
    def total(self) -> KindCount:
        out = KindCount()
        for c in self.kinds.values():
            out.total += c.total
            out.askable += c.askable
            out.flagged += c.flagged
            out.repaired += c.repaired
        return out


def paper_stats(papers: list[Paper]) -> list[PaperStats]:
    out = []
    for p in papers:
        stats = PaperStats(p.slug, p.label)
        for q in p.questions():
            c = stats.kinds.setdefault(q.kind, KindCount())
            c.total += 1
            if q.askable:
                c.askable += 1
            else:
                c.flagged += 1
            if Flag.repaired in q.flags:
                c.repaired += 1
        out.append(stats)
    return out


def render_stats(stats: list[PaperStats]) -> str:
    """A plain-text table: one block per paper, one line per kind."""
    lines = []
    for s in stats:
        t = s.total
        lines.append(s.label)
        lines.append(f"  {'kind':<11}{'total':>6}{'askable':>9}{'flagged':>9}{'repaired':>10}")
        for kind in Kind:
            if kind in s.kinds:
                c = s.kinds[kind]
                lines.append(f"  {kind.value:<11}{c.total:>6}{c.askable:>9}{c.flagged:>9}{c.repaired:>10}")
        lines.append(f"  {'all':<11}{t.total:>6}{t.askable:>9}{t.flagged:>9}{t.repaired:>10}")
        lines.append("")
    grand = [s.total for s in stats]
    lines.append(f"{len(stats)} papers, {sum(g.total for g in grand)} questions, "
                 f"{sum(g.askable for g in grand)} askable, {sum(g.flagged for g in grand)} flagged")
    return "\n".join(lines)
