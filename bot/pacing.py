"""Sending at Telegram's pace: the bot's rate limiter (PTB's `BaseRateLimiter`, the documented seam
every Bot API call passes through).

Telegram allows a bot about 30 messages a second overall, about 1 a second in one chat (short
bursts pass) and 20 a minute in a group, and answers a 429 with `retry_after` above them. The bot
keeps under those limits itself, so Telegram has no reason to refuse:

- A send (a new message: `SENDS`) waits for a token of the overall bucket and of its chat's bucket
  (and its group's); an edit counts only in a group (a live round's standings). Deletes, edits in a
  private chat, callback answers and reads are not messages and are not paced.
- Three priorities: a **reply** (what a handler sends to the person who just acted: the next
  question) goes first; then a **patient** message (one nobody waits on to act: an invite's welcome card,
  before anyone's clock runs; the exam's five-minute warning; the handler or job asks for it with
  PTB's `rate_limit_args`, see `priority`); then **bulk** (the outbox's cards and notices). Patient
  messages and bulk leave one token of each bucket for replies, so a reply never waits behind them;
  with no replies waiting, they use the whole budget.
- The outbox takes a delivery's bulk turn before its sender renders (`bulk_turn`), and hands the
  sender the `Turn`: the sender passes it as `rate_limit_args` with its Bot API calls, so its first
  send to the chat uses the token already taken and any other send waits as bulk.
- A chat that is not ready (its own 1 a second) does not hold up the others: the next waiter whose
  chat is ready goes.
- A 429 blocks only the chat it was for, for its `retry_after`; the request is tried again then (up
  to `Pace.max_retries` times), and every other chat goes on.

`Schedule` is the policy and takes the time as a parameter (tests drive it with their own clock);
`Pacer` runs it on the event loop with one dispatcher task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import timedelta
from enum import IntEnum
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import Application, BaseRateLimiter

log = logging.getLogger(__name__)

Chat = int | str  # a chat id, or a channel's @username
JSONResult = Any  # what a Bot API call returns (bool | JSONDict | list[JSONDict] in PTB's terms)

# the methods that post a new message: what Telegram's limits count
SENDS = frozenset({
    "sendMessage", "sendPhoto", "sendDocument", "sendAudio", "sendVideo", "sendAnimation", "sendVoice",
    "sendVideoNote", "sendMediaGroup", "sendLocation", "sendVenue", "sendContact", "sendPoll", "sendDice",
    "sendSticker", "sendInvoice", "sendPaidMedia", "copyMessage", "copyMessages", "forwardMessage",
    "forwardMessages",
})
# in a group these count too (a live round edits its standings and stops its polls)
GROUP_EDITS = frozenset({
    "editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup",
    "editMessageLiveLocation", "stopMessageLiveLocation", "stopPoll",
})
_EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Pace:
    """The rates the bot keeps to; the defaults are Telegram's (a private chat's burst kept below
    what Telegram lets pass, so a late packet cannot turn a burst into a 429)."""

    per_second: float = 30.0
    burst: int = 3
    chat_per_second: float = 1.0
    chat_burst: int = 2
    group_per_minute: float = 20.0
    group_burst: int = 3
    max_retries: int = 3  # a 429 is tried again this many times (after its retry_after)


class Priority(IntEnum):
    reply = 0  # an answer to someone who just acted
    patient = 1  # nobody waits on it to act (an invite's welcome, the exam's warning): may wait for the replies
    bulk = 2  # the outbox: result cards, lead cards, notices


class Bucket:
    """`capacity` tokens refilled at `rate` a second."""

    __slots__ = ("at", "capacity", "rate", "tokens")

    def __init__(self, rate: float, capacity: int, now: float) -> None:
        self.rate, self.capacity, self.tokens, self.at = rate, capacity, float(capacity), now

    def wait(self, need: float, now: float) -> float:
        """Seconds until `need` tokens (at most the capacity) are there; 0 if they are now."""
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        missing = min(need, self.capacity) - self.tokens
        return 0.0 if missing <= _EPSILON else missing / self.rate

    def full(self, now: float) -> bool:
        return self.wait(self.capacity, now) == 0.0


def is_group(chat: Chat) -> bool:
    """Groups and channels have negative ids (or an @username); private chats positive ones."""
    return isinstance(chat, str) or chat < 0


@dataclass(eq=False)
class _Entry:
    key: object
    chat: Chat
    priority: Priority


@dataclass
class Schedule:
    """Who may send next and when, given what was sent: pure bookkeeping, times are parameters."""

    pace: Pace
    now: float
    _overall: Bucket = field(init=False)
    _chats: dict[Chat, Bucket] = field(default_factory=dict)
    _groups: dict[Chat, Bucket] = field(default_factory=dict)
    _blocked: dict[Chat, float] = field(default_factory=dict)  # chat -> until when a 429 holds it
    _queues: tuple[deque[_Entry], ...] = field(default_factory=lambda: tuple(deque() for _ in Priority))
    _granted: int = 0

    def __post_init__(self) -> None:
        self._overall = Bucket(self.pace.per_second, self.pace.burst, self.now)

    def add(self, key: object, chat: Chat, priority: Priority) -> None:
        """`key` waits for its turn to send to `chat` (first come, first served within a priority)."""
        self._queues[priority].append(_Entry(key, chat, priority))

    def drop(self, key: object) -> None:
        """`key` no longer waits (its request was cancelled)."""
        for queue in self._queues:
            for entry in queue:
                if entry.key is key:
                    queue.remove(entry)
                    return

    def waiting(self) -> int:
        return sum(map(len, self._queues))

    def block(self, chat: Chat, until: float) -> None:
        """A 429 for `chat`: nothing goes to it before `until`; other chats are not held."""
        self._blocked[chat] = max(until, self._blocked.get(chat, 0.0))

    def grant(self, now: float) -> tuple[list[object], float]:
        """The keys whose turn it is now (their tokens taken), replies first; and the seconds until
        the next could go (inf when nobody else waits)."""
        granted: list[object] = []
        soonest = math.inf
        for priority, queue in zip(Priority, self._queues, strict=True):
            reserve = 0 if priority == Priority.reply else 1  # the others leave a token for replies
            kept: deque[_Entry] = deque()
            while queue:
                overall = self._overall.wait(1 + reserve, now)
                if overall > 0:
                    soonest = min(soonest, overall)
                    break
                entry = queue.popleft()
                chat_wait = self._chat_wait(entry.chat, 1 + reserve, now)
                if chat_wait > 0:
                    soonest = min(soonest, chat_wait)
                    kept.append(entry)
                    continue
                self._take(entry.chat)
                granted.append(entry.key)
            kept.extend(queue)
            self._queues[priority].clear()
            self._queues[priority].extend(kept)
        self._granted += len(granted)
        if self._granted >= 1000:
            self._forget(now)
        return granted, soonest

    def _chat_wait(self, chat: Chat, need: float, now: float) -> float:
        wait = max(0.0, self._blocked.get(chat, 0.0) - now)
        wait = max(wait, self._bucket(self._chats, chat, self.pace.chat_per_second, self.pace.chat_burst, now).wait(need, now))
        if is_group(chat):
            wait = max(wait, self._bucket(self._groups, chat, self.pace.group_per_minute / 60,
                                          self.pace.group_burst, now).wait(need, now))
        return wait

    def _take(self, chat: Chat) -> None:
        self._overall.tokens -= 1
        self._chats[chat].tokens -= 1
        if is_group(chat):
            self._groups[chat].tokens -= 1

    @staticmethod
    def _bucket(buckets: dict[Chat, Bucket], chat: Chat, rate: float, capacity: int, now: float) -> Bucket:
        bucket = buckets.get(chat)
        if bucket is None:
            bucket = buckets[chat] = Bucket(rate, capacity, now)
        return bucket

    def _forget(self, now: float) -> None:
        """Drop what no longer holds anyone back (full buckets, 429s that passed): a round of a
        thousand chats leaves nothing behind."""
        self._granted = 0
        for buckets in (self._chats, self._groups):
            for chat in [c for c, b in buckets.items() if b.full(now)]:
                del buckets[chat]
        for chat in [c for c, until in self._blocked.items() if until <= now]:
            del self._blocked[chat]


@dataclass(eq=False)
class Turn:
    """An outbox delivery's turn at the pacer, which its sender passes as `rate_limit_args`: the
    first paced send to `chat` that carries it uses the token taken for it (`used` until then False),
    any other paced send that carries it waits as bulk. A turn made `used` took no token: every paced
    send that carries it waits as bulk."""

    chat: Chat
    used: bool = False

    def __bool__(self) -> bool:
        return True  # PTB drops a false rate_limit_args: a turn is always passed on


class Pacer(BaseRateLimiter[Priority | Turn]):
    """The Schedule on the event loop: one dispatcher task wakes the waiters whose turn it is."""

    def __init__(self, pace: Pace | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.pace = pace or Pace()
        self._clock = clock
        self._schedule = Schedule(self.pace, clock())
        self._wake = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._dispatcher
            self._dispatcher = None

    async def turn(self, chat: Chat, priority: Priority) -> None:
        """Wait until a message may go to `chat` (its tokens are then taken)."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._schedule.add(granted, chat, priority)
        self._wake.set()
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch(), name="pacer")
        try:
            await granted
        except asyncio.CancelledError:
            self._schedule.drop(granted)
            raise

    async def bulk_turn(self, chat: Chat) -> Turn:
        """Wait for a bulk turn to `chat` (the outbox renders a card only once it may go); the first
        send to `chat` that carries the Turn uses it."""
        await self.turn(chat, Priority.bulk)
        return Turn(chat)

    def block(self, chat: Chat, seconds: float) -> None:
        self._schedule.block(chat, self._clock() + seconds)
        self._wake.set()

    async def _dispatch(self) -> None:
        while self._schedule.waiting():
            self._wake.clear()
            granted, soonest = self._schedule.grant(self._clock())
            for future in granted:
                assert isinstance(future, asyncio.Future)
                if not future.done():
                    future.set_result(None)
            if not self._schedule.waiting():
                break
            with contextlib.suppress(TimeoutError):  # a new waiter or a 429 may change who is next
                await asyncio.wait_for(self._wake.wait(), None if math.isinf(soonest) else soonest)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Priority | Turn | None,
    ) -> JSONResult:
        chat = _chat_of(data.get("chat_id"))
        paced = chat is not None and (endpoint in SENDS or (endpoint in GROUP_EDITS and is_group(chat)))
        if isinstance(rate_limit_args, Turn):
            turn, priority = rate_limit_args, Priority.bulk
        else:
            turn, priority = None, rate_limit_args or Priority.reply
        tries = self.pace.max_retries
        for attempt in range(tries + 1):
            if paced and chat is not None:
                if turn is not None and turn.chat == chat and not turn.used and attempt == 0:
                    turn.used = True  # the outbox took this token before rendering
                else:
                    await self.turn(chat, priority)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as e:
                wait = seconds(e.retry_after)
                if attempt == tries:
                    raise
                log.info("429 for %s to chat %s: it waits %.0f s, other chats go on", endpoint, chat, wait)
                if paced and chat is not None:
                    self.block(chat, wait)
                else:
                    await asyncio.sleep(wait)
        raise AssertionError("unreachable: the last try returns or raises")


def _chat_of(value: object) -> Chat | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return value
    return None


def seconds(wait: int | timedelta) -> float:
    """A 429's retry_after in seconds: PTB's timedelta (the program opts into PTB_TIMEDELTA: bot.cli.main);
    a number only where a PTB object is read without that opt-in (a script building the bot itself)."""
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


def priority(app: Application, level: Priority) -> Priority | None:
    """What to pass as `rate_limit_args` (PTB's per-call argument of the rate limiter) to send at
    `level`; None when the application has no pacer (PTB refuses the argument then)."""
    return level if pacer(app) is not None else None


async def bulk_turn(app: Application, chat: Chat, *, take: bool = True) -> Turn | None:
    """The outbox's turn for a delivery to `chat`, what its sender passes as `rate_limit_args`: once
    the pacer grants it (`take`), else at once, taking no token (a sender that edits a message: a send
    it falls back to waits as bulk). None when the application has no pacer (PTB refuses the
    argument then)."""
    limiter = pacer(app)
    if limiter is None:
        return None
    return await limiter.bulk_turn(chat) if take else Turn(chat, used=True)


def pacer(app: Application) -> Pacer | None:
    """The application's pacer (None when it was built without one)."""
    limiter = app.bot.rate_limiter
    return limiter if isinstance(limiter, Pacer) else None
