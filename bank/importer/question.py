"""Reading one raw question into a Question: stem, options and key by kind, garble repair, flags."""

from __future__ import annotations

from bank.importer.answers import split_explanation
from bank.importer.fill import fill_key
from bank.importer.options import choice_key, inline_key, split_options
from bank.importer.raw import Ctx, Raw
from bank.importer.truefalse import strip_notation, tf_key
from bank.kinds import CHOICE, OBJECTIVE, Flag, Kind
from bank.models import Question
from bank.text.clean import Garble, repair_garble, tidy


def build(ctx: Ctx, where: str, kind: Kind, raw: Raw, points: float) -> Question:
    """The question's fields read and repaired, flagged where garbled or keyless. Raises ImportFailed."""
    answer_text, explanation = split_explanation(raw.answer, raw.explanation or "")
    stem = raw.stem
    options: list[str] = []
    answer: bool | str | list[list[str]] | None
    flags: list[str] = []

    if kind in CHOICE:
        stem, options = split_options(stem)
        if answer_text is None:
            stem, answer_text = inline_key(stem, len(options))
        answer = choice_key(answer_text)
    elif kind is Kind.truefalse:
        stem, mark = strip_notation(stem)
        if answer_text is None:
            answer_text = mark
        answer = tf_key(answer_text)
    elif kind is Kind.fill:
        answer = fill_key(ctx, where, stem, answer_text)
    else:
        answer = tidy(answer_text or "")

    states: list[Garble] = []
    stem = _repaired(tidy(stem), states)
    options = [_repaired(o, states) for o in options]
    explanation = _repaired(tidy(explanation), states)
    if isinstance(answer, str):
        answer = _repaired(answer, states)
    elif isinstance(answer, list):
        answer = [[_repaired(alt, states) for alt in blank] for blank in answer]
    if Garble.corrupted in states:
        flags.append(Flag.corrupted.value)
    elif Garble.repaired in states:
        flags.append(Flag.repaired.value)
    if answer in ("", [], None) or (answer_text is None and kind in OBJECTIVE):
        flags.append(Flag.no_answer.value)
        if answer is None:
            answer = False
    if not stem:
        raise ctx.fail(where, "the question has no text")
    return Question(number=raw.number, kind=kind, stem=stem, options=options, answer=answer,
                    explanation=explanation, points=points, flags=flags)


def _repaired(text: str, states: list[Garble]) -> str:
    """The text with garbled characters repaired; how it went is added to states."""
    text, state = repair_garble(text)
    states.append(state)
    return text
