"""The desk's server-rendered charts: pure SVG, labels escaped, bars scaled to the highest value."""

import re

from desk.svg import FONT, HEIGHT, PAD, WIDE_LATIN, fit, points_per_day, share_bars


def test_bars_scale_to_the_highest_day_and_labels_are_escaped():
    svg = str(points_per_day([("2027-01-14", 2.0), ("2027-01-15", 4.0)], 'points <script>"x"'))
    heights = [float(h) for h in re.findall(r'<rect class="bar"[^>]* height="([0-9.]+)"', svg)]
    assert heights == [(HEIGHT - 2 * PAD) / 2, HEIGHT - 2 * PAD]
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "style=" not in svg
    assert points_per_day([], "x") == ""


def test_share_bars_clamp_and_escape():
    svg = str(share_bars([("<b>p</b>", 1.5, 3), ("q", -0.2, 1)], "acc"))
    assert "<b>" not in svg and "&lt;b&gt;p" in svg
    widths = [float(w) for w in re.findall(r'<rect class="bar"[^>]* width="([0-9.]+)"', svg)]
    assert widths[1] == 0.0 and widths[0] > 0
    assert share_bars([], "x") == ""


def test_sparkline_and_heat_steps():
    from desk.svg import heat_class, sparkline

    one = str(sparkline([("2027-01-15", 3.0)], "trend"))
    assert "<circle" in one and "01-15: 3" in one
    line = str(sparkline([("2027-01-14", 1.0), ("2027-01-15", 2.0)], "<t>"))
    assert line.count(",") == 2 + 1 and "&lt;t&gt;" in line  # two points, and the title's comma
    assert sparkline([], "x") == ""
    assert [heat_class(s) for s in (0.0, 0.19, 0.2, 0.5, 0.99, 1.0)] == [
        "heat0", "heat0", "heat1", "heat2", "heat4", "heat4"]


def test_a_label_is_whole_or_cut_at_its_end_within_its_width():
    assert fit("P1 · Demo paper demo", 200) == "P1 · Demo paper demo"
    long = "大模型分布式训练中的梯度累积与混合精度数值稳定性综合测评试卷"
    cut = fit(long, 100)  # ten ems: nine characters and the ellipsis
    assert cut == long[:9] + "…"
    for text in (long, "P3 · " + long, "x" * 300):
        shown = fit(text, 150)
        assert shown == text or (shown.endswith("…") and text.startswith(shown[:-1]))
        ems = sum(1.0 if ord(ch) > 0x2E80 else WIDE_LATIN for ch in shown)
        assert ems * FONT <= 150
