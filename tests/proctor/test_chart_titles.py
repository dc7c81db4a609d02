"""The team chart draws paper titles (Chinese too, with a CJK font) and makes sense for one data point;
without a CJK font it shows the papers by code ("P3") and says so."""

import pytest

from proctor.teams.charts import ChartData, cjk_font, figure, labels

ONE = ChartData(title="团队 Alpha · this week", days=[("2027-01-15", 5.0)], papers=[("梯度累积试卷", 0.75, 4, "P3")])


def test_titles_stay_titles_with_a_font_and_are_numbered_without():
    with_font = labels(ONE, "/some/cjk.ttc")
    assert with_font.papers == ["梯度累积试卷"] and with_font.stand_ins == [] and with_font.title == ONE.title
    without = labels(ONE, None)
    assert without.papers == ["P3"] and without.stand_ins == [("P3", "梯度累积试卷")]  # its code (issue 22)
    assert without.title == "Team results"
    ascii_only = ChartData("t", [], [("Ops", 0.5, 2, "P1")])
    assert labels(ascii_only, None).stand_ins == []


def test_the_font_is_found_by_path_or_not_at_all(tmp_path):
    assert cjk_font(candidates=()) is None
    f = tmp_path / "cjk.ttc"
    f.write_bytes(b"x")
    assert cjk_font(candidates=(str(tmp_path / "missing.ttc"), str(f))) == str(f)
    chosen = tmp_path / "chosen.ttf"
    chosen.write_bytes(b"x")
    assert cjk_font(chosen, candidates=(str(f),)) == str(chosen)  # PROCTOR_CJK_FONT, through the settings
    assert cjk_font(tmp_path / "gone.ttf", candidates=(str(f),)) == str(f)  # a chosen file that is missing


def test_one_day_and_one_paper_have_sensible_axes():
    fig = figure(ONE, None)
    top, bottom = fig.axes
    assert top.get_ylim()[0] == 0 and top.get_ylim()[1] > 5  # from zero, the point inside the frame
    assert top.get_xlim() == (-1, 1)
    low, high = sorted(bottom.get_ylim())
    assert high - low >= 2  # one bar, not a bar filling the panel
    assert [t.get_text() for t in bottom.get_yticklabels()] == ["P3"]
    assert any("No CJK font" in t.get_text() for t in fig.texts)  # the fallback says so


@pytest.mark.skipif(cjk_font() is None, reason="no CJK font installed (the fallback is tested above)")
def test_chinese_titles_are_drawn_with_the_cjk_font():
    font = cjk_font()
    fig = figure(ONE, font)
    _, bottom = fig.axes
    ticks = bottom.get_yticklabels()
    assert [t.get_text() for t in ticks] == ["梯度累积试卷"]
    assert ticks[0].get_fontproperties().get_file() == font
    assert fig._suptitle.get_text() == ONE.title
    assert not any("No CJK font" in t.get_text() for t in fig.texts)
