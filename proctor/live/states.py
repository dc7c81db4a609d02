"""A live round's states and its questions' states, with the moves between them."""

from __future__ import annotations

from enum import StrEnum

from proctor.transitions import Machine


class RoundStatus(StrEnum):
    countdown = "countdown"  # started: the countdown message, then the first poll at starts_at
    asking = "asking"  # its polls are being posted and closed one at a time
    finished = "finished"  # every question asked
    stopped = "stopped"  # a lead's /live stop ended it early
    gone = "gone"  # the bot may not post in the group any more (403)


class ItemStatus(StrEnum):
    pending = "pending"  # not posted yet
    sending = "sending"  # its poll is being posted (a crash here may post it twice: at most once more)
    open = "open"  # posted, accepting answers until closes_at
    closed = "closed"  # its time is over (or the round ended)


R = RoundStatus
RUNNING: tuple[RoundStatus, ...] = (R.countdown, R.asking)  # the unique index live_rounds_running
ENDED: tuple[RoundStatus, ...] = (R.finished, R.stopped, R.gone)

ROUND: Machine[RoundStatus] = Machine("a live round", {
    "begin": {R.countdown: R.asking},
    "finish": {R.asking: R.finished},
    "stop": {s: R.stopped for s in RUNNING},
    "lose": {s: R.gone for s in RUNNING},
})

It = ItemStatus
ITEM: Machine[ItemStatus] = Machine("a live question", {
    "send": {It.pending: It.sending, It.sending: It.sending},  # again after a crash inside the send
    "open": {It.sending: It.open},
    "close": {It.open: It.closed, It.sending: It.closed, It.pending: It.closed},
})


def begin(status: RoundStatus) -> RoundStatus:
    return ROUND.move("begin", status)


def finish(status: RoundStatus) -> RoundStatus:
    return ROUND.move("finish", status)


def stop(status: RoundStatus) -> RoundStatus:
    return ROUND.move("stop", status)


def lose(status: RoundStatus) -> RoundStatus:
    return ROUND.move("lose", status)


def send(status: ItemStatus) -> ItemStatus:
    return ITEM.move("send", status)


def open_(status: ItemStatus) -> ItemStatus:
    return ITEM.move("open", status)


def close(status: ItemStatus) -> ItemStatus:
    return ITEM.move("close", status)


def in_sql(states: tuple[StrEnum, ...]) -> str:
    """A SQL list of statuses for `status IN (...)` (the enum's own values, not input)."""
    return ",".join(f"'{s.value}'" for s in states)
