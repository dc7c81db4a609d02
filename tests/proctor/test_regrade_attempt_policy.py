"""A regrade grades an exam answer with the multiple-answer policy of the paper it was answered on
(found after stop 26: it used the question's home paper's). A mock paper (or a composed one) can
score a multiple-answer question by another policy than the paper the question comes from; a key
edited to itself must then change no score, and a real change must keep the sheet's policy."""

from __future__ import annotations

import pytest

from bank.kinds import Kind, MultiPolicy
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import load_paper
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from proctor.teams import question_edit as qe
from tests.answering import answer
from tests.papers_fixture import save_paper
from tests.reads import graded_answers


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
ANN, LEAD = 7, 10


def _strict() -> Paper:
    """Its own policy is all-or-nothing: one right tick of three earns nothing on it."""
    return Paper(slug="strict", title="Strict", settings=PaperSettings(multi_policy=MultiPolicy.all_or_nothing),
                 sections=[Section(kind=Kind.multi, title="多项选择题", questions=[
                     Question(number=1, kind=Kind.multi, stem="Which are even?", options=["2", "4", "6", "7"],
                              answer="ABC", points=1)])])


async def _mock_answer(db, response: str) -> float:
    """Ann sits the mock paper (no paper of its own: partial credit) and ticks `response`."""
    await ensure_user(db, ANN, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=None, mode=AttemptMode.exam, now=T0,
                                     shuffle=False, blueprint={Kind.multi: 1})
    rec = await answer(db, a.id, 0, response, T0 + 30)
    assert await attempts.finish_attempt(db, a.id, T0 + 60, FinishReason.submitted) is not None
    return rec.score


async def test_a_key_edited_to_itself_changes_no_score_answered_on_another_papers_policy(db):
    await save_paper(db, _strict(), T0)
    [q] = (await load_paper(db, "strict")).questions()
    answered = await _mock_answer(db, "A")
    assert 0 < answered < 1  # partial credit on the mock paper; all-or-nothing on its own would give 0
    done = await qe.edit_question(db, q.id or 0, qe.Edit(qe.EditField.key, "ABC"), actor=LEAD, now=T0 + 100,
                                  chat_id=None, regrade=True)
    assert (done.answers, done.changes) == (1, [])
    [after] = await graded_answers(db, q.id or 0)
    assert after.score == answered


async def test_a_changed_key_rescores_by_the_policy_the_answer_was_given_under(db):
    await save_paper(db, _strict(), T0)
    [q] = (await load_paper(db, "strict")).questions()
    answered = await _mock_answer(db, "AB")  # 2 of 3 right: partial credit
    done = await qe.edit_question(db, q.id or 0, qe.Edit(qe.EditField.key, "AB"), actor=LEAD, now=T0 + 100,
                                  chat_id=None, regrade=True)
    [change] = done.changes
    assert (change.old, change.new) == (answered, 1.0)  # now fully right, by either policy
    done = await qe.edit_question(db, q.id or 0, qe.Edit(qe.EditField.key, "ABD"), actor=LEAD, now=T0 + 200,
                                  chat_id=None, regrade=True)
    [change] = done.changes
    assert 0 < change.new < 1  # partial again (all-or-nothing would say 0)
