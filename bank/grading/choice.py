"""Single choice, multiple choice and true/false: parsing typed replies and scoring them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from bank.grading.normalize import fold, normalize_for_match
from bank.grading.result import Grade, Verdict, scaled
from bank.kinds import MultiPolicy
from bank.models import Question
from bank.option_order import LETTERS

DEFAULT_OPTIONS = 8  # letters accepted when the question does not say how many options it has

# Replies arrive folded (NFKC, casefold, Simplified), so these are lower case and Simplified.
_PREFIX = re.compile(r"^(?:我选择|我选|答案|答|选择|选项|选|options?|answers?|choice)\s*[:：]?\s*")
_SUFFIX = re.compile(r"\s*(?:选项|项)$")
_ONE_LETTER = re.compile(r"^[(\[【「]?\s*([a-z])\s*[)\]】」]?\s*[.。、:：]?$")
_LETTER_THEN_TEXT = re.compile(r"^[(\[【]?([a-z])\s*[)\]】.。、:：]\s*\S")
_AND = re.compile(r"\band\b|和|与|及")
_LIST_SEPARATORS = re.compile(r"[\s,;、.。/&+()\[\]【】「」]+")
_OPTION_LABEL = re.compile(r"^\s*[(（]?[A-Za-zＡ-Ｚａ-ｚ]\s*[)）.．、:：]\s*")

_TRUE = frozenset({"对", "对的", "正确", "是", "是的", "真", "√", "✓", "✔", "☑", "t", "true", "yes", "y",
                   "right", "correct"})
_FALSE = frozenset({"错", "错的", "错误", "不对", "不正确", "否", "不是", "假", "×", "✗", "✘", "x", "f",
                    "false", "no", "n", "wrong", "incorrect"})


def _strip_words(text: str) -> str:
    return _SUFFIX.sub("", _PREFIX.sub("", text)).strip()


def _letters_allowed(n_options: int | None) -> str:
    return LETTERS[: n_options or DEFAULT_OPTIONS]


def _one_letter(text: str) -> str | None:
    text = _strip_words(fold(text))
    m = _ONE_LETTER.match(text) or _LETTER_THEN_TEXT.match(text)
    return m.group(1).upper() if m else None


def _many_letters(text: str) -> str | None:
    text = _LIST_SEPARATORS.sub("", _AND.sub(" ", _strip_words(fold(text))))
    if not text or not text.isascii() or not text.isalpha():
        return None
    return "".join(sorted(set(text.upper())))


def parse_choice(response: object, *, multiple: bool = False, n_options: int | None = None) -> str | None:
    """The letter chosen ("C"), or for `multiple` the sorted letters ("ABD"); None if unrecognised.

    Accepts button values, typed forms ("a", "Ａ", "(A)", "选A", "A. text", "a, b d", "ＡＢ")
    and, for `multiple`, an iterable of letters. Letters past `n_options` are unrecognised.
    """
    if isinstance(response, str):
        letters = _many_letters(response) if multiple else _one_letter(response)
    elif isinstance(response, Iterable) and not isinstance(response, bytes | bytearray | dict):
        items = list(response)
        if not items or not all(isinstance(i, str) for i in items) or (not multiple and len(items) != 1):
            return None
        found = {_one_letter(i) for i in items}
        if None in found:
            return None
        letters = "".join(sorted(letter for letter in found if letter))
    else:
        return None
    if not letters or any(ch not in _letters_allowed(n_options) for ch in letters):
        return None
    return letters


def parse_truefalse(response: object) -> bool | None:
    """True or False from a button value or typed text (对, 錯誤, √, ×, T, no, 是...); None if unrecognised."""
    if isinstance(response, bool):
        return response
    if not isinstance(response, str):
        return None
    text = _strip_words(fold(response))
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in "PZC")
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def truefalse_label(value: bool) -> str:
    return "对 / True" if value else "错 / False"


def _option_by_text(question: Question, response: object) -> str | None:
    """The letter of the option whose text was typed in full, if any."""
    if not isinstance(response, str) or not question.options:
        return None
    typed = normalize_for_match(response)
    if not typed:
        return None
    for i, option in enumerate(question.options[: len(LETTERS)]):
        if normalize_for_match(_OPTION_LABEL.sub("", option)) == typed:
            return LETTERS[i]
    return None


def _key_letters(question: Question) -> str | None:
    key = question.answer
    return parse_choice(key, multiple=True, n_options=len(LETTERS)) if isinstance(key, str) else None


def _no_key(question: Question) -> Grade:
    return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                 expected=str(question.answer), detail="answer key unreadable")


def grade_single(question: Question, response: object) -> Grade:
    key = _key_letters(question)
    if key is None:
        return _no_key(question)
    n = len(question.options) or None
    chosen = parse_choice(response, n_options=n) or _option_by_text(question, response)
    if chosen is None:
        return scaled(0.0, question.points, key, "answer not recognised")
    if question.weights:  # Moodle partial credit per option (GIFT %50%, XML fraction)
        i = LETTERS.index(chosen)
        return scaled(question.weights[i] if i < len(question.weights) else 0.0, question.points, key)
    return scaled(1.0 if chosen == key else 0.0, question.points, key)


def multi_fraction(key: str, chosen: str, policy: MultiPolicy, n_options: int) -> float:
    """The share of the points earned by choosing `chosen` when `key` is right (both sorted letters).

    partial: all right earns 1, a right subset with no wrong choice earns 0.5, any wrong choice 0.
    weighted (Moodle): +1/len(key) per right choice, -1/len(wrong options) per wrong one, within 0..1.
    """
    right, picked = set(key), set(chosen)
    if policy == MultiPolicy.all_or_nothing:
        return 1.0 if picked == right else 0.0
    wrong = picked - right
    if policy == MultiPolicy.partial:
        if wrong or not picked:
            return 0.0
        return 1.0 if picked == right else 0.5
    n_wrong_options = max(n_options - len(right), len(wrong), 1)
    fraction = len(picked & right) / len(right) - len(wrong) / n_wrong_options
    return min(1.0, max(0.0, fraction))


def grade_multi(question: Question, response: object, policy: MultiPolicy) -> Grade:
    key = _key_letters(question)
    if key is None:
        return _no_key(question)
    expected = ", ".join(key)
    n = len(question.options) or None
    chosen = parse_choice(response, multiple=True, n_options=n)
    if chosen is None:
        return scaled(0.0, question.points, expected, "answer not recognised")
    n_options = n or max(4, LETTERS.index(max(key + chosen)) + 1)
    if question.weights and policy == MultiPolicy.weighted:
        # the weights the paper's author gave each option, as Moodle scores them
        w = question.weights
        fraction = sum(w[LETTERS.index(c)] for c in chosen if LETTERS.index(c) < len(w))
    else:
        fraction = multi_fraction(key, chosen, policy, n_options)
    right = len(set(key) & set(chosen))
    detail = f"{right}/{len(key)} right, {len(set(chosen) - set(key))} wrong"
    return scaled(fraction, question.points, expected, detail)


def grade_truefalse(question: Question, response: object) -> Grade:
    key = parse_truefalse(question.answer)
    if key is None:
        return _no_key(question)
    chosen = parse_truefalse(response)
    if chosen is None:
        return scaled(0.0, question.points, truefalse_label(key), "answer not recognised")
    return scaled(1.0 if chosen == key else 0.0, question.points, truefalse_label(key))
