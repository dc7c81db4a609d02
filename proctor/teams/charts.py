"""The team chart: daily points over time and accuracy by paper, as PNG bytes (matplotlib, Agg)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from proctor.storage.db import Database
from proctor.teams.leaderboard import Period
from proctor.teams.roster import members_sql


@dataclass(frozen=True)
class ChartData:
    title: str
    days: list[tuple[str, float]]  # (local day 'YYYY-MM-DD', points)
    papers: list[tuple[str, float, int]]  # (paper label, accuracy 0..1, answers)

    @property
    def empty(self) -> bool:
        return not self.days and not self.papers


def _label(slug: str, paper_id: int) -> str:
    # the bundled font has no CJK glyphs: non-ASCII slugs become "paper N"
    return slug if slug.isascii() else f"paper {paper_id}"


async def chart_data(db: Database, scope: int | None, period: Period, title: str) -> ChartData:
    """The team's daily points per day and its accuracy by paper (daily and exam answers)."""
    start = period.start if period.start is not None else float("-inf")
    end = period.end if period.end is not None else float("inf")
    chat_where = "chat_id=? AND" if scope is not None else ""
    chat_params = [scope] if scope is not None else []
    days = await db.fetchall(
        f"SELECT day, SUM(score) FROM daily_answers WHERE {chat_where} answered_at>=? AND answered_at<? "
        "GROUP BY day ORDER BY day", (*chat_params, start, end))
    # exams: the roster's own (an invited hiring attempt belongs to the inviting team's hiring view)
    member_where = f"AND {members_sql('t.user_id')} AND t.invite_id IS NULL" if scope is not None else ""
    papers = await db.fetchall(
        f"""WITH scored AS (
              SELECT q.paper_id, d.score, d.max_score FROM daily_answers d JOIN questions q ON q.id = d.question_id
              WHERE {chat_where} d.answered_at>=? AND d.answered_at<?
              UNION ALL
              SELECT q.paper_id, x.score, x.max_score FROM answers x JOIN attempts t ON t.id = x.attempt_id
              JOIN questions q ON q.id = x.question_id
              WHERE t.mode='exam' AND t.status='finished' AND x.final=1 {member_where}
                AND t.finished_at>=? AND t.finished_at<?)
            SELECT p.id, p.slug, SUM(s.score) / SUM(s.max_score), COUNT(*) FROM scored s
            JOIN papers p ON p.id = s.paper_id GROUP BY p.id HAVING SUM(s.max_score) > 0 ORDER BY p.id""",
        (*chat_params, start, end, *chat_params, start, end))
    return ChartData(title=title, days=[(r[0], r[1]) for r in days],
                     papers=[(_label(r[1], r[0]), r[2], r[3]) for r in papers])


def render_png(data: ChartData) -> bytes:
    """Two panels, points per day and accuracy by paper, as PNG bytes. Pure and thread-safe:
    it builds its own Figure on the Agg canvas and never touches pyplot's global state."""
    # matplotlib is heavy: loaded only when a chart is drawn (not a circle)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 6), dpi=100)
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1)
    fig.suptitle(data.title if data.title.isascii() else "Team results")
    if data.days:
        xs = [d[5:] for d, _ in data.days]  # 'MM-DD'
        top.plot(xs, [p for _, p in data.days], marker="o", color="tab:blue")
        step = max(1, len(xs) // 12)
        top.set_xticks(range(0, len(xs), step), [xs[i] for i in range(0, len(xs), step)])
    else:
        top.text(0.5, 0.5, "no daily answers", ha="center", va="center", transform=top.transAxes)
    top.set_ylabel("daily points")
    top.grid(True, alpha=0.3)
    if data.papers:
        labels = [p for p, _, _ in data.papers]
        values = [a * 100 for _, a, _ in data.papers]
        bars = bottom.barh(labels, values, color="tab:green")
        for bar, (_, _, n) in zip(bars, data.papers, strict=True):
            bottom.text(bar.get_width() + 1, bar.get_y() + bar.get_height() / 2, f"n={n}", va="center",
                        fontsize=8)
        bottom.invert_yaxis()
    else:
        bottom.text(0.5, 0.5, "no answers", ha="center", va="center", transform=bottom.transAxes)
    bottom.set_xlim(0, 110)
    bottom.set_xlabel("accuracy by paper (%)")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
