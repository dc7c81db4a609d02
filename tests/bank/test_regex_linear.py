"""The readers' regexes do linear work on any text (issue 21, item 4).

Work is counted by structure, not by timing: Python's `re` backtracks, and a pattern does more
than linear work only where the engine can split one run of text between two quantifiers in many
ways, or retry a quantifier from every start inside one run. `risks` finds the three shapes that
do it (a quantifier inside an unbounded one; two unbounded quantifiers over overlapping characters
with nothing between them that the first cannot match; a search that starts with an unbounded
quantifier: at a line start in MULTILINE mode over a class holding a newline, or anywhere when
something after it can fail) in every regex literal of the modules that read users' files.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.formats.files import _GIFT_LINE
from bank.formats.gift import looks_like_gift

try:
    from re import _constants as C  # type: ignore[attr-defined]
    from re import _parser as P  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants as C  # type: ignore[no-redef]
    import sre_parse as P  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[2]
READERS = [*sorted((ROOT / "bank" / "formats").glob("*.py")), *sorted((ROOT / "bank" / "importer").glob("*.py")),
           ROOT / "bank" / "text" / "clean.py"]
SEARCHING = {"search", "sub", "subn", "findall", "finditer", "split", "compile"}  # compile: used either way
ANCHORED = {"match", "fullmatch"}
ALPHABET = [chr(i) for i in range(256)] + list("中题答：（）＿、，。\u3000āü")
FLAG_NAMES = {"M": re.M, "MULTILINE": re.M, "S": re.S, "DOTALL": re.S, "I": re.I, "IGNORECASE": re.I}

OLD_GIFT = r"^(?!\s*//).*\{[^}]*\}"
OLD_GIFT_LINE = r"^\s*(::|\$CATEGORY:)"


# --- what a single-character node matches, over a sample alphabet -----------------------------

def _category(cat, ch: str) -> bool:
    return {C.CATEGORY_SPACE: ch.isspace(), C.CATEGORY_NOT_SPACE: not ch.isspace(),
            C.CATEGORY_DIGIT: ch.isdigit(), C.CATEGORY_NOT_DIGIT: not ch.isdigit(),
            C.CATEGORY_WORD: ch.isalnum() or ch == "_", C.CATEGORY_NOT_WORD: not (ch.isalnum() or ch == "_"),
            C.CATEGORY_LINEBREAK: ch == "\n", C.CATEGORY_NOT_LINEBREAK: ch != "\n"}.get(cat, True)


def _in_set(items, ch: str) -> bool:
    negate, hit = False, False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            hit |= ord(ch) == av
        elif op is C.RANGE:
            hit |= av[0] <= ord(ch) <= av[1]
        elif op is C.CATEGORY:
            hit |= _category(av, ch)
        else:
            hit = True  # an item this sketch does not model: assume it can match
    return hit != negate


def chars(node, flags: int) -> frozenset[str] | None:
    """The sample characters (ALPHABET and the pattern's own) a one-character node matches; None
    for any other node."""
    op, av = node
    if op is C.LITERAL:
        return frozenset(chr(av))
    if op is C.NOT_LITERAL:
        return frozenset(ch for ch in _sample if ord(ch) != av)
    if op is C.ANY:
        return frozenset(ch for ch in _sample if flags & re.S or ch != "\n")
    if op is C.IN:
        return frozenset(ch for ch in _sample if _in_set(av, ch))
    return None


_sample: list[str] = ALPHABET


# --- the three shapes ---------------------------------------------------------------------------

REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT}
ZERO_WIDTH = {C.AT, C.ASSERT, C.ASSERT_NOT}


def _flat(seq) -> list:
    """A sequence with its groups opened (a group's contents run where the group stands)."""
    out = []
    for op, av in seq:
        if op is C.SUBPATTERN:
            out += _flat(av[-1])
        else:
            out.append((op, av))
    return out


def _unbounded(node) -> bool:
    return node[0] in REPEATS and node[1][1] == C.MAXREPEAT


def _body_chars(node, flags: int) -> frozenset[str] | None:
    body = _flat(node[1][2])
    return chars(body[0], flags) if len(body) == 1 else None


def _has_unbounded(seq) -> bool:
    for op, av in seq:
        if _unbounded((op, av)):
            return True
        if op is C.SUBPATTERN and _has_unbounded(av[-1]):
            return True
        if op in REPEATS and _has_unbounded(av[2]):
            return True
        if op is C.BRANCH and any(_has_unbounded(b) for b in av[1]):
            return True
        if op in (C.ASSERT, C.ASSERT_NOT) and _has_unbounded(av[1]):
            return True
    return False


def _walk(seq, flags: int, found: list[str]) -> None:
    seq = _flat(seq)
    for i, node in enumerate(seq):
        op, av = node
        if op in REPEATS:
            if av[1] == C.MAXREPEAT and _has_unbounded(av[2]):
                found.append("a quantifier inside an unbounded one")
            _walk(av[2], flags, found)
        elif op is C.BRANCH:
            for b in av[1]:
                _walk(b, flags, found)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(av[1], flags, found)
        if not _unbounded(node):
            continue
        first = _body_chars(node, flags)
        if first is None:
            continue
        for later in seq[i + 1:]:
            if later[0] in ZERO_WIDTH:
                continue
            if _unbounded(later):
                second = _body_chars(later, flags)
                if second is None or first & second:
                    found.append("two unbounded quantifiers over overlapping characters")
                break
            one = chars(later, flags)
            if one is None or not one <= first:
                break


def _head(seq, flags: int, found: list[str]) -> None:
    seq = _flat(seq)
    if len(seq) == 1 and seq[0][0] is C.BRANCH:
        for b in seq[0][1][1]:
            _head(b, flags, found)
        return
    at_line_start = False
    for i, node in enumerate(seq):
        op, av = node
        if op is C.AT and av is C.AT_BEGINNING_STRING:
            return
        if op is C.AT and av is C.AT_BEGINNING:
            if not flags & re.M:
                return
            at_line_start = True
            continue
        if op in ZERO_WIDTH:
            continue
        if _unbounded(node):
            body = _body_chars(node, flags)
            if at_line_start and (body is None or "\n" in body):
                found.append("a search from every line start over a class holding a newline")
            elif not at_line_start and i + 1 < len(seq):
                found.append("a search starting with an unbounded quantifier that can then fail")
        return


def risks(pattern: str, flags: int = 0, *, searched: bool = True) -> list[str]:
    """The shapes in `pattern` that make Python's `re` do more than linear work."""
    global _sample
    _sample = ALPHABET + sorted(set(pattern))
    parsed = P.parse(pattern, flags)
    flags |= parsed.state.flags
    found: list[str] = []
    _walk(list(parsed), flags, found)
    if searched:
        _head(list(parsed), flags, found)
    return found


# --- every regex literal of the readers ---------------------------------------------------------

def _flags(node: ast.expr | None) -> int:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and node.attr in FLAG_NAMES:
        return FLAG_NAMES[node.attr]
    if isinstance(node, ast.BinOp):
        return _flags(node.left) | _flags(node.right)
    return 0


def _literals() -> list[tuple[str, str, int, bool]]:
    """(where, pattern, flags, searched) of each `re.<function>("literal", ...)` call in READERS."""
    out = []
    for path in READERS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
                continue
            name = node.func.attr
            if name not in SEARCHING | ANCHORED or not node.args:
                continue
            pattern = node.args[0]
            if not (isinstance(pattern, ast.Constant) and isinstance(pattern, ast.Constant)
                    and isinstance(pattern.value, str)):
                continue  # built at run time (an f-string): its parts are checked where they are literal
            flag_arg = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flag_arg is None:
                index = 1 if name in ("compile", "search", "match", "fullmatch", "findall", "finditer") else 3
                flag_arg = node.args[index] if len(node.args) > index else None
            out.append((f"{path.relative_to(ROOT)}:{node.lineno}", pattern.value, _flags(flag_arg),
                        name in SEARCHING))
    return out


LITERALS = _literals()


def test_the_scan_finds_the_readers_regexes():
    assert len(LITERALS) > 30
    assert any(p == _GIFT_LINE.pattern for _, p, _, _ in LITERALS)


@pytest.mark.parametrize("where,pattern,flags,searched", LITERALS, ids=[w for w, *_ in LITERALS])
def test_no_reader_regex_backtracks_more_than_linearly(where, pattern, flags, searched):
    assert risks(pattern, flags, searched=searched) == [], pattern


@pytest.mark.parametrize("pattern,flags", [
    (OLD_GIFT, re.M),  # looks_like_gift before issue 21: 34 s on a line of 300,000 "{"
    (OLD_GIFT_LINE, re.M),  # detect's GIFT line before: quadratic on a run of blank lines
    (r"^(.+?)\s*(?:±|\+/-|:)\s*(.+)$", 0),
    (r"\s*[（(]\s*[)）]\s*$", 0),
    (r"(a+)+b", 0),
])
def test_the_check_sees_the_shapes_that_were_slow(pattern, flags):
    assert risks(pattern, flags)


# --- looks_like_gift: the scan says what the regex said ------------------------------------------

@given(st.text(alphabet="{}/ \t\n\r\x1c\u3000x:", max_size=40))
def test_looks_like_gift_agrees_with_the_regex_it_replaced(text):
    assert looks_like_gift(text) == bool(re.search(OLD_GIFT, text, re.M))


@given(st.text(alphabet=": \t\n\r$CATEGORYx", max_size=40))
def test_the_gift_line_agrees_with_the_regex_it_replaced(text):
    assert bool(_GIFT_LINE.search(text)) == bool(re.search(OLD_GIFT_LINE, text, re.M))
