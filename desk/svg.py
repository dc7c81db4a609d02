"""Server-rendered SVG charts: no script, no inline style (colours come from desk.css classes),
every label escaped. Pure functions of the numbers."""

from __future__ import annotations

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD = 360, 160, 28


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


def share_bars(rows: list[tuple[str, float, int]], label: str) -> Markup:
    """A horizontal bar per (name, share 0..1, count)."""
    if not rows:
        return Markup("")
    row_h, name_w = 22, 110
    height = row_h * len(rows) + 8
    inner_w = WIDTH - name_w - 50
    parts = []
    for i, (name, share, n) in enumerate(rows):
        y = 4 + i * row_h
        w = max(0.0, min(1.0, share)) * inner_w
        parts.append(f'<text class="tick" x="{name_w - 6}" y="{y + 15}" text-anchor="end">{escape(name[:16])}</text>'
                     f'<rect class="bar" x="{name_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}">'
                     f"<title>{escape(name)}: {round(share * 100)}% (n={n})</title></rect>"
                     f'<text class="tick" x="{name_w + w + 4:.1f}" y="{y + 15}">{round(share * 100)}%</text>')
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
