"""One call answers a step, in exams and daily quizzes: each outcome, straight from the domain."""

from __future__ import annotations

from datetime import date

import pytest

from bank.grading.result import Verdict
from bank.kinds import Kind
from bank.paper_store import load_paper
from proctor.daily import delivery as dstore
from proctor.daily import steps as daily
from proctor.daily import subscriptions as subs
from proctor.daily.fsrs_cards import known_questions
from proctor.daily.plan import create_or_resume
from proctor.exams import service as attempts
from proctor.exams import steps as exam
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from tests.papers_fixture import save_paper, small_paper


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
ANN, BOB = 7, 8  # Ann takes the paper; Bob is somebody else
GROUP = -100  # the team group of the daily quiz
# small_paper's first questions, options in their order (the attempt is not shuffled)
SINGLE, SECOND_SINGLE, MULTI = 0, 1, 2  # positions
SHOWN_C = "2"  # the third shown option: C, the first question's key
NOT_SHOWN = "9"  # no option of a four-option question
NOT_ON_SCREEN = 3  # a position other than the current one: a button from an older screen
A, TRUE, FALSE = "0", "t", "f"  # a daily button's args: the first option; true; false


@pytest.fixture
async def running(db):
    pid = await save_paper(db, small_paper(), T0)
    await ensure_user(db, ANN, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=pid, mode=AttemptMode.exam, now=T0,
                                     shuffle=False)
    return db, a


async def test_an_exam_step_records_and_returns_the_sheet_after_it(running):
    db, a = running
    out = await exam.take_step(db, a.id, ANN, exam.Action.answer, pos=SINGLE, arg=SHOWN_C, now=T0 + 1)
    assert isinstance(out, exam.Recorded) and out.pos == SINGLE
    assert out.answer.verdict == Verdict.correct and out.sheet.attempt.current_pos == SECOND_SINGLE
    assert set(out.sheet.questions) == {out.sheet.items[SINGLE].question_id,
                                        out.sheet.items[SECOND_SINGLE].question_id}
    assert (await attempts.load_sheet(db, a.id)).answers[SINGLE].score == 2


@pytest.mark.parametrize(("user", "another_attempt", "outcome"), [
    pytest.param(BOB, False, exam.NotYours(), id="somebody else's attempt"),
    pytest.param(ANN, True, exam.Closed(), id="no such attempt"),
])
async def test_a_press_on_an_attempt_not_the_presser_s(running, user, another_attempt, outcome):
    db, a = running
    attempt_id = a.id + 99 if another_attempt else a.id
    assert await exam.take_step(db, attempt_id, user, exam.Action.answer, pos=SINGLE, arg=SHOWN_C, now=T0) == outcome
    assert (await attempts.load_sheet(db, a.id)).answers == {}


async def test_the_other_outcomes(running):
    db, a = running
    stale = await exam.take_step(db, a.id, ANN, exam.Action.answer, pos=NOT_ON_SCREEN, arg=SHOWN_C, now=T0)
    assert isinstance(stale, exam.Stale) and stale.sheet.attempt.current_pos == SINGLE
    sheet = await attempts.load_sheet(db, a.id)
    assert await exam.take_step(db, a.id, ANN, exam.Action.answer, pos=SINGLE, arg=NOT_SHOWN, now=T0) == exam.Refused(
        exam.Refusal.bad_button, sheet.question(sheet.current))
    await exam.take_step(db, a.id, ANN, exam.Action.next, pos=SINGLE, arg=None, now=T0)
    await exam.take_step(db, a.id, ANN, exam.Action.next, pos=SECOND_SINGLE, arg=None, now=T0)
    submitted = await exam.take_step(db, a.id, ANN, exam.Action.submit, pos=MULTI, arg=None, now=T0)
    assert submitted.reason == exam.Refusal.empty_draft
    blank = await exam.take_step(db, a.id, ANN, exam.Action.typed, pos=None, arg="  ", now=T0)
    assert isinstance(blank, exam.Refused)
    late = await exam.take_step(db, a.id, ANN, exam.Action.flag, pos=MULTI, arg=None, now=a.deadline)
    assert isinstance(late, exam.Expired)
    assert (await attempts.load_sheet(db, a.id)).answers == {}  # nothing of it was written
    await attempts.finish_attempt(db, a.id, T0 + 5, FinishReason.submitted)
    after = await exam.take_step(db, a.id, ANN, exam.Action.flag, pos=MULTI, arg=None, now=T0 + 6)
    assert isinstance(after, exam.Closed)


async def test_a_daily_step_in_each_state(db):
    await save_paper(db, small_paper(), T0)
    await subs.ensure_chat(db, GROUP, "supergroup", "Team", T0)
    await subs.ensure_chat(db, ANN, "private", "", T0)
    await ensure_user(db, ANN, "Ann", None, 0)
    d, _ = await create_or_resume(db, GROUP, False, date(2027, 1, 15), 5, T0 + 3600, T0)
    items = await dstore.items(db, d.id)
    kinds = {q.id: q.kind for q in (await load_paper(db, "demo")).questions()}
    tf = next(i for i in items if kinds[i.question_id] == Kind.truefalse)
    sent = None
    for i in items:  # the group's push: each question counted as sending, sent, its message id written
        await dstore.hand_over(db, d.id, sent, i.pos, T0)
        sent = (i.pos, 100 + i.pos)
    await dstore.hand_over(db, d.id, sent, None, T0)
    here = (GROUP, 100 + tf.pos)  # the true/false question's message
    another_message = (GROUP, 999)
    pick, typed, toggle = daily.Action.pick, daily.Action.typed, daily.Action.toggle
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, ANN, pick, TRUE, T0, message=another_message),
                      daily.Refused)
    assert await daily.answer_step(db, d.id, tf.pos, ANN, typed, "maybe", T0) == daily.Refused(
        daily.Refusal.unreadable, (await daily.answer_step(db, d.id, tf.pos, ANN, typed, "maybe", T0)).spot)
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, ANN, toggle, A, T0, message=here), daily.Refused)
    first = await daily.answer_step(db, d.id, tf.pos, ANN, pick, FALSE, T0, message=here)
    assert isinstance(first, daily.Recorded) and first.grade.verdict == Verdict.correct and not first.sealed
    again = await daily.answer_step(db, d.id, tf.pos, ANN, pick, TRUE, T0, message=here)
    assert isinstance(again, daily.Answered) and again.earlier.response is False  # the first one counts
    assert await known_questions(db, ANN) == {tf.question_id}
    assert await dstore.claim_close(db, d.id)
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, BOB, pick, TRUE, T0, message=here), daily.Closed)
    p, _ = await create_or_resume(db, ANN, True, date(2027, 1, 15), 2, T0 + 3600, T0)
    assert isinstance(await daily.answer_step(db, p.id, 0, BOB, typed, "x", T0), daily.NotYours)
