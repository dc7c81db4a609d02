"""Answers given as a candidate gives them: through the steps production takes for a press, ticks and
Submit, or typed text (an exam's proctor.exams.steps.take_step, after the navigator's jump,
service.move_to; a daily quiz's proctor.daily.steps.answer_step)."""

from __future__ import annotations

from bank.kinds import Kind
from bank.models import Question
from bank.paper_store import get_question
from proctor.daily import steps as daily
from proctor.daily.delivery import items
from proctor.exams import service as attempts
from proctor.exams.model import AnswerRec
from proctor.exams.steps import Action, Outcome, Recorded, take_step
from proctor.storage.db import Database


async def _step(db: Database, attempt_id: int, action: Action, pos: int, arg: str | None, now: float) -> Outcome:
    """One step as the attempt's owner, at `pos` (the navigator jumps there first when it is elsewhere)."""
    attempt = await attempts.get_attempt(db, attempt_id)
    if attempt.running and attempt.current_pos != pos:
        await attempts.move_to(db, attempt_id, pos, now)
    return await take_step(db, attempt_id, attempt.user_id, action, pos, arg, now)


async def tick(db: Database, attempt_id: int, pos: int, letters: str, now: float) -> str:
    """Press the options with these stored letters on the multiple-choice question at `pos` (ticking
    or unticking each), without Submit; the draft after them."""
    sheet = await attempts.load_sheet(db, attempt_id, positions=[pos])
    item = sheet.items[pos]
    for letter in letters:
        out = await _step(db, attempt_id, Action.toggle, pos, str(item.option_order.index(letter)), now)
        assert isinstance(out, Recorded), out
    return (await attempts.load_sheet(db, attempt_id, positions=[])).items[pos].draft


async def answer(db: Database, attempt_id: int, pos: int, response: object, now: float) -> AnswerRec:
    """Answer the question at `pos` with `response` as stored (stored letters, a bool, text): a press
    (single choice, true/false), ticks and Submit (multiple choice), typed text (any other kind).
    Fails the test unless the step stored it; returns the answer as stored."""
    sheet = await attempts.load_sheet(db, attempt_id, positions=[pos])
    item = sheet.items[pos]
    match sheet.question(item).kind:
        case Kind.single:
            out = await _step(db, attempt_id, Action.answer, pos, str(item.option_order.index(str(response))), now)
        case Kind.truefalse:
            out = await _step(db, attempt_id, Action.answer, pos, "t" if response else "f", now)
        case Kind.multi:
            ticked = set(item.draft) ^ set(str(response))  # from the draft on screen to the wanted one
            await tick(db, attempt_id, pos, "".join(sorted(ticked)), now)
            out = await _step(db, attempt_id, Action.submit, pos, None, now)
        case _:
            out = await _step(db, attempt_id, Action.typed, pos, str(response), now)
    assert isinstance(out, Recorded) and out.answer is not None, out
    return out.answer


def the_key(question: Question) -> object:
    """The question's key as a candidate gives it: the letters, the truth value, each blank's first
    accepted text joined by 、, the reference text."""
    if question.kind == Kind.fill and isinstance(question.answer, list):
        return "、".join(blank[0] for blank in question.answer)
    return question.answer


def a_wrong_answer(question: Question) -> object:
    """An answer that earns nothing: an option off the key, the other truth value, text not in the key."""
    if question.kind in (Kind.single, Kind.multi):
        return next(letter for letter in "ABCDEFGH"[:len(question.options)] if letter not in str(question.answer))
    if question.kind == Kind.truefalse:
        return not question.answer
    return "不知道"


async def answer_daily(db: Database, delivery_id: int, pos: int, user_id: int, response: object | None,
                       now: float, *, right: bool = True) -> daily.Outcome:
    """Answer a daily quiz's question with `response` as stored (None: its key, or with `right=False` a
    wrong answer): a press (single choice, true/false), ticks and Submit (multiple choice), typed text
    (any other kind). The step's outcome."""
    item = next(i for i in await items(db, delivery_id) if i.pos == pos)
    question = await get_question(db, item.question_id)
    if response is None:
        response = the_key(question) if right else a_wrong_answer(question)

    async def step(action: daily.Action, arg: str | None) -> daily.Outcome:
        return await daily.answer_step(db, delivery_id, pos, user_id, action, arg, now)

    match question.kind:
        case Kind.single:
            return await step(daily.Action.pick, str(item.option_order.index(str(response))))
        case Kind.truefalse:
            return await step(daily.Action.pick, "t" if response else "f")
        case Kind.multi:
            for letter in str(response):
                await step(daily.Action.toggle, str(item.option_order.index(letter)))
            return await step(daily.Action.submit, None)
        case _:
            return await step(daily.Action.typed, str(response))
