"""One call answers a step, in exams and daily quizzes: each outcome, straight from the domain."""

from __future__ import annotations

from datetime import date

import pytest

from bank.paper_store import load_paper, save_paper
from proctor.daily import delivery as dstore
from proctor.daily import steps as daily
from proctor.daily import subscriptions as subs
from proctor.daily.fsrs_cards import known_questions
from proctor.daily.plan import create_or_resume
from proctor.exams import service as attempts
from proctor.exams import steps as exam
from proctor.people.users import ensure_user
from tests.papers_fixture import small_paper

T0 = 1_800_000_000.0


@pytest.fixture
async def running(db):
    pid = await save_paper(db, small_paper(), T0)
    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    return db, a


async def test_an_exam_step_records_and_returns_the_sheet_after_it(running):
    db, a = running
    out = await exam.take_step(db, a.id, 7, "answer", 0, "2", T0 + 1)  # shown C: the key
    assert isinstance(out, exam.Recorded) and out.pos == 0
    assert out.answer.verdict == "correct" and out.sheet.attempt.current_pos == 1
    assert set(out.sheet.questions) == {out.sheet.items[0].question_id, out.sheet.items[1].question_id}
    assert (await attempts.load_sheet(db, a.id)).answers[0].score == 2


async def test_the_other_outcomes(running):
    db, a = running
    assert isinstance(await exam.take_step(db, a.id, 8, "answer", 0, "2", T0), exam.NotYours)
    assert isinstance(await exam.take_step(db, a.id + 99, 7, "answer", 0, "2", T0), exam.Closed)
    stale = await exam.take_step(db, a.id, 7, "answer", 3, "2", T0)  # a button from another screen
    assert isinstance(stale, exam.Stale) and stale.sheet.attempt.current_pos == 0
    assert await exam.take_step(db, a.id, 7, "answer", 0, "9", T0) == exam.Refused(
        "bad_button", (await attempts.load_sheet(db, a.id)).question((await attempts.load_sheet(db, a.id)).current))
    await exam.take_step(db, a.id, 7, "next", 0, None, T0)
    await exam.take_step(db, a.id, 7, "next", 1, None, T0)  # the multiple choice
    assert (await exam.take_step(db, a.id, 7, "submit", 2, None, T0)).reason == "empty_draft"
    assert isinstance(await exam.take_step(db, a.id, 7, "typed", None, "  ", T0), exam.Refused)
    assert isinstance(await exam.take_step(db, a.id, 7, "flag", 2, None, a.deadline), exam.Expired)
    assert (await attempts.load_sheet(db, a.id)).answers == {}  # nothing of it was written
    await attempts.finish_attempt(db, a.id, T0 + 5, "submitted")
    assert isinstance(await exam.take_step(db, a.id, 7, "flag", 2, None, T0 + 6), exam.Closed)


async def test_a_daily_step_in_each_state(db):
    await save_paper(db, small_paper(), T0)
    await subs.ensure_chat(db, -100, "supergroup", "Team", T0)
    await subs.ensure_chat(db, 7, "private", "", T0)
    await ensure_user(db, 7, "Ann", None, 0)
    d, _ = await create_or_resume(db, -100, False, date(2027, 1, 15), 5, T0 + 3600, T0)
    items = await dstore.items(db, d.id)
    kinds = {q.id: q.kind for q in (await load_paper(db, "demo")).questions()}
    tf = next(i for i in items if kinds[i.question_id] == "truefalse")
    for i in items:
        await dstore.mark_sending(db, d.id, i.pos)
        await dstore.mark_sent(db, d.id, i.pos, 100 + i.pos, T0)
    here = (-100, 100 + tf.pos)
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, 7, "pick", "t", T0, message=(-100, 999)),
                      daily.Refused)  # another message's button
    assert await daily.answer_step(db, d.id, tf.pos, 7, "typed", "maybe", T0) == daily.Refused(
        "unreadable", (await daily.answer_step(db, d.id, tf.pos, 7, "typed", "maybe", T0)).spot)
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, 7, "toggle", "0", T0, message=here), daily.Refused)
    first = await daily.answer_step(db, d.id, tf.pos, 7, "pick", "f", T0, message=here)
    assert isinstance(first, daily.Recorded) and first.grade.verdict.value == "correct" and not first.sealed
    again = await daily.answer_step(db, d.id, tf.pos, 7, "pick", "t", T0, message=here)
    assert isinstance(again, daily.Answered) and again.earlier.response is False  # the first one counts
    assert await known_questions(db, 7) == {tf.question_id}
    assert await dstore.claim_close(db, d.id)
    assert isinstance(await daily.answer_step(db, d.id, tf.pos, 8, "pick", "t", T0, message=here), daily.Closed)
    p, _ = await create_or_resume(db, 7, True, date(2027, 1, 15), 2, T0 + 3600, T0)
    assert isinstance(await daily.answer_step(db, p.id, 0, 8, "typed", "x", T0), daily.NotYours)
