"""Daily quiz buttons' callback data: short, validated, at most 64 bytes.

    d:p:<delivery>:<pos>:<arg>   pick: shown option index (0-25, A–Z), or t/f for true/false
    d:m:<delivery>:<pos>:<arg>   toggle a shown option of a multiple-choice question
    d:s:<delivery>:<pos>         submit the multiple-choice selection
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proctor.daily.steps import Action

ACTIONS = {"p": Action.pick, "m": Action.toggle, "s": Action.submit}
_CODES = {action: code for code, action in ACTIONS.items()}
_DATA = re.compile(r"^d:([pms]):([0-9]{1,12}):([0-9]{1,3})(?::(1?[0-9]|2[0-5]|[tf]))?$", re.ASCII)


@dataclass(frozen=True, slots=True)
class Press:
    action: Action  # pick, toggle or submit
    delivery_id: int
    pos: int
    arg: str | None  # '0'..'25', 't', 'f'; None for submit


def encode(action: Action, delivery_id: int, pos: int, arg: str | int | None = None) -> str:
    data = f"d:{_CODES[action]}:{delivery_id}:{pos}" + ("" if arg is None else f":{arg}")
    if len(data.encode()) > 64:
        raise ValueError(f"callback data too long: {data!r}")
    return data


def parse(data: str | None) -> Press | None:
    """The button's meaning, or None for anything forged or garbled."""
    if not data or len(data.encode()) > 64:
        return None
    m = _DATA.match(data)
    if not m:
        return None
    action, arg = ACTIONS[m.group(1)], m.group(4)
    if (action == Action.submit) != (arg is None):
        return None
    if action == Action.toggle and arg in ("t", "f"):
        return None
    return Press(action, int(m.group(2)), int(m.group(3)), arg)
