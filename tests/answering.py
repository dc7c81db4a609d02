"""Answers given as a candidate gives them: through the steps production takes for a press, ticks and
Submit, or typed text (proctor.exams.steps.take_step; the navigator's jump, service.move_to)."""

from __future__ import annotations

from bank.kinds import Kind
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
