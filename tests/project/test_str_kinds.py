"""Kinds, states and modes cross boundaries as enums (STYLE.md point 18): no function parameter and no
class field (dataclass, NamedTuple, TypedDict, pydantic model) in the packages is named `kind`,
`action`, `mode`, `status`, `step`, `state` or `reason` (or ends in `_kind`, `_mode`, ...) and typed
`str`. Each module is parsed with `ast`, so the check needs no import. The few that are genuinely open
text are listed below, each with its reason; an entry that no longer matches anything fails too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")
WORDS = frozenset({"kind", "action", "mode", "status", "step", "state", "reason"})
STR = frozenset({"str", "str | None", "None | str", "Optional[str]", "typing.Optional[str]"})

# "path:Scope.name": why it is open text, not a closed set
ALLOWED = {
    "proctor/teams/disputes.py:Dispute.reason": "the candidate's own words",
    "proctor/teams/disputes.py:raise_dispute.reason": "the candidate's own words",
    "proctor/teams/candidate.py:RaisedDispute.reason": "the candidate's own words",
    "desk/hiring.py:Row.status": "the status as the page prints it, in the lead's language "
                                 "(the enum is `Row.candidate.status`)",
    "proctor/outbox.py:Unknown.kind": "a kind this release does not know: the text another release wrote, kept for the log",
}


def _named(name: str) -> bool:
    return name in WORDS or name.rsplit("_", 1)[-1] in WORDS


def _is_str(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # a quoted annotation
        return annotation.value.strip() in STR
    return ast.unparse(annotation) in STR


def _found(path: Path) -> Iterator[tuple[str, str]]:
    """("Scope.name", "line: annotation") of each str-typed parameter or field named like a kind in the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                if arg is not None and _named(arg.arg) and _is_str(arg.annotation):
                    yield f"{node.name}.{arg.arg}", f"{arg.lineno}: {ast.unparse(arg.annotation)}"
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                        and _named(stmt.target.id) and _is_str(stmt.annotation)):
                    yield f"{node.name}.{stmt.target.id}", f"{stmt.lineno}: {ast.unparse(stmt.annotation)}"


def str_kinds() -> dict[str, str]:
    """Every str-typed kind in the packages: "path:Scope.name" -> "line: annotation"."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for where, line in _found(path):
                found[f"{rel}:{where}"] = line
    return found


def test_no_kind_state_or_mode_is_typed_str():
    found = str_kinds()
    bad = [f"{where.partition(':')[0]}:{at}  ({where.partition(':')[2]})" for where, at in found.items()
           if where not in ALLOWED]
    assert not bad, ("a kind, state or mode typed str (an enum where the set is closed, decoded once at the edge; "
                     "else an entry in ALLOWED with its reason):\n" + "\n".join(bad))


def test_every_allowed_entry_still_exists():
    stale = sorted(set(ALLOWED) - set(str_kinds()))
    assert not stale, "no longer str-typed (take them out of ALLOWED): " + ", ".join(stale)


def test_the_check_sees_parameters_and_fields(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from typing import NamedTuple\n"
                      "def arm(kind: str, key: int, retry_kind: 'str | None' = None, name: str = ''): ...\n"
                      "async def go(*, mode: str | None): ...\n"
                      "class Row(NamedTuple):\n    status: str\n    title: str\n    state: int\n",
                      encoding="utf-8")
    assert dict(_found(module)) == {"arm.kind": "2: str", "arm.retry_kind": "2: 'str | None'",
                                    "go.mode": "3: str | None", "Row.status": "5: str"}
