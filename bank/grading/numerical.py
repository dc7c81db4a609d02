"""Numerical questions: reading a typed number and scoring it against values with tolerances."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from bank.grading.result import Grade, Verdict, scaled
from bank.models import Question

_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-", "﹣": "-", "＋": "+"})
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$")
_GROUPED = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:e[+-]?\d+)?$")
_TIMES_TEN = re.compile(r"(?:[x×*]|\\times)\s*10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?$")


def parse_number(text: object) -> Decimal | None:
    """The number typed, or None: "3.14", "3,14", "３．１４", "1e-3", "1.5×10^-3", "1,234.5", "-2".

    A lone comma with no point is a decimal comma ("3,14" is 3.14); with a point, commas group
    thousands ("1,234.5"). Spaces inside are ignored.
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float | Decimal):
        return Decimal(str(text))
    if not isinstance(text, str):
        return None
    t = unicodedata.normalize("NFKC", text).translate(_MINUS).strip().lower()
    t = "".join(t.split()).replace("。", ".")
    m = _TIMES_TEN.search(t)
    if m:
        t = t[: m.start()] + "e" + m.group(1)
    if _GROUPED.match(t):
        t = t.replace(",", "")
    elif t.count(",") == 1 and "." not in t:
        t = t.replace(",", ".")
    if not _NUMBER.match(t):
        return None
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


def accepted_values(question: Question) -> list[tuple[Decimal | None, Decimal, float]]:
    """(value, tolerance, fraction) per accepted answer; value None is Moodle's "*" (anything)."""
    out = []
    weights = question.weights
    answer = question.answer if isinstance(question.answer, list) else []
    for i, pair in enumerate(answer):
        if not isinstance(pair, list) or len(pair) != 2:
            continue
        value = None if pair[0] == "*" else parse_number(pair[0])
        tolerance = parse_number(pair[1] or "0")
        if (value is None and pair[0] != "*") or tolerance is None:
            continue
        fraction = weights[i] if i < len(weights) else 1.0
        out.append((value, abs(tolerance), fraction))
    return out


def numerical_expected(question: Question) -> str:
    best = [(v, t) for v, t, f in accepted_values(question) if f >= 1.0 and v is not None]
    return " / ".join(f"{v}" + (f" ± {t}" if t else "") for v, t in best)


def grade_numerical(question: Question, response: object) -> Grade:
    """The best fraction among the accepted values the typed number falls within."""
    accepted = accepted_values(question)
    if not any(v is not None and f > 0 for v, _, f in accepted):
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                     expected=str(question.answer), detail="answer key unreadable")
    expected = numerical_expected(question)
    typed = parse_number(response)
    if typed is None:
        return scaled(0.0, question.points, expected, "not a number")
    fractions = [f for v, t, f in accepted if v is None or abs(typed - v) <= t]
    return scaled(max(fractions, default=0.0), question.points, expected)
