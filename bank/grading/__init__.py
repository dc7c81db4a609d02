"""Grading answers: pure functions over bank models, no I/O.

Importing this package is cheap; the OpenCC and jieba dictionaries load on first use,
or ahead of time through warm_up().
"""

from bank.grading.choice import parse_choice, parse_truefalse
from bank.grading.core import grade
from bank.grading.fill import split_blanks
from bank.grading.normalize import normalize_for_match
from bank.grading.numerical import parse_number
from bank.grading.result import Grade, Verdict
from bank.grading.subjective import key_terms, load_segmenter
from bank.script import converter

__all__ = [
    "Grade",
    "Verdict",
    "grade",
    "key_terms",
    "normalize_for_match",
    "parse_choice",
    "parse_number",
    "parse_truefalse",
    "split_blanks",
    "warm_up",
]


def warm_up() -> None:
    """Load the OpenCC converters and the jieba dictionary now (call it from a background thread)."""
    converter("t2s")
    converter("s2t")
    load_segmenter()
    key_terms("梯度累积通过多次反向传播累加梯度后再更新参数")
