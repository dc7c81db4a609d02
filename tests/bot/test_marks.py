"""Issue 22.13: one name per question kind and one mark per answer state, on every screen."""

import pytest

from bank.kinds import SECTION_TITLES, Kind
from bank.models import Question
from bot.authoring.render import kinds_line
from bot.catalogue.marks import ANSWERED, FLAGGED, KIND_NAMES, TICKED
from bot.daily import render as daily_render
from bot.exam import navigator
from bot.exam import render as exam_render
from bot.i18n import CATALOGUE, kind_name, t
from bot.section_names import short_section
from proctor.exams.model import AnswerRec, Attempt, Item, Sheet

T0 = 1_800_000_000.0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_kind_has_one_name_and_an_upload_preview_uses_it(lang):
    assert set(KIND_NAMES) == set(Kind)
    assert all(kind_name(k, lang) == t(f"kind_{k.value}", lang) for k in Kind)
    line = kinds_line({Kind.short: 1, Kind.discussion: 1, Kind.matching: 1, Kind.case: 1}, "en")
    assert line == "Short answer 1, Discussion 1, Matching 1, Case study 1"  # was "…, discussion 1, matching 1, case 1"
    assert not [key for key in CATALOGUE if key.startswith("nq_kind_")]  # no second table of kind names


def _tf_question() -> Question:
    return Question(id=9, number=1, kind=Kind.truefalse, stem="0 is even.", answer=True, points=1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_true_false_reads_the_same_in_an_exam_and_in_the_daily_quiz(lang):
    q = _tf_question()
    sheet = Sheet(Attempt(5, 7, 7, 1, "exam", "Demo", "running", T0, T0 + 3600, None, None, 0, 11, None, None),
                  [Item(0, 9, "判断题", 1, "", False, "")], {}, {9: q})
    _, exam_kb = exam_render.attempt_screen(sheet, lang, "orig", T0)
    exam_buttons = [b.text for b in exam_kb.inline_keyboard[0]]
    view = daily_render.View(q, delivery_id=42, pos=0, total=1, option_order="")
    daily_buttons = [b.text for b in daily_render.question_keyboard(view, lang).inline_keyboard[0]]
    assert exam_buttons == daily_buttons == [t("tf_true", lang), t("tf_false", lang)]


def test_ticks_not_submitted_are_not_shown_as_answered_on_the_navigator():
    multi = Question(id=2, number=1, kind=Kind.multi, stem="多选", options=["a", "b", "c"], answer="AB", points=2)
    items = [Item(0, 2, "多项选择题", 2, "ABC", False, "AC"),  # ticked, never submitted
             Item(1, 2, "多项选择题", 2, "ABC", True, ""), Item(2, 2, "多项选择题", 2, "ABC", False, "")]
    answers = {1: AnswerRec(1, 2, "AB", 2.0, 2, "correct", True)}
    sheet = Sheet(Attempt(5, 7, 7, 1, "exam", "Demo", "running", T0, T0 + 3600, None, None, 2, 11, None, None),
                  items, answers, {2: multi})
    assert [navigator.cell(sheet, p) for p in range(3)] == [f"1{TICKED}", f"2{ANSWERED}{FLAGGED}", "•3"]
    legend = t("navigator_title", "en")
    assert f"{ANSWERED} answered" in legend and f"{TICKED} ticked, not submitted" in legend


def test_a_kinds_chinese_name_is_the_section_title_exams_show():
    """Issue 22: /newquestion offered 单选题/多选题 while exams said 单项选择题/多项选择题."""
    assert kind_name(Kind.single, "zh") == "单项选择题" and kind_name(Kind.multi, "zh") == "多项选择题"
    assert all(kind_name(k, "zh") == short_section(SECTION_TITLES[k]) for k in Kind)
