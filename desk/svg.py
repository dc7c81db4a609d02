"""Server-rendered SVG charts: no script, no inline style (colours come from desk.css classes),
every label escaped. Pure functions of the numbers."""

from __future__ import annotations

from unicodedata import east_asian_width

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD = 360, 160, 28
FONT = 10  # a tick label's font size, in the chart's units (desk.css: .chart .tick)
WIDE_LATIN = 0.62  # the widest a Latin character's advance is taken to be, in ems


def _num(x: float) -> str:
    return f"{round(x, 2):g}"


def points_per_day(days: list[tuple[str, float]], label: str) -> Markup:
    """A bar per day ('YYYY-MM-DD', points), with the highest value marked on the axis."""
    if not days:
        return Markup("")
    top = max(p for _, p in days) or 1.0
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    step = inner_w / len(days)
    bars = []
    for i, (day, points) in enumerate(days):
        h = inner_h * points / top
        x, y = PAD + i * step + step * 0.15, PAD + inner_h - h
        bars.append(f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{step * 0.7:.1f}" height="{h:.1f}">'
                    f"<title>{escape(day)}: {_num(points)}</title></rect>")
    ticks = [(0, days[0][0][5:]), (len(days) - 1, days[-1][0][5:])] if len(days) > 1 else [(0, days[0][0][5:])]
    labels = "".join(f'<text class="tick" x="{PAD + i * step + step / 2:.1f}" y="{HEIGHT - 8}" '
                     f'text-anchor="middle">{escape(text)}</text>' for i, text in ticks)
    axis = (f'<line class="axis" x1="{PAD}" y1="{PAD + inner_h}" x2="{WIDTH - PAD}" y2="{PAD + inner_h}"/>'
            f'<text class="tick" x="{PAD - 4}" y="{PAD + 4}" text-anchor="end">{_num(top)}</text>')
    return Markup(f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
                  f'{axis}{"".join(bars)}{labels}</svg>')


def fit(text: str, width: float, size: float = FONT) -> str:
    """`text` as a label `width` units wide at font size `size` holds it: whole, or cut at its end with
    "…". A wide (CJK, full-width) character takes a whole em, any other at most WIDE_LATIN of one."""
    ems = [1.0 if east_asian_width(ch) in "WF" else WIDE_LATIN for ch in text]
    limit = width / size
    if sum(ems) <= limit:
        return text
    used, cut = 1.0, 0  # the ellipsis takes an em
    while cut < len(text) and used + ems[cut] <= limit:
        used += ems[cut]
        cut += 1
    return text[:cut].rstrip() + "…"


def share_bars(rows: list[tuple[str, float, int]], label: str) -> Markup:
    """A horizontal bar per (name, share 0..1, count), each name on its own line above its bar, whole or
    cut at its end with "…" (the whole name in the bar's tooltip)."""
    if not rows:
        return Markup("")
    row_h, left = 36, 4
    height = row_h * len(rows) + 4
    inner_w = WIDTH - left - 40  # room for "100%" after the longest bar
    parts = []
    for i, (name, share, n) in enumerate(rows):
        y = 4 + i * row_h
        w = max(0.0, min(1.0, share)) * inner_w
        parts.append(f'<text class="tick name" x="{left}" y="{y + 11}">{escape(fit(name, WIDTH - 2 * left))}</text>'
                     f'<rect class="bar" x="{left}" y="{y + 15}" width="{w:.1f}" height="{row_h - 20}">'
                     f"<title>{escape(name)}: {round(share * 100)}% (n={n})</title></rect>"
                     f'<text class="tick" x="{left + w + 4:.1f}" y="{y + 26}">{round(share * 100)}%</text>')
    return Markup(f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(label)}">'
                  f'{"".join(parts)}</svg>')


def sparkline(days: list[tuple[str, float]], label: str, width: int = 90, height: int = 22) -> Markup:
    """A member's points per day as a small line (a dot for a single day)."""
    if not days:
        return Markup("")
    top = max(p for _, p in days) or 1.0
    step = (width - 4) / max(1, len(days) - 1)
    points = [(2 + i * step, height - 2 - (height - 4) * p / top) for i, (_, p) in enumerate(days)]
    title = escape(", ".join(f"{d[5:]}: {_num(p)}" for d, p in days))
    shape = (f'<circle class="dot" cx="{points[0][0]:.1f}" cy="{points[0][1]:.1f}" r="2"/>' if len(points) == 1
             else '<polyline class="line" points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"/>')
    return Markup(f'<svg class="spark" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
                  f'aria-label="{escape(label)}"><title>{title}</title>{shape}</svg>')


def heat_class(share: float) -> str:
    """A CSS class for a heatmap cell: five steps of the share of points earned."""
    return f"heat{min(4, max(0, int(share * 5)))}"
