"""Numerical and matching answers in the domain: what a typed number becomes, the matching draft's
rules, scoring per pair by the paper's policy, and the mock paper and selection taking both kinds."""

from __future__ import annotations

import random

import pytest

from bank import matching_answer
from bank.grading import grade
from bank.grading.result import Verdict
from bank.kinds import Kind, MultiPolicy
from bank.models import Paper, Question, Section
from bank.option_order import OptionOrder
from bank.typed_answer import typed_response
from proctor.exams import service as attempts
from proctor.exams import steps
from proctor.exams.drafts import toggled
from proctor.people.users import ensure_user
from proctor.teams.curation import write_settings
from tests.papers_fixture import save_paper


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
PI = Question(number=1, kind=Kind.numerical, stem="pi?", answer=[["3.14", "0.005"], ["3.1", "0.05"], ["3", "0"]],
              weights=[1.0, 0.5, 0.25])
SOUNDS = Question(number=2, kind=Kind.matching, stem="sounds",
                  answer=[["cat", "meow"], ["dog", "woof"], ["cow", "moo"], ["", "quack"]])


@pytest.mark.parametrize("typed, verdict, score", [
    ("3.14", Verdict.correct, 1.0), ("3,14", Verdict.correct, 1.0), ("３．１４", Verdict.correct, 1.0),
    ("314e-2", Verdict.correct, 1.0), ("3.14×10^0", Verdict.correct, 1.0), ("3.1", Verdict.partial, 0.5),
    ("3,12", Verdict.partial, 0.5), ("3", Verdict.partial, 0.25), ("4", Verdict.wrong, 0.0),
    ("1×10^-3", Verdict.wrong, 0.0),
])
def test_a_typed_number_is_kept_as_its_decimal_and_graded(typed, verdict, score):
    response = typed_response(PI, OptionOrder(), typed)
    assert isinstance(response, str)  # JSON-safe, read back the same by the grader
    g = grade(PI, response)
    assert (g.verdict, g.score) == (verdict, score)


@pytest.mark.parametrize("typed", ["pi", "", "3.1.4", "about 3", "1,2,3"])
def test_text_that_is_no_number_is_refused(typed):
    assert typed_response(PI, OptionOrder(), typed) is None


def test_matching_takes_no_typed_text():
    assert typed_response(SOUNDS, OptionOrder("ABCD"), "A") is None


def test_the_matching_draft():
    assert matching_answer.left_items(SOUNDS) == ["cat", "dog", "cow"]
    assert matching_answer.choices(SOUNDS) == ["meow", "woof", "moo", "quack"]  # the distractor too
    order = OptionOrder("DCBA")  # shown A is quack, shown B moo, ...
    d = matching_answer.cycle(SOUNDS, order, "", 1)
    assert d == "-d-" and matching_answer.is_matching_draft(d)  # lower case: not a multi draft
    d = matching_answer.cycle(SOUNDS, order, d, 1)
    assert d == "-c-" and matching_answer.draft_pairs(d, order) == [(1, None), (2, "B"), (3, None)]
    for _ in range(4):  # once round the four choices, back where it was
        d = matching_answer.cycle(SOUNDS, order, d, 0)
    assert d == "ac-" and matching_answer.draft_response(SOUNDS, d) == ["meow", "moo", None]
    assert matching_answer.response_draft(SOUNDS, ["meow", "moo", None]) == d
    assert matching_answer.cycle(SOUNDS, order, d, 3) is None  # no fourth left item
    assert matching_answer.shown_key_pairs(SOUNDS, order) == [(1, "D"), (2, "C"), (3, "B")]
    assert not matching_answer.is_matching_draft("ABD")


def test_a_press_starts_from_the_stored_answer():
    assert toggled(SOUNDS, "ABCD", "", "2", ["meow", "woof", None]) == "aba"
    assert toggled(SOUNDS, "ABCD", "", "x") is None and toggled(SOUNDS, "ABCD", "", "9") is None
    multi = Question(number=1, kind=Kind.multi, stem="m", options=["a", "b", "c"], answer="AC")
    assert toggled(multi, "CAB", "A", "0") == "AC" and toggled(multi, "CAB", "AC", "1") == "C"


@pytest.mark.parametrize("policy, score, verdict", [
    (MultiPolicy.partial, 1.33, "partial"), (MultiPolicy.all_or_nothing, 0.0, "wrong"),
])
async def test_pairs_are_scored_by_the_papers_policy(db, policy, score, verdict):
    paper = Paper(slug="kinds", title="Kinds", sections=[Section(kind=Kind.matching, title="匹配题",
                                                                 questions=[SOUNDS.model_copy(update={"points": 2.0})])])
    pid = await save_paper(db, paper, T0)
    await write_settings(db, pid, actor=1, chat_id=None, now=T0, multi_policy=policy.value)
    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    for left, presses in ((0, 1), (1, 2), (2, 4)):  # meow, woof, quack: two pairs of three
        for _ in range(presses):
            assert isinstance(await steps.take_step(db, a.id, 7, "toggle", 0, str(left), T0), steps.Recorded)
    out = await steps.take_step(db, a.id, 7, "submit", 0, None, T0)
    assert (out.answer.score, out.answer.verdict) == (score, verdict)
    assert out.answer.response == ["meow", "woof", "quack"]


async def test_the_mock_paper_draws_both_kinds(db):
    paper = Paper(slug="kinds", title="Kinds", sections=[
        Section(kind=Kind.numerical, title="数值题", questions=[PI]),
        Section(kind=Kind.matching, title="匹配题", questions=[SOUNDS])])
    await save_paper(db, paper, T0)
    chosen = await attempts.mock_questions(db, attempts.MOCK_BLUEPRINT, random.Random(1))
    assert sorted(q.kind.value for _, q in chosen) == ["matching", "numerical"]
    planned = attempts.plan_items(chosen, shuffle=True, rng=random.Random(2))
    orders = {q.kind: p[3] for (_, q), p in zip(chosen, planned, strict=True)}
    assert orders[Kind.numerical] == "" and sorted(orders[Kind.matching]) == list("ABCD")
