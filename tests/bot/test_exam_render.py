"""Exam screens are pure: rendered from a sheet, a language and `now`."""

from dataclasses import replace

from bank.kinds import Kind
from bank.models import Question
from bot.exam import callbacks as cb
from bot.exam import render
from bot.i18n import spans
from proctor.exams.model import AnswerRec, Attempt, Item, Sheet, compute_result
from proctor.exams.visibility import EVERY, Visibility
from tests.stored import stored

T0 = 1_800_000_000.0


def _sheet(mode="exam", answers=None, pos=0, draft=""):
    qs = {
        1: stored(Question(id=1, number=1, kind=Kind.single, stem="哪个是框架？", options=["TensorFlow", "NumPy", "C", "D"],
                           answer="A", explanation="TensorFlow 是框架。", points=2), 4, "P2"),
        2: stored(Question(id=2, number=1, kind=Kind.multi, stem="多选", options=["a", "b", "c", "d"], answer="AB",
                           points=2), 17, "P2"),
        3: stored(Question(id=3, number=1, kind=Kind.fill, stem="GPU的中文全称是______。", answer=[["图形处理器"]],
                           points=1), 30, "P2"),
    }
    items = [Item(0, 1, "单项选择题", 2, "BADC", False, "", None, "P2", 4),
             Item(1, 2, "多项选择题", 2, "ABCD", True, draft, None, "P2", 17),
             Item(2, 3, "填空题", 1, "", False, "", None, "P2", 30)]
    a = Attempt(5, 7, 7, 1, mode, "Demo", "running", T0, T0 + 3600 if mode == "exam" else None, None, None,
                pos, 11, None, None)
    return Sheet(a, items, answers or {}, qs)


def test_header_shows_position_section_points_and_time_left():
    text, _ = render.attempt_screen(_sheet(), "en", "orig", T0 + 60 * 21 + 48)
    assert text.splitlines()[0] == "P2 · Q4 · 1 of 3 · Single choice · 2 pts · 38:12 left"
    text, _ = render.attempt_screen(_sheet(), "zh", "orig", T0)
    assert text.splitlines()[0].startswith("P2 · 第4题 · 进度 1/3 · 单项选择题 · 2 分 · 剩余 60:00")


def test_shuffled_options_are_shown_in_attempt_order():
    text, kb = render.attempt_screen(_sheet(), "en", "orig", T0)
    assert "A. NumPy" in text and "B. TensorFlow" in text
    first_row = kb.inline_keyboard[0]
    assert [b.text for b in first_row] == ["A", "B", "C", "D"]
    assert cb.parse(first_row[1].callback_data) == cb.Act(5, "answer", 0, "1")


def test_every_button_fits_in_64_bytes():
    for pos in range(3):
        _, kb = render.attempt_screen(_sheet(pos=pos), "zh", "hant", T0)
        for row in kb.inline_keyboard:
            for b in row:
                assert 1 <= len(b.callback_data.encode()) <= 64


def test_multi_draft_marks_toggled_options():
    text, kb = render.attempt_screen(_sheet(pos=1, draft="AC"), "en", "orig", T0)
    assert [b.text for b in kb.inline_keyboard[0]] == ["☑ A", "B", "☑ C", "D"]
    assert "Selected: A, C" in text
    assert "🚩" in text.splitlines()[0]
    text, _ = render.attempt_screen(_sheet(pos=1, draft="AC"), "zh", "orig", T0)
    assert "已选：A、C" in text  # a Chinese list is joined with 、, not ", "


def test_letter_lists_follow_the_language():
    sheet = _sheet(mode="practice", pos=1, answers={1: AnswerRec(1, 2, "BD", 0, 2, "wrong", True)})
    text, _ = render.attempt_screen(sheet, "zh", "orig", T0)
    assert "A、B" in text and "A, B" not in text  # the key, as shown
    text, _ = render.attempt_screen(sheet, "en", "orig", T0)
    assert "A, B" in text
    exam = _sheet(pos=1, answers={1: AnswerRec(1, 2, "BD", 0, 2, "wrong", True)})
    text, _ = render.attempt_screen(exam, "zh", "orig", T0)
    assert "B、D" in text and "B, D" not in text  # the answer given
    text, _ = render.attempt_screen(exam, "en", "orig", T0)
    assert "B, D" in text


def test_no_correctness_during_exam_but_feedback_in_practice():
    ans = {0: AnswerRec(0, 1, "B", 0.0, 2, "wrong", True)}
    text, _ = render.attempt_screen(_sheet(answers=ans), "en", "orig", T0)
    assert "Your answer: A" in text and "❌" not in text and "✅" not in text
    text, _ = render.attempt_screen(_sheet(mode="practice", answers=ans), "en", "orig", T0)
    assert "❌ Wrong" in text and "Answer: B" in text and "TensorFlow 是框架" in text


def test_typed_question_shows_hint():
    text, _ = render.attempt_screen(_sheet(pos=2), "en", "orig", T0)
    assert "Type your answer" in text


def test_result_card_by_section():
    ans = {0: AnswerRec(0, 1, "A", 2, 2, "correct", True), 2: AnswerRec(2, 3, "x", 0.5, 1, "needs_review", False)}
    sheet = _sheet(answers=ans)
    sheet = Sheet(replace(sheet.attempt, status="finished", finished_at=T0 + 125), sheet.items, ans, sheet.questions)
    text, kb = render.result_card(sheet, compute_result(sheet.items, ans), "en", Visibility(None, EVERY))
    assert "Score: 2.5/5 (50.0%)" in text
    assert "Time used: 02:05" in text
    assert "• Single choice: 2/2" in text and "• Multiple choice: 0/2" in text
    assert "awaiting review" in text
    assert [cb.parse(b.callback_data).action for b in kb.inline_keyboard[0]] == ["review_all", "review"]
    assert "1✓ 2– 3📝" in text  # a mark per question


def test_long_text_is_clipped_to_telegram_limit():
    assert len(render.clip("字" * 5000)) == 4000  # bot.text_limits.MAX_TEXT: a margin under 4096


def test_the_finish_list_names_flagged_questions_only_in_an_exam():
    """Issue 22: practice has no Flag button, so its Finish list has no 'Flagged: none' line."""
    exam, _ = render.finish_confirm(_sheet("exam"), "en")
    practice, _ = render.finish_confirm(_sheet("practice"), "en")
    assert "Flagged: 2" in exam
    assert practice.startswith("Finish now?\nUnanswered:") and "Flagged" not in practice
    assert "已标记" not in render.finish_confirm(_sheet("practice"), "zh")[0]


def test_mystats_counts_cancelled_attempts_and_marks_a_provisional_best():
    row = {"title": "Demo", "used": 2, "cancelled": 1, "best": 2, "last": 2, "max_score": 80, "pending": 1,
           "last_pending": 1, "method": "best"}
    line = render.mystats_line(row, "en", "orig")
    assert line.startswith("• Demo: 2 attempts used (1 cancelled), best 2/80 (provisional: answers await review)")
    settled = render.mystats_line({**row, "cancelled": 0, "pending": 0, "last_pending": 0}, "en", "orig")
    assert "provisional" not in settled and "cancelled" not in settled
    assert render.mystats_line({**row, "best": None, "last": None}, "en", "orig") == \
        "• Demo: 2 attempts used (1 cancelled), none handed in"


def test_a_chinese_list_is_joined_with_the_chinese_comma():
    """Issue 22: `未作答：1, 2` in a Chinese screen; `1、2` there, `1, 2` in English."""
    assert (spans([1, 2, 5], "zh"), spans([1, 2, 5], "en")) == ("1、2、5", "1, 2, 5")
    assert "未作答：1–3" in render.finish_confirm(_sheet(), "zh")[0]


def test_the_finish_list_gives_each_run_of_places_as_a_range():
    """Issue 35: "Unanswered: 2–40", not thirty-nine numbers."""
    assert spans(range(2, 41), "en") == "2–40"
    assert spans([9, 1, 3, 4, 5], "en") == "1, 3–5, 9" and spans([9, 1, 3, 4, 5], "zh") == "1、3–5、9"
    assert (spans([7, 8], "en"), spans([], "en")) == ("7, 8", "")
    assert render.finish_confirm(_sheet(), "en")[0].startswith("Finish now?\nUnanswered: 1–3")
