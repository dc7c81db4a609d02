"""A daily delivery's states and the moves between them.

Six states, five stored in `daily_deliveries.status`; `keys_pending` (the quiz is closed to answers
but its keys and the day's top are not posted yet) is stored as 'closed' with `closed_at` NULL,
and `closed` has `closed_at` set. `effective()` reads the pair; `stored()` writes a state back.
"""

from __future__ import annotations

from enum import StrEnum

from proctor.transitions import Machine


class DeliveryStatus(StrEnum):
    pending = "pending"  # created with its items, nothing sent yet
    sending = "sending"  # some items sent
    open = "open"  # every item due is sent; answers are accepted
    keys_pending = "keys_pending"  # closed to answers, keys not yet posted (stored 'closed', closed_at NULL)
    closed = "closed"  # closed and its keys posted
    failed = "failed"  # the bot may not post in the chat (blocked or kicked)


class Move(StrEnum):
    """The delivery's moves, named in MACHINE."""
    start_sending = "start_sending"
    open = "open"
    close = "close"
    post_keys = "post_keys"
    fail = "fail"
    retry = "retry"


S = DeliveryStatus
UNFINISHED: tuple[DeliveryStatus, ...] = (S.pending, S.sending, S.open)  # accepting answers

MACHINE: Machine[DeliveryStatus] = Machine("a delivery", {
    Move.start_sending: {S.pending: S.sending},
    Move.open: {S.pending: S.open, S.sending: S.open},
    Move.close: {s: S.keys_pending for s in UNFINISHED},
    Move.post_keys: {S.keys_pending: S.closed},
    Move.fail: {s: S.failed for s in UNFINISHED},
    Move.retry: {S.failed: S.pending},  # the chat turned the quiz back on: finish the day's quiz
})


def effective(stored_status: DeliveryStatus, closed_at: float | None) -> DeliveryStatus:
    """The state of a stored row."""
    if stored_status == S.closed and closed_at is None:
        return S.keys_pending
    return stored_status


def stored(status: DeliveryStatus) -> str:
    """What the status column holds for a state."""
    return S.closed.value if status == S.keys_pending else status.value


def accepts_answers(status: DeliveryStatus) -> bool:
    return status in UNFINISHED


def in_sql(states: tuple[DeliveryStatus, ...] = UNFINISHED) -> str:
    """A SQL list of stored statuses for `status IN (...)` (the values are the enum's own, not input)."""
    return ",".join(f"'{stored(s)}'" for s in states)
