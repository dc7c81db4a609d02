"""Pure parts of the daily bot: callback data, toasts within 200 characters, texts, /daily on args."""

import pytest

from bank.kinds import Kind
from bank.models import Question
from bot.daily import callbacks as cb
from bot.daily import render
from bot.daily.handlers import BadArgument, parse_on_args
from proctor.daily.answers import Standing
from proctor.daily.schedule import BadTime, BadTimezone
from tests.stored import stored


def _view(kind=Kind.single, answer="C", options=("one", "two", "three", "four"), order="CADB", explanation=""):
    q = stored(Question(id=1, number=1, kind=kind, stem="Which?", options=list(options), answer=answer,
                        explanation=explanation), 3)
    return render.View(q, delivery_id=42, pos=2, total=5, option_order=order if options else "")


@pytest.mark.parametrize("data, expected", [
    ("d:p:42:2:0", cb.Press("pick", 42, 2, "0")),
    ("d:p:42:2:t", cb.Press("pick", 42, 2, "t")),
    ("d:m:42:2:3", cb.Press("toggle", 42, 2, "3")),
    ("d:s:42:2", cb.Press("submit", 42, 2, None)),
])
def test_callback_round_trip(data, expected):
    assert cb.parse(data) == expected
    assert cb.encode(expected.action, expected.delivery_id, expected.pos, expected.arg) == data


@pytest.mark.parametrize("data", [None, "", "d:", "d:p:42:2", "d:s:42:2:1", "d:m:42:2:t", "d:x:1:1:1",
                                  "x:p:1:1:1", "d:p:-1:2:0", "d:p:42:2:0:extra", "d:p:" + "9" * 70 + ":1:1",
                                  "d:p:42:2:Z", "d:p:4２:2:0"])
def test_forged_or_garbled_callback_data_is_refused(data):
    assert cb.parse(data) is None


def test_callback_data_stays_within_64_bytes():
    assert len(cb.encode("toggle", 10**12 - 1, 999, 9).encode()) <= 64


def test_shown_key_follows_the_shuffled_order():
    v = _view()  # original C is shown first
    assert v.shown_letter("C") == "A"
    assert v.original_letter(0) == "C"
    assert render.shown_key(v, "en") == "A"
    multi = _view(Kind.multi, answer="AB", order="CADB")
    assert render.shown_key(multi, "en") == "B, D"


def test_a_latex_key_reads_the_same_in_the_group_close_the_private_feedback_and_the_exam():
    """Issue 22: the group's close showed `$f(x)=\\frac{1}{1+e^{-x}}$` where the private result showed
    f(x)=1/(1+e^(-x)). One rendering of a key, everywhere."""
    from bot.exam import render as exam_render
    from proctor.exams.model import Item

    v = _view(Kind.fill, answer=[["$f(x)=\\frac{1}{1+e^{-x}}$"]], options=())
    close = render.close_text("2027-01-15", [v], [], {}, "zh", "orig")
    private = render.feedback(v, "x", "wrong", 0, 1, "zh", "orig")
    exam = exam_render.shown_key(v.question, Item(0, 1, "填空题", 1.0, "", False, ""), "zh")
    assert "3. P1 · 第3题：f(x)=1/(1+e^(-x))" in close and "frac" not in close and "$" not in close
    assert "f(x)=1/(1+e^(-x))" in private and exam == "f(x)=1/(1+e^(-x))"


@pytest.mark.parametrize("kind, answer, options", [
    (Kind.single, "C", ("one", "two", "three", "four")), (Kind.multi, "AB", ("one", "two", "three", "four")),
    (Kind.truefalse, True, ()), (Kind.fill, [["甲", "乙"], ["丙"]], ()), (Kind.short, "参考答案", ())])
def test_the_exam_and_the_daily_quiz_show_one_key(kind, answer, options):
    from bot.exam import render as exam_render
    from proctor.exams.model import Item

    v = _view(kind, answer=answer, options=options)
    item = Item(0, 1, "s", 1.0, v.option_order, False, "")
    for lang in ("en", "zh"):
        assert render.shown_key(v, lang) == exam_render.shown_key(v.question, item, lang)


def test_group_question_shows_count_and_buttons_private_does_not_show_count():
    v = _view()
    text = render.question_text(v, "en", "orig", private=False, count=3)
    assert "3/5" in text and "A. three" in text and "👥 Answered: 3" in text
    assert "Answered" not in render.question_text(v, "en", "orig", private=True)
    kb = render.question_keyboard(v, "en")
    assert [b.text for b in kb.inline_keyboard[0]] == ["A", "B", "C", "D"]
    assert all(b.callback_data.startswith("d:") for row in kb.inline_keyboard for b in row)


def test_fill_question_asks_for_a_reply_in_groups_and_has_no_buttons():
    v = _view(Kind.fill, answer=[["注意力"]], options=())
    assert "Reply to this message" in render.question_text(v, "en", "orig", private=False)
    assert render.question_keyboard(v, "en") is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_toast_fits_200_utf16_units_with_a_long_explanation(lang):
    v = _view(explanation="解释" * 300 + "😀" * 50)
    text = render.toast(v, "wrong", 0, 2, lang, "orig")
    assert render.utf16_len(text) <= 200
    assert text.startswith("❌") and "A" in text


def test_toast_with_emoji_only_explanation_still_fits():
    v = _view(explanation="😀" * 300)
    assert render.utf16_len(render.toast(v, "correct", 2, 2, "en", "orig")) <= 200


def test_close_text_lists_keys_explanations_and_top_with_streaks():
    views = [_view(explanation="because"), _view(Kind.truefalse, answer=False, options=(), explanation="")]
    top = [Standing(1, "Ann", 2, 2, 2, 10), Standing(2, "Bob", 1, 2, 2, 20)]
    text = render.close_text("2027-01-15", views, top, {1: 4, 2: 1}, "en", "orig")
    assert "2027-01-15" in text and "3. P1 · Q3: A — because" in text and "3. P1 · Q3: ✘ False" in text
    assert "🥇 Ann – 2/2 🔥4" in text and "🥈 Bob – 1/2" in text and "🔥1" not in text


def test_close_text_without_answers():
    assert "Nobody answered today." in render.close_text("2027-01-15", [_view()], [], {}, "en", "orig")


@pytest.mark.parametrize("args, expected", [
    ([], (None, None, None)),
    (["09:00"], ("09:00", None, None)),
    (["Europe/Berlin", "7:30"], ("07:30", "Europe/Berlin", None)),
    (["09:00", "Asia/Shanghai", "2h"], ("09:00", "Asia/Shanghai", 120)),
    (["utc", "90m"], (None, "UTC", 90)),
])
def test_parse_on_args(args, expected):
    assert parse_on_args(args) == expected


@pytest.mark.parametrize("args, error", [(["25:00"], BadTime), (["Mars/Base"], BadTimezone),
                                         (["tomorrow"], BadArgument), (["0m"], BadArgument)])
def test_parse_on_args_refuses(args, error):
    with pytest.raises(error):
        parse_on_args(args)
