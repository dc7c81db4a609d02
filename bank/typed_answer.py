"""A typed answer as the grader wants it, one rule for exams, practice and daily quizzes.

Choice questions take the letters the candidate saw ("C", "选B", "a, d"), turned into stored
letters through the question's `OptionOrder`; true/false questions take 对/错, True/False, √/× and
the like; numerical questions a number ("3.14", "3,14", "３．１４", "1e-3", "1×10^-3"), kept as its
decimal text; matching questions are answered with buttons only; fill-in and written questions take
the text itself. None: not readable as an answer.
"""

from __future__ import annotations

from bank.grading import parse_choice, parse_number, parse_truefalse
from bank.kinds import CHOICE, Kind
from bank.models import Question
from bank.option_order import NotShown, OptionOrder

MAX_TYPED = 4000


def typed_response(question: Question, order: OptionOrder, text: str | None) -> object | None:
    text = (text or "").strip()
    if question.kind in CHOICE:
        shown = parse_choice(text, multiple=question.kind == Kind.multi, n_options=len(order))
        if shown is None:
            return None
        try:
            return order.to_stored(shown)
        except NotShown:
            return None
    if question.kind == Kind.truefalse:
        return parse_truefalse(text)
    if question.kind == Kind.numerical:
        number = parse_number(text[:100])
        return None if number is None else str(number)
    if question.kind == Kind.matching:
        return None
    return text[:MAX_TYPED] or None
