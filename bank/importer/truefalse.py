"""True/false questions: the "正确（）错误（）" notation and inline marks in the stem, and the key."""

from __future__ import annotations

import re

from bank.text.clean import tidy

_TF_OPTIONS = re.compile(r"(?:正確|正确|對|对)\s*[（(]\s*[)）]\s*(?:不正確|不正确|錯誤|错误|錯|错)\s*[（(]\s*[)）]")
_TF_INLINE = re.compile(r"[（(]\s*([√×✓✗✔✘xX对错對錯])\s*[)）]\s*$")
_EMPTY_PARENS = re.compile(r"[（(]\s*[)）]\s*$")  # and the space before it: rstrip, not a leading \s*
_TRUE = {"√", "✓", "✔", "对", "對", "正确", "正確", "是", "T", "TRUE", "Y"}
_FALSE = {"×", "✗", "✘", "X", "错", "錯", "错误", "錯誤", "不正确", "不正確", "否", "F", "FALSE", "N"}


def strip_notation(stem: str) -> tuple[str, str | None]:
    """The stem without its true/false brackets, and the mark written in the last one, if any."""
    stem = _TF_OPTIONS.sub("", stem)
    inline = _TF_INLINE.search(stem.strip())
    stem = _TF_INLINE.sub("", stem.strip())
    if empty := _EMPTY_PARENS.search(stem):
        stem = stem[:empty.start()].rstrip()
    return stem, inline.group(1) if inline else None


def tf_key(text: str | None) -> bool | None:
    """True or False from "√", "对", "正確", "F"…; None when the text says neither."""
    if text is None:
        return None
    t = re.sub(r"[\s（）()。.]", "", tidy(text)).upper()
    for word in sorted(_TRUE | _FALSE, key=len, reverse=True):
        if t.startswith(word.upper()):
            return word in _TRUE
    return None
