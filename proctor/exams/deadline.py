"""When an attempt's time is up for an answer, and when its deadline hands it in.

An answer counts when it was given before the deadline. A press carries no time of its own (Telegram
says nothing of when a button was pressed), so it is judged by when the bot handles it. A typed
message carries Telegram's date (its servers' clock in whole seconds, not the sender's): one dated at
or before the deadline counts while the attempt still runs, even when the bot handles it later (a
deadline minute's backlog, a restart, a standby taking over), so up to a second after the deadline
may count. The hand-in therefore waits `GRACE` after the deadline for those messages; an attempt
whose deadline passed while no bot ran waits `GRACE` from the start, in which the updates Telegram
kept for the bot are handled. Its end is still its deadline (proctor.exams.service.finish_attempt).
"""

from __future__ import annotations

GRACE = 5.0  # seconds the hand-in waits for answers sent in time


def time_is_up(deadline: float | None, now: float, sent_at: float | None = None) -> bool:
    """Whether an answer handled at `now` (a typed one sent at `sent_at`, Telegram's date) is too late."""
    if deadline is None:
        return False
    if sent_at is not None and sent_at <= deadline:
        return False
    return deadline <= now


def hand_in_at(deadline: float, now: float) -> float:
    """When the deadline job hands the attempt in: `GRACE` after its deadline, or after `now` when the
    deadline has passed already (the bot starts after it)."""
    return max(deadline, now) + GRACE


def hand_in_due(deadline: float | None, now: float) -> bool:
    """Whether a deadline job running at `now` hands the attempt in (False: the clock moved back)."""
    return deadline is not None and deadline + GRACE <= now
