"""Fill-in-the-blank: splitting a reply into blanks and matching each against its alternatives."""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.fuzz import ratio

from bank.grading.math_form import looks_like_math, plain, same_math
from bank.grading.normalize import normalize_for_match
from bank.grading.result import Grade, Verdict, scaled
from bank.models import Question

FUZZY_MIN_LEN = 6  # normalised answers shorter than this must match exactly
FUZZY_MIN_RATIO = 90.0  # rapidfuzz ratio a longer answer needs to pass despite a typo
# Typos are tolerated in words only: in "1+e^{-x}" or "INT8" one character changes the meaning.

_SEPARATORS = re.compile(r"[、,，;；\n\r]+")
# "MPI（消息傳遞接口）", "Strassen算法（或普通矩陣乘法算法）", "每秒浮点运算次数（FLOPS）"
_PAREN = re.compile(
    r"^(?P<head>.+?)\s*(?P<open>[（(])\s*(?:或者|或是|或|即|也称为|也称|又称|简称|or\b|i\.e\.|aka\b)?\s*"
    r"(?P<inner>[^()（）]+?)\s*[）)]\s*$"
)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

Blanks = tuple[tuple[str, ...], ...]


def split_blanks(text: str, n_blanks: int | None = None) -> list[str]:
    """The non-empty parts of `text` between separators (、 , ， ; ； newline).

    When `n_blanks` > 1 and there is no separator, spaces split the text if that yields
    exactly `n_blanks` parts ("FP32 INT8").
    """
    parts = [p.strip() for p in _SEPARATORS.split(text)]
    parts = [p for p in parts if p]
    if n_blanks and n_blanks > 1 and len(parts) == 1:
        words = parts[0].split()
        if len(words) == n_blanks:
            return words
    return parts


def variants(alternative: str) -> list[str]:
    """`alternative` plus, for "X（Y）" with Chinese in it, X alone and Y alone."""
    found = [alternative]
    m = _PAREN.match(alternative)
    if m and (m["open"] == "（" or _CJK.search(alternative)):
        found += [m["head"], m["inner"]]
    return found


@lru_cache(maxsize=4096)
def _prepared(key: Blanks) -> tuple[frozenset[str], ...]:
    """Each blank's accepted answers, normalised once per key."""
    prepared = []
    for blank in key:
        accepted = {normalize_for_match(v) for alt in blank for v in variants(alt)}
        accepted.discard("")
        prepared.append(frozenset(accepted))
    return tuple(prepared)


def _matches(typed: str, accepted: frozenset[str]) -> bool:
    norm = normalize_for_match(typed)
    if not norm:
        return False
    if norm in accepted:
        return True
    if len(norm) < FUZZY_MIN_LEN or not norm.isalpha():
        return False

    return any(
        len(a) >= FUZZY_MIN_LEN and a.isalpha() and ratio(norm, a, score_cutoff=FUZZY_MIN_RATIO)
        for a in accepted
    )


def _key_blanks(answer: object) -> Blanks | None:
    """The key as blanks of alternatives, or None if it has no usable shape."""
    if isinstance(answer, str):
        return ((answer,),) if answer.strip() else None
    if not isinstance(answer, list) or not answer:
        return None
    blanks = []
    for blank in answer:
        alts = [blank] if isinstance(blank, str) else blank
        if not isinstance(alts, list) or not alts or not all(isinstance(a, str) for a in alts):
            return None
        blanks.append(tuple(alts))
    return tuple(blanks)


def fill_expected(key: Blanks) -> str:
    """The key as shown: maths keys in plain text ("f(x)=1/(1+e^(-x))"), not LaTeX."""
    return "；".join(" / ".join(plain(a) if looks_like_math(a) else a for a in blank) for blank in key)


def fill_key_text(answer: object) -> str:
    """A fill-in key as people read it (`fill_expected`), or as stored when it has no usable shape."""
    key = _key_blanks(answer)
    return fill_expected(key) if key is not None else str(answer)


def _matches_blank(typed: str, accepted: frozenset[str], blank: tuple[str, ...]) -> bool:
    """Text match first; a maths key also takes the same function typed another way."""
    return _matches(typed, accepted) or any(same_math(typed, alt) for alt in blank)


def _typed_parts(response: object, n_blanks: int) -> tuple[str, list[str]]:
    """The reply as one text and as blanks; lists and tuples are taken as blanks already split."""
    if isinstance(response, str):
        return response, split_blanks(response, n_blanks)
    if isinstance(response, list | tuple) and all(isinstance(p, str) for p in response):
        parts = [p for p in response if p.strip()]
        return "、".join(parts), parts
    return "", []


def grade_fill(question: Question, response: object) -> Grade:
    key = _key_blanks(question.answer)
    if key is None:
        return Grade(score=0.0, max_score=question.points, verdict=Verdict.needs_review,
                     expected=str(question.answer), detail="answer key unreadable")
    expected = fill_expected(key)
    accepted = _prepared(key)
    whole, parts = _typed_parts(response, len(key))
    if len(key) == 1 and question.weights:
        return scaled(_weighted_form(question, key[0], whole), question.points, expected)
    if len(key) == 1:
        # the whole reply first: "$f(x)=max(0,x)$" has a comma but is one blank
        ok = _matches_blank(whole, accepted[0], key[0]) or (
            len(parts) > 1 and all(_matches(p, accepted[0]) for p in parts)
        )
        return scaled(1.0 if ok else 0.0, question.points, expected)
    # both blanks typed with no separator: "低秩近似量化低秩近似"
    if normalize_for_match(whole) == "".join(normalize_for_match(b[0]) for b in key):
        return scaled(1.0, question.points, expected)
    right = [i < len(parts) and _matches_blank(parts[i], accepted[i], key[i]) for i in range(len(key))]
    n_right = sum(right)
    wrong = [str(i + 1) for i, ok in enumerate(right) if not ok]
    if not wrong:
        detail = ""
    elif len(wrong) == 1:
        detail = f"blank {wrong[0]} wrong"
    else:
        detail = f"{n_right}/{len(key)} blanks right"
    return scaled(n_right / len(key), question.points, expected, detail)


def _weighted_form(question: Question, forms: tuple[str, ...], typed: str) -> float:
    """The best weight among the accepted forms `typed` matches (short answers with % credit)."""
    best = 0.0
    for form, weight in zip(forms, question.weights, strict=False):
        accepted = _prepared(((form,),))[0]
        if weight > best and _matches(typed, accepted):
            best = weight
    return best
