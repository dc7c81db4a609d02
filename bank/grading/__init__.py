"""Grading answers: pure functions over bank models, no I/O.

Importing this package is cheap; OpenCC's t2s loads on first use, or ahead of time through
warm_up(). jieba is loaded only where key terms are found (bank.grading.terms): at import time,
never while grading a question read from the bank.
"""

from bank.grading.choice import parse_choice, parse_truefalse
from bank.grading.core import grade
from bank.grading.fill import split_blanks
from bank.grading.normalize import normalize_for_match
from bank.grading.numerical import parse_number
from bank.grading.result import Grade, Verdict
from bank.grading.terms import key_terms, load_segmenter, terms_for
from bank.script import converter

__all__ = [
    "Grade",
    "Verdict",
    "grade",
    "key_terms",
    "load_segmenter",
    "normalize_for_match",
    "parse_choice",
    "parse_number",
    "parse_truefalse",
    "split_blanks",
    "terms_for",
    "warm_up",
]


def warm_up() -> None:
    """Load what every answer needs, OpenCC's t2s (call it from a background thread).

    Not s2tw (only a reader who asks for Traditional needs it: it loads on first use) and not
    jieba (grading reads stored key terms).
    """
    converter("t2s")
