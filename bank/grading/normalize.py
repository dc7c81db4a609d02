"""Text normalisation shared by the graders: width, case, script, punctuation."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from bank.script import converter

# Multiplication signs typed in different ways all mean the same in an answer like "m×p".
_TIMES = str.maketrans({"*": "×", "·": "×", "⋅": "×", "∙": "×", "✕": "×", "−": "-"})
# LaTeX: `\times`/`\cdot` are products; other command names (`\frac`, `\sqrt`...) are layout,
# so "$f(x)=\frac{1}{1+e^{-x}}$" and "f(x)=1/(1+e^(-x))" normalise alike.
_LATEX_TIMES = re.compile(r"\\(?:times|cdot)(?![A-Za-z])")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def t2s(text: str) -> str:
    """Traditional characters turned into Simplified ones (OpenCC t2s)."""
    if not text:
        return text
    try:
        out: str = converter("t2s").convert(text)  # OpenCC.convert is not annotated
    except UnicodeError:  # lone surrogates cannot cross into OpenCC
        out = converter("t2s").convert(text.encode("utf-8", "replace").decode("utf-8"))
    return out


def _is_dropped(ch: str) -> bool:
    cat = unicodedata.category(ch)
    # P*: punctuation incl. Chinese 、，。（）《》; Z*/C*: spaces and controls; "$" delimits math.
    # "-" is kept: it is a minus sign in "e^{-x}".
    return (cat[0] in "PZC" and ch != "-") or ch == "$"


@lru_cache(maxsize=16384)
def normalize_for_match(text: str) -> str:
    """`text` reduced for comparison: NFKC, casefold, Simplified script, no spaces or punctuation.

    Symbols that carry meaning (+ - = ^ × √ <) are kept; brackets, commas and the like are not.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    if "\\" in text:
        text = _LATEX_COMMAND.sub("", _LATEX_TIMES.sub("×", text))
    text = text.translate(_TIMES)
    text = "".join(ch for ch in text if not _is_dropped(ch))
    if not text.isascii():
        text = t2s(text)
    return text


def fold(text: str) -> str:
    """Width, case and script folded, but punctuation kept (for parsing typed replies)."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    return t2s(text) if not text.isascii() else text
