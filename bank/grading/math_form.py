"""Fill-in keys written as maths: "$f(x)=\\frac{1}{1+e^{-x}}$" accepts "1/(1+exp(-x))".

Both sides are parsed into one math form with SymPy (the key with its LaTeX parser, the reply with
its expression parser, both also through a plain-text reading of the LaTeX) and compared by value
at a few points. SymPy is imported only when a key looks like maths, so a bot that never grades
such a key never loads it. A reply is parsed only if it is short and made of maths tokens (SymPy's
expression parser evaluates Python), and every check runs in a worker thread with a time cap.

`plain(key)` shows a LaTeX key as a candidate would type it: "f(x)=1/(1+e^(-x))".
"""

from __future__ import annotations

import cmath
import re
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from functools import lru_cache
from typing import Any

TIME_CAP = 1.0  # seconds for one comparison, parsing included
MAX_REPLY = 60  # characters of a reply worth parsing as maths
_POINTS = (0.37, 1.3, -0.8, 2.1)

_LOOKS_MATH = re.compile(r"\$|\\frac|\\exp|\\sqrt|\^|\b[a-zA-Z]\s*\(\s*[a-z]\s*\)\s*=")
_REPLY_CHARS = re.compile(r"^[0-9a-zA-Z\s+\-*/^().,={}]+$")
_NAMES = frozenset({"x", "y", "z", "t", "n", "e", "exp", "log", "ln", "sqrt", "max", "min", "abs", "pi",
                    "sin", "cos", "tan", "tanh", "f", "g", "h"})
_HEAD = re.compile(r"^\s*(?:[a-zA-Z]\w*\s*\(\s*[a-z]\s*\)|y)\s*$")  # "f(x)" or "y" before "="
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_GROUP_POWER = re.compile(r"\^\s*\{([^{}]*)\}")

_pool: ThreadPoolExecutor | None = None


def looks_like_math(key: str) -> bool:
    return bool(_LOOKS_MATH.search(key))


def _wrap(s: str) -> str:
    s = s.strip()
    return s if re.fullmatch(r"[\w.]+", s) else f"({s})"


def plain(key: str) -> str:
    """A LaTeX key as plain text: no $, \\frac{a}{b} as a/(b), ^{-x} as ^(-x)."""
    text = key.strip().strip("$").strip()
    text = text.replace("\\left", "").replace("\\right", "").replace("\\cdot", "*").replace("\\times", "*")
    for _ in range(5):  # nested fractions, innermost first
        new = _FRAC.sub(lambda m: f"{_wrap(m[1])}/{_wrap(m[2])}", text)
        new = _GROUP_POWER.sub(lambda m: f"^{_wrap(m[1])}", new)
        if new == text:
            break
        text = new
    text = re.sub(r"\\(exp|log|ln|sqrt|max|min|sin|cos|tan|tanh|sigma)\b", r"\1", text)
    return text.replace("{", "(").replace("}", ")").replace(" ", "")


def _right_side(text: str) -> str:
    """ "f(x)=..." → "...": the function's value is what is asked."""
    if text.count("=") == 1:
        head, body = text.split("=")
        if _HEAD.match(head):
            return body
    return text


def _safe_reply(text: str) -> str | None:
    """The reply's expression if it is short and made only of maths tokens, else None."""
    text = text.strip().strip("$").strip()
    if not text or len(text) > MAX_REPLY or not _REPLY_CHARS.match(text) or not re.search(r"[-+*/^()]", text):
        return None
    if re.search(r"(?<!\d)\.|\.(?!\d)|__|\d{7,}", text) or text.count("^") > 3:
        return None
    if any(name not in _NAMES for name in re.findall(r"[a-zA-Z_]\w*", text)):
        return None
    text = re.sub(r"\d+(?:\.\d+)?", lambda m: m[0] if "." in m[0] else m[0] + ".0", text)
    return _right_side(text.replace("{", "(").replace("}", ")"))


def _sympy_forms(key: str) -> list[Any]:  # sympy expressions (sympy ships no types)
    import sympy  # heavy: loaded only for LaTeX keys (not a circle)
    from sympy.parsing.latex import parse_latex

    core = key.strip().strip("$").strip()
    forms: list[Any] = []
    try:
        parsed = parse_latex(core)
        parsed = parsed.rhs if isinstance(parsed, sympy.Eq) else parsed
        forms.append(parsed.subs(sympy.Symbol("e"), sympy.E))  # the key is trusted text: evaluating is fine
    except Exception:  # noqa: BLE001 - the LaTeX parser raises many kinds; the plain reading follows
        pass
    try:
        forms.append(_parse_plain(_right_side(plain(key))))
    except Exception:  # noqa: BLE001
        pass
    return forms


def _parse_plain(text: str) -> Any:
    import sympy  # heavy: loaded only for LaTeX keys (not a circle)
    from sympy.parsing.sympy_parser import (
        convert_xor,
        implicit_multiplication_application,
        parse_expr,
        standard_transformations,
    )

    names = {"e": sympy.E, "ln": sympy.log, "max": sympy.Max, "min": sympy.Min, "abs": sympy.Abs,
             "pi": sympy.pi, "exp": sympy.exp, "sqrt": sympy.sqrt, "log": sympy.log}
    return parse_expr(text, local_dict=names, evaluate=False,
                      transformations=standard_transformations + (implicit_multiplication_application, convert_xor))


def _values(expr: Any) -> list[complex] | None:
    """The expression's values at a few points, in machine floats: "9.0^9.0^9.0" overflows at once
    instead of growing a nine-hundred-million-digit integer (replies have float literals)."""
    import sympy  # heavy: loaded only for LaTeX keys (not a circle)

    symbols = sorted(expr.free_symbols, key=str)
    if len(symbols) > 2:
        return None
    fn = sympy.lambdify(symbols, expr, modules="math")
    out = []
    for p in _POINTS:
        try:
            out.append(complex(fn(*(p * (i + 1) for i in range(len(symbols))))))
        except (TypeError, ValueError, OverflowError, ZeroDivisionError, ArithmeticError):
            out.append(complex("nan"))
    return out


def _close(a: list[complex], b: list[complex]) -> bool:
    checked = 0
    for x, y in zip(a, b, strict=True):
        if cmath.isnan(x) or cmath.isnan(y):
            continue
        if abs(x - y) > 1e-9 * (1 + abs(x)):
            return False
        checked += 1
    return checked >= 2


@lru_cache(maxsize=256)
def _key_values(key: str) -> tuple[tuple[complex, ...], ...]:
    """The key's values at the points, per reading of it; () when no reading gives numbers."""
    out = []
    for form in _sympy_forms(key):
        try:
            values = _values(form)
        except Exception:  # noqa: BLE001 - "O(n^2)" and the like: not a function to compare
            continue
        if values is not None:
            out.append(tuple(values))
    return tuple(out)


def _compare(reply: str, keys: tuple[tuple[complex, ...], ...]) -> bool:
    values = _values(_parse_plain(reply))
    return values is not None and any(_close(list(k), values) for k in keys)


def _load() -> None:
    """Import and warm SymPy (a second or so, once): not part of any reply's time cap."""
    _values(_parse_plain("1.0/(1.0+e^-x)"))


def same_math(reply: str, key: str, *, time_cap: float = TIME_CAP) -> bool:
    """Whether `reply` is the same function or value as the maths key `key` (False if unsure)."""
    if not looks_like_math(key):
        return False
    expr = _safe_reply(reply)
    if expr is None:
        return False
    global _pool
    if _pool is None:
        _load()  # the first import takes a while: not part of the cap
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="math-form")
    keys = _key_values(key)  # the key is trusted text, parsed once
    if not keys:
        return False
    future = _pool.submit(_compare, expr, keys)
    try:
        return future.result(timeout=time_cap)
    except FutureTimeout:
        return False
    except Exception:  # noqa: BLE001 - an unparsable reply is simply not this key
        return False
