"""Exam buttons' callback data: short, validated, at most 64 bytes.

    x:p:<paper>:<e|p>           choose a paper (exam rules card, or practice)
    x:go:<paper|r>:<e|p>        start it (r: a random mock paper)
    x:<attempt>:<act>:<pos>[:<arg>]   act on an attempt at question `pos`
    x:<attempt>:j:<pos>         jump to question `pos` (the navigator's buttons)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ACTIONS = {
    "a": "answer",  # arg: shown option index (0-25, A–Z), or t/f
    "m": "toggle",  # arg: shown option index
    "s": "submit",  # submit the multi draft
    "n": "next",
    "b": "back",
    "f": "flag",
    "F": "finish_ask",
    "Y": "finish_yes",
    "N": "finish_no",
    "r": "review",  # pos: page in the review of wrong answers
    "C": "cancel_yes",
    "K": "cancel_no",
    "g": "grid",  # show the question navigator (pos: the current question)
    "j": "jump",  # go to question `pos` from the navigator
    "v": "review_all",  # pos: page in the review of every answer
}

_PICK = re.compile(r"^x:(p|go):(\d{1,9}|r):([ep])$")
_ACT = re.compile(r"^x:(\d{1,12}):([amsnbfFYNrCKgjv]):(\d{1,4})(?::(1?[0-9]|2[0-5]|[tf]))?$")


@dataclass(frozen=True)
class Pick:
    start: bool
    paper_id: int | None  # None: random mock
    mode: str  # 'exam' | 'practice'


@dataclass(frozen=True)
class Act:
    attempt_id: int
    action: str
    pos: int
    arg: str | None


def pick(paper_id: int | None, mode: str, *, start: bool) -> str:
    return f"x:{'go' if start else 'p'}:{'r' if paper_id is None else paper_id}:{mode[0]}"


def act(attempt_id: int, action: str, pos: int, arg: str | int | None = None) -> str:
    code = next(k for k, v in ACTIONS.items() if v == action)
    data = f"x:{attempt_id}:{code}:{pos}" + ("" if arg is None else f":{arg}")
    assert len(data.encode()) <= 64
    return data


def parse(data: str | None) -> Pick | Act | None:
    """The button's meaning, or None for anything forged or garbled."""
    if not data or len(data.encode()) > 64:
        return None
    m = _PICK.match(data)
    if m:
        return Pick(m.group(1) == "go", None if m.group(2) == "r" else int(m.group(2)),
                    "exam" if m.group(3) == "e" else "practice")
    m = _ACT.match(data)
    if m:
        action = ACTIONS[m.group(2)]
        arg = m.group(4)
        if action in ("answer", "toggle") and arg is None:
            return None
        return Act(int(m.group(1)), action, int(m.group(3)), arg)
    return None
