"""An invite's states and moves, and why its link cannot be used."""

from __future__ import annotations

from enum import StrEnum

from proctor.errors import ProctorError
from proctor.transitions import Machine


class InviteStatus(StrEnum):
    open = "open"  # made, nobody opened the link yet
    claimed = "claimed"  # the first user to open it owns it
    started = "started"  # an attempt is running
    finished = "finished"  # its attempt was handed in
    expired = "expired"  # the window closed before a start (read, never stored)
    revoked = "revoked"  # a lead withdrew it


class Refusal(StrEnum):
    """Why an invite's link cannot be used."""
    unknown = "unknown"  # no such invite
    foreign = "foreign"  # somebody else's
    used = "used"  # its attempts are used up, or one is running
    expired = "expired"
    revoked = "revoked"


class Refused(ProctorError):
    """The link cannot be used, for `reason`."""

    def __init__(self, reason: Refusal):
        self.reason = reason
        super().__init__(reason)


S = InviteStatus
MACHINE: Machine[InviteStatus] = Machine("an invite", {
    "claim": {S.open: S.claimed},
    "start": {S.claimed: S.started, S.finished: S.started},  # again only with attempts left
    "finish": {S.started: S.finished},
    "revoke": {S.open: S.revoked, S.claimed: S.revoked},
    "resend": {S.open: S.open, S.claimed: S.claimed},
})
_move = MACHINE.move


def claim(status: InviteStatus) -> InviteStatus:
    return _move("claim", status)


def start(status: InviteStatus) -> InviteStatus:
    return _move("start", status)


def finish(status: InviteStatus) -> InviteStatus:
    return _move("finish", status)


def revoke(status: InviteStatus) -> InviteStatus:
    return _move("revoke", status)


def resend(status: InviteStatus) -> InviteStatus:
    return _move("resend", status)


def effective(stored: InviteStatus, closes_at: float, now: float) -> InviteStatus:
    """What the invite is now: an open or claimed invite past its window has expired."""
    if stored in (S.open, S.claimed) and now >= closes_at:
        return S.expired
    return stored
