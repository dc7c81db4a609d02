"""Issue 22 (rough edges): counted texts read right at 0, 1 and many, in English and Chinese, through one
helper (bot/i18n.py: `{n:one|other}` and `{n:zero|one|other}`)."""

import re

import pytest

from bank.kinds import Kind
from bank.models import Question
from bank.question_ref import QuestionRef
from bot.bank_cli import render_question
from bot.i18n import CATALOGUE, t, tn
from tests.stored import stored


@pytest.mark.parametrize(("answers", "changed", "en", "zh"), [
    (0, 0, "No past answer to regrade, no score changed.", "没有需要重新评分的作答，没有分数变化。"),
    (1, 1, "1 answer regraded, 1 score changed; that candidate is told.", "已重新评分 1 份作答，1 个分数有变化；已通知该考生。"),
    (3, 0, "3 answers regraded, no score changed.", "已重新评分 3 份作答，没有分数变化。"),
    (3, 2, "3 answers regraded, 2 scores changed; those candidates are told.",
     "已重新评分 3 份作答，2 个分数有变化；已通知相关考生。"),
])
def test_a_regrade_says_who_is_told_only_when_someone_is(answers, changed, en, zh):
    """Was "0 answers regraded, 0 scores changed; those candidates are told"."""
    assert t("eq_regraded", "en", answers=answers, changed=changed) == en
    assert t("eq_regraded", "zh", answers=answers, changed=changed) == zh
    fixed = t("l_kf_done", "en", question=QuestionRef("P1", 7), version=2, answers=answers, changed=changed)
    assert ("told" in fixed) == bool(changed), fixed


def test_one_point_is_one_point():
    """Was "1 points" (`proctor bank show`)."""
    q = stored(Question(id=3, number=1, kind=Kind.fill, stem="1+1=____", answer=[["2"]], points=1), 3)
    assert " · 1 point" in render_question(q) and "1 points" not in render_question(q)
    assert tn("n_point", 1.5, "en") == "1.5 points" and tn("n_point", 1, "zh") == "1 分"
    assert t("n_pt", "en", n=0) == "0 pts" and t("n_pt", "en", n="1") == "1 pt"


COUNTED = re.compile(r"\{(\w+)\} (?:answers?|questions?|points?|pts|scores?|candidates?|minutes?|members?|rows?|"
                     r"warnings?|papers?|attempts?)\b")


def test_every_counted_english_text_uses_the_plural_helper():
    """The sweep: a count before a noun in English has its forms (`{n} {n:answer|answers}`)."""
    bare = [(key, m.group(0)) for key, texts in CATALOGUE.items() for m in COUNTED.finditer(texts["en"])
            if "{" + m.group(1) + ":" not in texts["en"]]
    assert bare == []
