"""Invite buttons' callback data: short, validated, at most 64 bytes.

    i:s:<invite>     the candidate starts the invited paper
    i:v:<invite>     a lead revokes the invite
    i:R:<invite>     a lead sends a fresh link (the old one stops working)
    i:w:<attempt>    a lead reviews the written answers of an invited attempt
"""

from __future__ import annotations

import re

ACTIONS = {"s": "start", "v": "revoke", "R": "resend", "w": "review"}
_FORM = re.compile(r"^i:([svRw]):([0-9]{1,12})$")


def encode(action: str, number: int) -> str:
    code = next(k for k, v in ACTIONS.items() if v == action)
    return f"i:{code}:{number}"


def parse(data: str | None) -> tuple[str, int] | None:
    """(action, number), or None for anything forged or garbled."""
    m = _FORM.match(data or "")
    return (ACTIONS[m.group(1)], int(m.group(2))) if m else None
