"""Single choice, multiple choice and true/false grading."""

import pytest

from bank.grading import Verdict, grade, parse_choice, parse_truefalse
from bank.kinds import Kind, MultiPolicy
from bank.models import Question

OPTIONS = ["提高模型精度", "减少训练时间", "模拟大批次训练", "降低学习率"]


def question(kind: Kind, answer, points: float = 2.0, options=OPTIONS) -> Question:
    return Question(number=1, kind=kind, stem="梯度累积的主要作用是（）", options=list(options),
                    answer=answer, points=points)


@pytest.mark.parametrize(
    "typed, letter",
    [
        ("C", "C"), ("c", "C"), ("Ｃ", "C"), ("ｃ", "C"), ("C.", "C"), ("C．", "C"), ("(C)", "C"),
        ("（C）", "C"), ("【C】", "C"), ("选C", "C"), ("選 C", "C"), ("选择C", "C"), ("答案：C", "C"),
        ("C选项", "C"), (" c ", "C"), ("C、", "C"), ("C. 模拟大批次训练", "C"), ("option c", "C"),
        (["C"], "C"),
        ("", None), ("   ", None), ("AB", None), ("cat", None), ("E", None), ("选", None),
        ("3", None), (None, None), (3, None), (["A", "B"], None), (b"C", None),
    ],
)
def test_parse_choice_single(typed, letter):
    assert parse_choice(typed, n_options=4) == letter


@pytest.mark.parametrize(
    "typed, letters",
    [
        ("ABD", "ABD"), ("abd", "ABD"), ("a, b d", "ABD"), ("ＡＢ", "AB"), ("A、B、D", "ABD"),
        ("D B A", "ABD"), ("dba", "ABD"), ("AAB", "AB"), ("选ABD", "ABD"), ("答案：A，C", "AC"),
        ("A and C", "AC"), ("A和C", "AC"), (["a", "Ｂ", "D"], "ABD"), ({"C", "A"}, "AC"),
        (("B",), "B"),
        ("", None), ("xyz", None), ("ABE", None), ("A1", None), ([], None), (["AB"], None),
        ([1, 2], None), (None, None), ("梯度", None),
    ],
)
def test_parse_choice_multiple(typed, letters):
    assert parse_choice(typed, multiple=True, n_options=4) == letters


@pytest.mark.parametrize(
    "typed, value",
    [
        ("对", True), ("對", True), ("正确", True), ("正確", True), ("√", True), ("✓", True), ("T", True),
        ("t", True), ("true", True), ("True", True), ("yes", True), ("Y", True), ("是", True),
        ("对。", True), ("（对）", True), ("答案：正确", True), (True, True),
        ("错", False), ("錯", False), ("错误", False), ("錯誤", False), ("不正确", False), ("不正確", False),
        ("×", False), ("✗", False), ("x", False), ("X", False), ("F", False), ("false", False),
        ("no", False), ("N", False), ("否", False), (False, False),
        ("", None), ("maybe", None), ("对错", None), ("1", None), (1, None), (None, None), (["对"], None),
    ],
)
def test_parse_truefalse(typed, value):
    assert parse_truefalse(typed) is value


@pytest.mark.parametrize(
    "typed, score, verdict",
    [
        ("C", 2.0, Verdict.correct),
        ("选c", 2.0, Verdict.correct),
        ("模拟大批次训练", 2.0, Verdict.correct),  # the option's text typed in full
        ("模擬大批次訓練", 2.0, Verdict.correct),
        ("A", 0.0, Verdict.wrong),
        ("你好", 0.0, Verdict.wrong),
        ("", 0.0, Verdict.wrong),
        (None, 0.0, Verdict.wrong),
    ],
)
def test_grade_single(typed, score, verdict):
    g = grade(question(Kind.single, "C"), typed)
    assert (g.score, g.max_score, g.verdict, g.expected) == (score, 2.0, verdict, "C")


def test_unrecognised_single_says_so():
    assert grade(question(Kind.single, "C"), "不知道").detail == "answer not recognised"


def test_unreadable_key_needs_review():
    g = grade(question(Kind.single, ""), "C")
    assert (g.score, g.verdict) == (0.0, Verdict.needs_review)


@pytest.mark.parametrize(
    "policy, typed, score, verdict",
    [
        (MultiPolicy.partial, "ABD", 2.0, Verdict.correct),
        (MultiPolicy.partial, "d, b, a", 2.0, Verdict.correct),
        (MultiPolicy.partial, "AB", 1.0, Verdict.partial),
        (MultiPolicy.partial, "A", 1.0, Verdict.partial),
        (MultiPolicy.partial, "ABC", 0.0, Verdict.wrong),
        (MultiPolicy.partial, "ABCD", 0.0, Verdict.wrong),
        (MultiPolicy.partial, "C", 0.0, Verdict.wrong),
        (MultiPolicy.all_or_nothing, "ABD", 2.0, Verdict.correct),
        (MultiPolicy.all_or_nothing, "AB", 0.0, Verdict.wrong),
        (MultiPolicy.all_or_nothing, "ABCD", 0.0, Verdict.wrong),
        # weighted: +1/3 per right choice, -1/1 for choosing C (the only wrong option)
        (MultiPolicy.weighted, "ABD", 2.0, Verdict.correct),
        (MultiPolicy.weighted, "AB", 1.3333, Verdict.partial),
        (MultiPolicy.weighted, "A", 0.6667, Verdict.partial),
        (MultiPolicy.weighted, "ABCD", 0.0, Verdict.wrong),
        (MultiPolicy.weighted, "C", 0.0, Verdict.wrong),
        (MultiPolicy.weighted, "", 0.0, Verdict.wrong),
    ],
)
def test_grade_multi(policy, typed, score, verdict):
    g = grade(question(Kind.multi, "ABD"), typed, multi_policy=policy)
    assert (g.score, g.max_score, g.verdict, g.expected) == (score, 2.0, verdict, "A, B, D")


def test_weighted_penalty_per_wrong_option():
    # key AB of 5 options: each of the 3 wrong options costs 1/3
    q = question(Kind.multi, "AB", points=3.0, options=["a", "b", "c", "d", "e"])
    assert grade(q, "ABC", multi_policy=MultiPolicy.weighted).score == 2.0
    assert grade(q, "ACD", multi_policy=MultiPolicy.weighted).score == 0.0


def test_multi_accepts_a_list_of_letters():
    g = grade(question(Kind.multi, "ABC"), ["C", "a", "B"])
    assert g.verdict == Verdict.correct


def test_multi_without_options_still_grades():
    g = grade(question(Kind.multi, "ABCD", options=[]), "ABCD")
    assert g.verdict == Verdict.correct


@pytest.mark.parametrize(
    "key, typed, score, verdict, expected",
    [
        (True, "对", 1.0, Verdict.correct, "对 / True"),
        (True, "√", 1.0, Verdict.correct, "对 / True"),
        (True, True, 1.0, Verdict.correct, "对 / True"),
        (True, "錯誤", 0.0, Verdict.wrong, "对 / True"),
        (False, "不正確", 1.0, Verdict.correct, "错 / False"),
        (False, "no", 1.0, Verdict.correct, "错 / False"),
        (False, "x", 1.0, Verdict.correct, "错 / False"),
        (False, "T", 0.0, Verdict.wrong, "错 / False"),
        (False, "嗯", 0.0, Verdict.wrong, "错 / False"),
        ("正確", "对", 1.0, Verdict.correct, "对 / True"),  # a key left as text still works
    ],
)
def test_grade_truefalse(key, typed, score, verdict, expected):
    g = grade(question(Kind.truefalse, key, points=1.0, options=[]), typed)
    assert (g.score, g.max_score, g.verdict, g.expected) == (score, 1.0, verdict, expected)
