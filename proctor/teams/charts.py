"""The team chart: daily points over time and accuracy by paper, as PNG bytes (matplotlib, Agg)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from proctor.daily import scores
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.exams.visibility import Fact, Lens
from proctor.storage.db import Database
from proctor.teams import topic_scores
from proctor.teams.consent import seen_sql
from proctor.teams.leaderboard import Period

if TYPE_CHECKING:  # annotations only: matplotlib is imported where a chart is drawn
    from matplotlib.figure import Figure


@dataclass(frozen=True, slots=True)
class ChartData:
    title: str
    days: list[tuple[str, float]]  # (local day 'YYYY-MM-DD', points)
    papers: list[tuple[str, float, int, str]]  # (paper title, accuracy 0..1, answers, paper code "P3")

    @property
    def empty(self) -> bool:
        return not self.days and not self.papers


# Fonts with CJK glyphs, first found wins (Debian: fonts-wqy-microhei, fonts-noto-cjk; .ci/run installs
# one), after the one the caller chose (the bot's PROCTOR_CJK_FONT). Without any, titles fall back to the
# papers' codes (see labels).
CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)


def cjk_font(chosen: str | os.PathLike[str] | None = None, *,
             candidates: tuple[str, ...] = CJK_FONTS) -> str | None:
    """The path of a font that draws Chinese: `chosen` if it is a file, else the first of `candidates` that
    is one; None without any."""
    for path in (chosen, *candidates):
        if path and os.path.isfile(path):
            return os.fspath(path)
    return None


@dataclass(frozen=True, slots=True)
class Labels:
    """What the chart writes: the title and the papers' names, and what stood in for them."""

    title: str
    papers: list[str]
    stand_ins: list[tuple[str, str]]  # ("P2", "梯度累积试卷"): said in the caption instead


def labels(data: ChartData, font: str | None) -> Labels:
    """Titles as they are when a CJK font is at hand; otherwise the paper's code ("P3") for a title the default
    font can't draw (and a plain chart title), with the stand-ins listed for the caption."""
    if font is not None:
        return Labels(data.title, [p for p, *_ in data.papers], [])
    names, stand_ins = [], []
    for title, _, _, code in data.papers:
        if title.isascii():
            names.append(title)
        else:
            names.append(code)
            stand_ins.append((code, title))
    return Labels(data.title if data.title.isascii() else "Team results", names, stand_ins)


async def chart_data(db: Database, lens: Lens, period: Period, title: str) -> ChartData:
    """Team `lens.scope`'s daily points per day (None: everyone's) and its accuracy by paper (daily and
    exam answers) on the papers whose sections the read rule shows the lens's viewer: a chart posted in
    a group (its audience's lens) shows no hiring paper."""
    scope = lens.scope
    start = period.start if period.start is not None else float("-inf")
    end = period.end if period.end is not None else float("inf")
    if scope is not None:  # the team's: from the daily_scores summary (proctor/daily/scores.py)
        source, values = scores.source(db.engine, period.start, period.end)
        days = await db.fetchall(f"SELECT day, SUM(score) FROM ({source}) daily GROUP BY day ORDER BY day",
                                 {"chat": scope, **values})
    else:
        days = await db.fetchall("SELECT day, SUM(score) FROM daily_answers WHERE answered_at>=? AND answered_at<? "
                                 "GROUP BY day ORDER BY day", (start, end))
    if scope is not None:  # the team's accuracy by paper: from the summaries (proctor/teams/topic_scores.py)
        daily, values = topic_scores.daily_source(db.engine, period.start, period.end)
        # exams: the roster's own (an invited hiring attempt belongs to the inviting team's hiring view)
        exams = topic_scores.exam_source(
            f"t.mode='{AttemptMode.exam}' AND t.status='{AttemptStatus.finished}' "
            f"AND {seen_sql('t.user_id', 't.started_at', ':chat')} "
            "AND t.invite_id IS NULL AND t.finished_at>=:start AND t.finished_at<:end")
        papers = await db.fetchall(
            f"""SELECT p.id, p.title, SUM(s.score) / SUM(s.max_score), SUM(s.answers), p.code
                FROM ({topic_scores.grouped(daily, 'paper_id')} UNION ALL
                      {topic_scores.grouped(exams, 'paper_id')}) s JOIN papers p ON p.id = s.paper_id
                GROUP BY p.id HAVING SUM(s.max_score) > 0 ORDER BY p.id""",
            {"chat": scope, "start": start, "end": end, **values})
    else:
        papers = await db.fetchall(
            f"""WITH scored AS (
                  SELECT q.paper_id, d.score, d.max_score FROM daily_answers d JOIN questions q ON q.id = d.question_id
                  WHERE d.answered_at>=? AND d.answered_at<?
                  UNION ALL
                  SELECT q.paper_id, x.score, x.max_score FROM answers x JOIN attempts t ON t.id = x.attempt_id
                  JOIN questions q ON q.id = x.question_id
                  WHERE t.mode='{AttemptMode.exam}' AND t.status='{AttemptStatus.finished}' AND x.final=1
                    AND t.finished_at>=? AND t.finished_at<?)
                SELECT p.id, p.title, SUM(s.score) / SUM(s.max_score), COUNT(*), p.code FROM scored s
                JOIN papers p ON p.id = s.paper_id GROUP BY p.id HAVING SUM(s.max_score) > 0 ORDER BY p.id""",
            (start, end, start, end))
    return ChartData(title=title, days=[(r[0], r[1]) for r in days],
                     papers=[(r[1], r[2], r[3], r[4]) for r in papers if lens.of(r[0]).shows(Fact.section)])


def render_png(data: ChartData, font: str | None = None) -> bytes:
    """Two panels, points per day and accuracy by paper, as PNG bytes (`font`: a CJK font file, see
    cjk_font). Pure and thread-safe: it builds its own Figure on the Agg canvas and never touches
    pyplot's global state."""
    fig = figure(data, font)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def figure(data: ChartData, font: str | None = None) -> Figure:
    """The chart's matplotlib Figure (imported here: only drawing a chart pays for matplotlib)."""
    # matplotlib is heavy: loaded only when a chart is drawn (not a circle)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

    names = labels(data, font)
    prop = FontProperties(fname=font) if font else None
    fig = Figure(figsize=(8, 6), dpi=100)
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1)
    fig.suptitle(names.title, fontproperties=prop)
    if data.days:
        xs = [d[5:] for d, _ in data.days]  # 'MM-DD'
        ys = [p for _, p in data.days]
        top.plot(xs, ys, marker="o", color="tab:blue")
        step = max(1, len(xs) // 12)
        top.set_xticks(range(0, len(xs), step), [xs[i] for i in range(0, len(xs), step)])
        top.set_ylim(0, max(max(ys) * 1.15, 1))  # from zero: one day's points is a point, not a range
        if len(xs) == 1:
            top.set_xlim(-1, 1)  # one day sits in the middle, not on the frame
    else:
        top.text(0.5, 0.5, "no daily answers", ha="center", va="center", transform=top.transAxes)
    top.set_ylabel("daily points")
    top.grid(True, alpha=0.3)
    if data.papers:
        values = [a * 100 for _, a, *_ in data.papers]
        bars = bottom.barh(range(len(values)), values, color="tab:green")
        bottom.set_yticks(range(len(values)), names.papers, fontproperties=prop)
        for bar, (_, _, n, _) in zip(bars, data.papers, strict=True):
            bottom.text(bar.get_width() + 1, bar.get_y() + bar.get_height() / 2, f"n={n}", va="center",
                        fontsize=8)
        if len(values) == 1:
            bottom.set_ylim(-1, 1)  # one bar of a sensible height
        bottom.invert_yaxis()
    else:
        bottom.text(0.5, 0.5, "no answers", ha="center", va="center", transform=bottom.transAxes)
    bottom.set_xlim(0, 110)
    bottom.set_xlabel("accuracy by paper (%)")
    if names.stand_ins:
        fig.text(0.01, 0.01, "No CJK font installed: papers are shown by code; the caption names them.", fontsize=8)
    fig.tight_layout()
    return fig
