"""The candidate's regrade notice names the question by its reference and its paper (never its id) and
every change of their scores, old → new, in both languages, with the count's plural right; a notice queued before migration 028 (one change) still renders."""

import pytest

from bank.question_ref import QuestionRef
from bot.i18n import t
from bot.leads.keyfix import notice_lines

ONE = {"question": 7, "changes": [{"old": 0, "new": 2, "max": 2, "title": "Paper A"}]}
TWO = {"question": 7, "changes": [{"old": 2, "new": 0, "max": 2, "title": "Paper A"},
                                  {"old": 0.5, "new": 1, "max": 1, "title": ""}]}


@pytest.mark.parametrize(("payload", "lang", "lines"), [
    (ONE, "en", ["📝 P1 · Q3 (Paper A) was regraded with its fixed key: your score 0 → 2 (of 2)."]),
    (ONE, "zh", ["📝 P1 · 第3题（Paper A） 按修正后的答案重新评分：你的得分 0 → 2（满分 2）。"]),
    (TWO, "en", ["📝 P1 · Q3 (Paper A) was regraded with its fixed key: 2 of your scores changed.",
                 "· Paper A: 2 → 0 (of 2)", "· daily quiz: 0.5 → 1 (of 1)"]),
    (TWO, "zh", ["📝 P1 · 第3题（Paper A） 按修正后的答案重新评分：你有 2 个得分发生变化。",
                 "· Paper A：2 → 0（满分 2）", "· 每日一练：0.5 → 1（满分 1）"]),
    ({"question": 7, "old": 1, "new": 0, "max": 1}, "en",  # queued before 028
     ["📝 P1 · Q3 (Paper A) was regraded with its fixed key: your score 1 → 0 (of 1)."]),
    ({"question": 7, "dispute": 3}, "en", []),  # the disputer whose score did not change
])
def test_notice_lines(payload, lang, lines):
    where = t("l_kf_notice_where", lang, question=QuestionRef("P1", 3, 7), paper="Paper A")  # question_where
    assert notice_lines(payload, lang, where) == lines
