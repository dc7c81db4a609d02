"""What a round does next, decided from its stored state and the time: a pure function.

The bot's one job per round (bot/live/jobs.py) asks `next_step`, does it, and asks again until the
answer is to wait; a restart asks the same question of the same rows, so it goes on from where it was.

Pacing (Telegram: 20 messages a minute per group). A question costs at most three calls to the
group: its poll, the standings edit after it, and a stopPoll when the bot closes it late (after a
restart). Counting all three as messages, a question needs 9 s of the group's minute, so the next
poll waits `gap(T)` after the last one closed: at least MIN_GAP, and long enough that a question's
whole cycle (T + gap) is 9 s or more. With T >= 10 every cycle is >= 13 s: any minute holds at most
five questions (10-15 calls) plus the countdown and the podium.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from proctor.live.model import Item, Round
from proctor.live.states import ItemStatus, RoundStatus

COUNTDOWN = 5.0  # seconds from /live to the first poll: time to get ready, short enough to wait for
GROUP_PER_MINUTE = 20
CALLS_PER_QUESTION = 3  # poll, standings edit, a late stopPoll
MIN_GAP = 3.0  # seconds between a poll's close and the next poll: time to read the standings
LATE_CLOSE = 1.0  # a poll closed this late (a restart) is stopped with stopPoll: Telegram's may lag


def gap(seconds: int) -> float:
    """Seconds between a poll's close and the next poll, so a question's cycle fits the group's limit."""
    return max(MIN_GAP, CALLS_PER_QUESTION * 60 / GROUP_PER_MINUTE - seconds)


class Act(StrEnum):
    announce = "announce"  # send the countdown message
    begin = "begin"  # the countdown is over: start asking
    send = "send"  # post item `pos`'s poll
    close = "close"  # item `pos`'s time is over: close it, edit the standings
    finish = "finish"  # every question closed
    podium = "podium"  # post the podium
    wait = "wait"  # nothing is due before `at`
    done = "done"  # nothing left to do


@dataclass(frozen=True, slots=True)
class Next:
    act: Act
    pos: int | None = None
    at: float | None = None


def next_step(r: Round, items: Sequence[Item], now: float) -> Next:
    """The round's next step at `now`."""
    if r.ended:
        return Next(Act.podium) if not r.podium_posted and r.status != RoundStatus.gone else Next(Act.done)
    if r.status == RoundStatus.countdown:
        if not r.announced:
            return Next(Act.announce)
        return Next(Act.wait, at=r.starts_at) if now < r.starts_at else Next(Act.begin)
    ready = r.starts_at
    for item in items:
        match item.status:
            case ItemStatus.closed:
                ready = (item.closed_at if item.closed_at is not None else now) + gap(r.seconds)
            case ItemStatus.open:
                assert item.closes_at is not None, "an open poll has its closing time"
                return Next(Act.close, item.pos) if now >= item.closes_at else Next(Act.wait, item.pos, item.closes_at)
            case ItemStatus.sending:
                return Next(Act.send, item.pos)
            case ItemStatus.pending:
                return Next(Act.send, item.pos) if now >= ready else Next(Act.wait, item.pos, ready)
    return Next(Act.finish)


def closes_late(item: Item, now: float) -> bool:
    """Is the bot closing this poll well after its time (a restart)? Then it says so with stopPoll."""
    return item.closes_at is not None and now - item.closes_at > LATE_CLOSE
