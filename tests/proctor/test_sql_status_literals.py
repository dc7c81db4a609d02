"""SQL in the Python sources never spells a stored enum value as a quoted literal.

`WHERE status = 'running'` keeps working when `AttemptStatus.running` is renamed or its value
changes, silently matching nothing. The SQL takes the value from the enum instead: a bound
parameter, or a literal formatted from the member (`f"status = '{AttemptStatus.running}'"`, which
keeps a constant for SQLite's planner). Migrations (.sql files) are history and are not scanned.

bank/ sits below proctor/ and may not import the attempt enums: its few literals are listed in
BANK_ALLOWED with the member each stands for, and the test checks they still agree.
"""

from __future__ import annotations

import ast
import re
from enum import StrEnum
from pathlib import Path

from bank.authoring.upload import UploadStatus
from bank.grading.result import Verdict
from bank.kinds import GradingMethod, Kind, MultiPolicy
from proctor.daily.states import DeliveryStatus, stored
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.invites.states import InviteStatus
from proctor.outbox import Delivery
from proctor.outbox import Kind as OutboxKind
from proctor.storage.updates import UpdateState
from proctor.teams.disputes import DisputeStatus
from proctor.teams.roster import MEMBER, PENDING

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")
ENUMS: tuple[type[StrEnum], ...] = (AttemptStatus, AttemptMode, DeliveryStatus, InviteStatus, Delivery,
                                    DisputeStatus, UpdateState, Kind, GradingMethod, MultiPolicy, Verdict,
                                    UploadStatus, OutboxKind)
# what the database stores: a delivery's keys_pending is stored as 'closed' (proctor/daily/states.py)
STORED = ({stored(s) for s in DeliveryStatus}
          | {m.value for e in ENUMS if e is not DeliveryStatus for m in e} | {MEMBER, PENDING})
# a string is SQL when it has one of these words (upper case, as this code writes SQL)
_SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|WHERE|VALUES|JOIN|AND|OR|IN|SET|CASE|WHEN|COALESCE)\b"
                  r"|\b\w+\s*(=|!=|<>)\s*'")
_QUOTED = re.compile(r"'([\w-]+)'")

# (file, literal): the member it stands for. bank/ cannot import proctor's enums (the layers). None
# left: item statistics' queries over attempts moved to proctor/teams/item_stats.py (its enums).
BANK_ALLOWED: dict[tuple[str, str], StrEnum] = {}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes (prose, not SQL)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every string: plain ones, and f-strings with each {…} as a placeholder."""
    skip = _docstrings(tree)
    inside_f = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
            out.append((node.lineno, text))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
              and id(node) not in inside_f):
            out.append((node.lineno, node.value))
    return out


def status_literals(source: str) -> list[tuple[int, str]]:
    """(line, value) of each stored enum value written as a quoted literal in a SQL string."""
    found = []
    for line, text in _strings(ast.parse(source)):
        if not _SQL.search(text):
            continue
        found += [(line, m.group(1)) for m in _QUOTED.finditer(text) if m.group(1) in STORED]
    return sorted(found)


def test_no_stored_enum_value_is_a_literal_in_sql() -> None:
    bad = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, value in status_literals(path.read_text(encoding="utf-8")):
                if (rel, value) not in BANK_ALLOWED:
                    bad.append(f"{rel}:{line}: '{value}'")
    assert not bad, "SQL spells an enum value; take it from the enum:\n" + "\n".join(bad)


def test_the_bank_literals_still_name_their_members() -> None:
    for (rel, value), member in BANK_ALLOWED.items():
        assert member.value == value, f"{rel}: '{value}' no longer is {member!r}"
        assert (rel, value) in {(rel, v) for _, v in status_literals((ROOT / rel).read_text(encoding="utf-8"))}, (
            f"{rel} no longer writes '{value}': drop it from BANK_ALLOWED")


def test_the_scanner_finds_what_it_should() -> None:
    src = '''
def f(db):
    """Returns 'running' or 'finished' (prose, not SQL)."""
    db.fetchall("SELECT * FROM attempts WHERE status='running'")
    db.fetchall("SELECT * FROM attempts WHERE user_id=? "
                "AND mode IN ('exam', 'practice')")
    db.fetchall(f"SELECT * FROM invites WHERE status = '{S.open}' AND x = 'claimed'")
    db.fetchall("SELECT * FROM users WHERE name = 'Ann'")
    label = 'open'
'''
    assert status_literals(src) == [(4, "running"), (5, "exam"), (5, "practice"), (7, "claimed")]
