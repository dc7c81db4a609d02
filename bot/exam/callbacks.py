"""Exam buttons' callback data: short, validated, at most 64 bytes.

    x:p:<paper>:<e|p>           choose a paper (exam rules card, or practice)
    x:go:<paper|r>:<e|p>        start it (r: a random mock paper)
    x:<attempt>:<act>:<pos>[:<arg>]   act on an attempt at question `pos`
    x:<attempt>:j:<pos>         jump to question `pos` (the navigator's buttons)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from proctor.exams.states import AttemptMode
from proctor.exams.steps import Action


class Screen(StrEnum):
    """The buttons the bot answers itself: screens over the attempt, and the cancel confirmation."""
    review = "review"  # pos: page in the review of wrong answers
    review_all = "review_all"  # pos: page in the review of every answer
    grid = "grid"  # show the question navigator (pos: the current question)
    jump = "jump"  # go to question `pos` from the navigator
    cancel_yes = "cancel_yes"
    cancel_no = "cancel_no"


ACTIONS: dict[str, Action | Screen] = {
    "a": Action.answer,  # arg: shown option index (0-25, A–Z), or t/f
    "m": Action.toggle,  # arg: shown option index
    "s": Action.submit,  # submit the multi draft
    "c": Action.clear,  # clear the written answer so far
    "n": Action.next,
    "b": Action.back,
    "f": Action.flag,
    "F": Action.finish_ask,
    "Y": Action.finish_yes,
    "N": Action.finish_no,
    "r": Screen.review,
    "C": Screen.cancel_yes,
    "K": Screen.cancel_no,
    "g": Screen.grid,
    "j": Screen.jump,
    "v": Screen.review_all,
}
_CODES = {action: code for code, action in ACTIONS.items()}
_MODES = {"e": AttemptMode.exam, "p": AttemptMode.practice}

_PICK = re.compile(r"^x:(p|go):(\d{1,9}|r):([ep])$")
_ACT = re.compile(r"^x:(\d{1,12}):([amscnbfFYNrCKgjv]):(\d{1,4})(?::(1?[0-9]|2[0-5]|[tf]))?$")


@dataclass(frozen=True, slots=True)
class Pick:
    start: bool
    paper_id: int | None  # None: random mock
    mode: AttemptMode


@dataclass(frozen=True, slots=True)
class Act:
    attempt_id: int
    action: Action | Screen  # Action: a step of the attempt (proctor.exams.steps.take_step)
    pos: int
    arg: str | None


def pick(paper_id: int | None, mode: AttemptMode, *, start: bool) -> str:
    return f"x:{'go' if start else 'p'}:{'r' if paper_id is None else paper_id}:{mode[0]}"


def act(attempt_id: int, action: Action | Screen, pos: int, arg: str | int | None = None) -> str:
    data = f"x:{attempt_id}:{_CODES[action]}:{pos}" + ("" if arg is None else f":{arg}")
    assert len(data.encode()) <= 64
    return data


def parse(data: str | None) -> Pick | Act | None:
    """The button's meaning, or None for anything forged or garbled."""
    if not data or len(data.encode()) > 64:
        return None
    m = _PICK.match(data)
    if m:
        return Pick(m.group(1) == "go", None if m.group(2) == "r" else int(m.group(2)), _MODES[m.group(3)])
    m = _ACT.match(data)
    if m:
        action = ACTIONS[m.group(2)]
        arg = m.group(4)
        if action in (Action.answer, Action.toggle) and arg is None:
            return None
        return Act(int(m.group(1)), action, int(m.group(3)), arg)
    return None
