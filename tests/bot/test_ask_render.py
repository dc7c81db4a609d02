"""A matching question at its largest fits Telegram: 26 long pairs give one message of at most 4096
UTF-16 units and buttons whose callback data stays within 64 bytes, in a daily quiz and an exam."""

from __future__ import annotations

from bank.kinds import Kind
from bank.models import Question
from bank.option_order import LETTERS
from bot.daily import render as daily_render
from bot.exam import callbacks as exam_cb
from bot.text_limits import TELEGRAM_TEXT, utf16_len
from tests.stored import stored

BIG = stored(Question(id=999_999_999, number=1, kind=Kind.matching, stem="配对 😀" * 200,
                      answer=[[f"左边的项目 {i} 😀" * 20, f"右边的选项 {i} 😀" * 20] for i in range(26)]),
             999_999, "P999999")


def test_the_largest_matching_question_fits():
    view = daily_render.View(BIG, 999_999_999_999, 999, 999, LETTERS[::-1])
    text = daily_render.question_text(view, "zh", "orig", private=True)
    assert utf16_len(text) <= TELEGRAM_TEXT
    kb = daily_render.question_keyboard(view, "zh", draft="z" * 26)
    buttons = [b for row in kb.inline_keyboard for b in row]
    assert len(buttons) == 27 and all(len(b.callback_data.encode()) <= 64 for b in buttons)
    assert buttons[0].text.endswith("→ A") and buttons[25].text.startswith("26. ")
    for i in range(26):
        data = exam_cb.act(999_999_999_999, "toggle", 9999, i)
        assert len(data.encode()) <= 64 and exam_cb.parse(data).arg == str(i)
