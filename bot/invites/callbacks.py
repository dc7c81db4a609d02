"""Invite buttons' callback data: short, validated, at most 64 bytes.

    i:s:<invite>     the candidate starts the invited paper
    i:v:<invite>     a lead revokes the invite
    i:R:<invite>     a lead sends a fresh link (the old one stops working)
    i:w:<attempt>    a lead reviews the written answers of an invited attempt
"""

from __future__ import annotations

import re
from enum import StrEnum


class Press(StrEnum):
    """What an invite button asks for."""
    start = "start"
    revoke = "revoke"
    resend = "resend"
    review = "review"


ACTIONS = {"s": Press.start, "v": Press.revoke, "R": Press.resend, "w": Press.review}
_CODES = {action: code for code, action in ACTIONS.items()}
_FORM = re.compile(r"^i:([svRw]):([0-9]{1,12})$")


def encode(action: Press, number: int) -> str:
    return f"i:{_CODES[action]}:{number}"


def parse(data: str | None) -> tuple[Press, int] | None:
    """(action, number), or None for anything forged or garbled."""
    m = _FORM.match(data or "")
    return (ACTIONS[m.group(1)], int(m.group(2))) if m else None
