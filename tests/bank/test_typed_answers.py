"""Typed answers are graded as the screen promises: letters and true/false words count in every mode."""

from __future__ import annotations

import pytest

from bank.kinds import Kind
from bank.models import Question
from bank.option_order import OptionOrder
from bank.typed_answer import typed_response
from proctor.exams import service as attempts
from tests.harness import BotEnv, at_place, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=True)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def _current(env, user_id):
    running = await attempts.running_attempt(env.db, user_id)
    sheet = await attempts.load_sheet(env.db, running.id)
    return sheet, sheet.current, sheet.question(sheet.current)


async def _type(env, user, text: str, expect: str):
    await user.send(text)
    reply = await user.wait_message(lambda m: expect in (m.text or ""))
    await env.idle()
    return reply


async def test_exam_takes_typed_letters_and_true_false_words_and_confirms_them(env):
    ann = env.api.user(5001, "Ann", language_code="en")
    await start_exam(env, ann)
    sheet, item, q = await _current(env, ann.id)
    assert q.kind == Kind.single and "type its letter" in next(m for m in ann.chat() if "Rules" in (m.text or "")).text
    await _type(env, ann, "xyz", "I couldn't read that as an answer")
    assert await answers_of(env.db) == {}
    shown = item.shown_letter(q.answer)
    sent = len(env.api.stats.per_chat[ann.id])
    reply = await _type(env, ann, shown.lower(), "Recorded for P1 · Q1")
    assert reply.text.endswith(f"\n\nRecorded for P1 · Q1: {shown}")  # under the next question
    assert len(env.api.stats.per_chat[ann.id]) == sent + 1  # one message for a typed answer (it was two)
    first = (await answers_of(env.db))[0]
    assert (first.response, first.verdict) == (q.answer, "correct")

    sheet, item, q = await _current(env, ann.id)  # Q2, single: "选X" with a wrong letter
    wrong = next(c for c in "ABCD" if c != q.answer)
    await _type(env, ann, f"选{item.shown_letter(wrong)}", "Recorded for P1 · Q2")
    assert (await answers_of(env.db))[1].verdict == "wrong"

    sheet, item, q = await _current(env, ann.id)  # Q3, multi: several shown letters
    assert q.kind == Kind.multi
    typed = ", ".join(item.shown_letter(c) for c in q.answer)
    await _type(env, ann, typed, "Recorded for P1 · Q3")
    assert (await answers_of(env.db))[2].response == q.answer

    sheet, item, q = await _current(env, ann.id)  # Q4, true/false: a word
    assert q.kind == Kind.truefalse
    reply = await _type(env, ann, "错", "Recorded for P1 · Q4")
    assert reply.text.endswith("\n\nRecorded for P1 · Q4: ✘ False")
    assert (await answers_of(env.db))[3].verdict == "correct"  # the key is False
    msg = attempt_message(ann.chat())
    assert at_place(msg.text, 5)


def test_one_rule_for_every_mode():
    single = Question(number=1, kind=Kind.single, stem="?", options=["a", "b", "c", "d"], answer="B")
    multi = single.model_copy(update={"kind": Kind.multi, "answer": "AB"})
    tf = Question(number=2, kind=Kind.truefalse, stem="?", answer=True)
    order = OptionOrder("CDAB")  # shown A is stored C ...
    assert typed_response(single, order, "D") == "B"
    assert typed_response(single, order, "E") is None  # not on the screen
    assert typed_response(multi, order, "a和c") == "AC"
    assert typed_response(tf, OptionOrder(), "对") is True and typed_response(tf, OptionOrder(), "No") is False
    assert typed_response(tf, OptionOrder(), "maybe") is None
