"""Lead buttons' callback data: short, validated, at most 64 bytes.

    l:v:<attempt>:<pos>:<half points>:<scope>   set the final score of a reviewed answer
    l:k:<attempt>:<pos>:<skip>:<scope>          skip to the next pending answer
    l:r:<question>:<scope>                      retire a question
    l:o:<question>:<scope>                      restore a question
    l:u:<dispute>:<scope>                       uphold a dispute
    l:d:<dispute>:<scope>                       dismiss a dispute
    l:e:<paper>:<0|1>:<scope>                   exam-only off / on
    l:j:<user>:<1|0>:<scope>                    /join request: accept / reject (a group scope only)
    l:c:<question>:<scope>                      confirm a key in doubt (configured admins)
    l:m:<group>:<stamp>:<1|0>                   a lead's invitation onto the group's roster: the member
                                                joins / declines (their private chat; no lead scope)

<scope> is the team group the lead acts for (its negative chat id), or 0 for the configured
admins (every team). Whoever presses a lead button must be a lead of that scope, checked anew.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Action(StrEnum):
    """What a lead button asks for (its form: the module docstring)."""
    set_score = "set_score"
    skip = "skip"
    retire = "retire"
    restore = "restore"
    uphold = "uphold"
    dismiss = "dismiss"
    exam_only = "exam_only"
    join_request = "join"  # a /join request: accept or reject (not `join`: str has a method of that name)
    confirm_key = "confirm_key"
    consent = "consent"


A = Action
_ID = r"([0-9]{1,12})"
_SCOPE = r"(0|-[0-9]{1,16})"
_FORMS = {
    "v": (A.set_score, re.compile(rf"^l:v:{_ID}:([0-9]{{1,4}}):([0-9]{{1,5}}):{_SCOPE}$")),
    "k": (A.skip, re.compile(rf"^l:k:{_ID}:([0-9]{{1,4}}):([0-9]{{1,5}}):{_SCOPE}$")),
    "r": (A.retire, re.compile(rf"^l:r:{_ID}:{_SCOPE}$")),
    "o": (A.restore, re.compile(rf"^l:o:{_ID}:{_SCOPE}$")),
    "u": (A.uphold, re.compile(rf"^l:u:{_ID}:{_SCOPE}$")),
    "d": (A.dismiss, re.compile(rf"^l:d:{_ID}:{_SCOPE}$")),
    "e": (A.exam_only, re.compile(rf"^l:e:{_ID}:([01]):{_SCOPE}$")),
    "j": (A.join_request, re.compile(r"^l:j:([0-9]{1,15}):([01]):(-[0-9]{1,16})$")),
    "c": (A.confirm_key, re.compile(rf"^l:c:{_ID}:{_SCOPE}$")),
    "m": (A.consent, re.compile(r"^l:m:(-[0-9]{1,16}):([0-9]{1,12}):([01])$")),
}
_UNSCOPED = (A.consent,)  # pressed by the member concerned, not by a lead
CODES = {name: code for code, (name, _) in _FORMS.items()}


@dataclass(frozen=True, slots=True)
class Press:
    action: Action
    args: tuple[int, ...]  # ids and numbers, by action (see the module docstring)
    scope: int | None  # the group; None: configured admins; consent has no scope


def _scope_text(scope: int | None) -> str:
    return "0" if scope is None else str(scope)


def encode(action: Action, *args: int | str, scope: int | None = None) -> str:
    """Build callback data; raises ValueError when it would be invalid or over 64 bytes."""
    parts = ["l", CODES[action], *(str(a) for a in args)]
    if action not in _UNSCOPED:
        parts.append(_scope_text(scope))
    data = ":".join(parts)
    if len(data.encode()) > 64 or parse(data) is None:
        raise ValueError(f"bad callback data: {data!r}")
    return data


def parse(data: str | None) -> Press | None:
    """The button's meaning, or None for anything forged or garbled."""
    if not data or len(data.encode()) > 64 or not data.startswith("l:") or len(data) < 4:
        return None
    form = _FORMS.get(data[2])
    if form is None:
        return None
    name, pattern = form
    m = pattern.match(data)
    if not m:
        return None
    groups = m.groups()
    if name == A.consent:
        return Press(name, tuple(int(g) for g in groups), None)
    scope = int(groups[-1])
    if scope > 0:
        return None
    return Press(name, tuple(int(g) for g in groups[:-1]), None if scope == 0 else scope)
