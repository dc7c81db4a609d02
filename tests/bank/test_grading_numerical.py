"""Numerical and matching grading (pure), weights from the formats, and holding the new kinds out."""

from decimal import Decimal

import pytest

from bank.grading import grade, parse_number
from bank.grading.result import Verdict
from bank.kinds import Kind, MultiPolicy
from bank.models import Question


@pytest.mark.parametrize("typed, value", [
    ("3.14", "3.14"), ("3,14", "3.14"), ("３．１４", "3.14"), ("1e-3", "0.001"), ("1E3", "1000"),
    ("1.5×10^-3", "0.0015"), ("-2", "-2"), ("−2", "-2"), ("１２", "12"), (" 42 ", "42"),
    ("1,234.5", "1234.5"), ("+7", "7"),
])
def test_parse_number(typed, value):
    assert parse_number(typed) == Decimal(value)


@pytest.mark.parametrize("typed", ["abc", "", "3.1.4", "1e", "--1", "3,14,15"])
def test_parse_number_refuses(typed):
    assert parse_number(typed) is None


def numerical(**kw):
    return Question(number=1, kind=Kind.numerical, stem="Grant?", points=2.0, **kw)


def test_numerical_tolerance_and_partial_credit():
    q = numerical(answer=[["1822", "0"], ["1822", "2"]], weights=[1.0, 0.5])
    assert grade(q, "1822").verdict is Verdict.correct
    assert (grade(q, "1823").score, grade(q, "1823").verdict) == (1.0, Verdict.partial)
    assert grade(q, "1825").verdict is Verdict.wrong
    assert grade(q, "soon").detail == "not a number"
    rng = numerical(answer=[["3", "2"]])  # {#1..5}
    assert [grade(rng, x).verdict for x in ("1", "5", "5.01", "０")] == [
        Verdict.correct, Verdict.correct, Verdict.wrong, Verdict.wrong]
    assert grade(numerical(answer=[["3.14", "0.005"]]), "3,14").verdict is Verdict.correct


def test_matching_per_pair_by_policy():
    q = Question(number=1, kind=Kind.matching, stem="m", answer=[["cat", "cat food"], ["dog", "dog food"],
                                                                  ["", "bird seed"]])
    assert grade(q, ["cat food", "bird seed"]).score == 0.5
    assert grade(q, ["cat food", "bird seed"], multi_policy=MultiPolicy.all_or_nothing).score == 0.0
    assert grade(q, {"dog": "Dog Food", "cat": "cat food"}).verdict is Verdict.correct
    assert grade(q, "cat food").verdict is Verdict.wrong


def test_weights_from_the_formats():
    single = Question(number=1, kind=Kind.single, stem="2+2", options=["four", "4", "five"], answer="A",
                      weights=[1.0, 0.5, 0.0])
    assert grade(single, "B").score == 0.5 and grade(single, "C").score == 0.0
    multi = Question(number=1, kind=Kind.multi, stem="who", options=["x", "y", "z", "w"], answer="BC",
                     weights=[-1.0, 0.5, 0.5, -1.0])
    assert grade(multi, "B", multi_policy=MultiPolicy.weighted).score == 0.5
    assert grade(multi, "AB", multi_policy=MultiPolicy.weighted).score == 0.0
    assert grade(multi, "B", multi_policy=MultiPolicy.all_or_nothing).score == 0.0
    short = Question(number=1, kind=Kind.fill, stem="capital", answer=[["Paris", "paris city"]], weights=[1.0, 0.5])
    assert grade(short, "Paris").score == 1.0 and grade(short, "Paris City").score == 0.5
    assert grade(short, "Lyon").score == 0.0


def test_new_kinds_are_asked():
    for q in (numerical(answer=[["1", "0"]]),
              Question(number=1, kind=Kind.matching, stem="m", answer=[["a", "b"], ["c", "d"]])):
        assert q.askable
