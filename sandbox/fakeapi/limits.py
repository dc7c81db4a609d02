"""Telegram-like flood limits (optional) and send counters for benchmarks."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

_EPSILON = 1e-9  # float refill must not turn 1 token into 0.9999…


@dataclass(frozen=True)
class RateLimits:
    """Limits as documented in the Bot FAQ; bursts approximate Telegram's leniency."""

    global_per_second: float = 30.0
    global_burst: int = 30
    chat_per_second: float = 1.0
    chat_burst: int = 3
    group_per_minute: float = 20.0
    group_burst: int = 5
    # edits (editMessageText, stopPoll) in a group count toward its limits too: Telegram does not say
    # they don't, and a live round that edits its standings must budget for them (bot/live)
    count_edits: bool = False


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second."""

    __slots__ = ("capacity", "rate", "tokens", "updated")

    def __init__(self, rate: float, capacity: int, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = float(capacity)
        self.updated = now

    def wait_time(self, now: float) -> float:
        """Seconds until one token is available (0 when it is available now)."""
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        return 0.0 if self.tokens >= 1 - _EPSILON else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


@dataclass
class SendStats:
    """What a benchmark reports: how much was sent, how fast, and how often it was refused."""

    sent: int = 0
    rejected: int = 0  # 429 answers, from the limiter or injected
    peak_per_second: int = 0
    first_at: float | None = None
    last_at: float | None = None
    per_chat: dict[int, list[float]] = field(default_factory=dict)
    _window: deque[float] = field(default_factory=deque, repr=False)

    def record(self, chat_id: int, now: float) -> None:
        self.sent += 1
        if self.first_at is None:
            self.first_at = now
        self.last_at = now
        self.per_chat.setdefault(chat_id, []).append(now)
        self._window.append(now)
        while self._window[0] <= now - 1.0:
            self._window.popleft()
        self.peak_per_second = max(self.peak_per_second, len(self._window))

    @property
    def average_per_second(self) -> float:
        if self.first_at is None or self.last_at is None or self.last_at <= self.first_at:
            return float(self.sent)
        return self.sent / (self.last_at - self.first_at)


class RateLimiter:
    """Counts every sent message; refuses with a retry_after only when `limits` is set."""

    def __init__(self, limits: RateLimits | None = None, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self.stats = SendStats()
        self._global: TokenBucket | None = None
        self._chats: dict[int, TokenBucket] = {}
        self._groups: dict[int, TokenBucket] = {}

    def admit(self, chat_id: int, is_group: bool) -> int:
        """Returns 0 and counts the send if allowed, else the retry_after seconds to answer."""
        now = self.clock()
        if self.limits is not None:
            buckets = self._buckets(chat_id, is_group, now)
            wait = max(bucket.wait_time(now) for bucket in buckets)
            if wait > 0:
                self.stats.rejected += 1
                return max(1, math.ceil(wait - _EPSILON))
            for bucket in buckets:
                bucket.take()
        self.stats.record(chat_id, now)
        return 0

    def admit_edit(self, chat_id: int, is_group: bool) -> int:
        """`admit` for an edit: counted only in a group and only when the limits say edits count."""
        if self.limits is None or not self.limits.count_edits or not is_group:
            return 0
        return self.admit(chat_id, is_group)

    def _buckets(self, chat_id: int, is_group: bool, now: float) -> list[TokenBucket]:
        limits = self.limits
        assert limits is not None
        if self._global is None:
            self._global = TokenBucket(limits.global_per_second, limits.global_burst, now)
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = TokenBucket(limits.chat_per_second, limits.chat_burst, now)
        buckets = [self._global, chat]
        if is_group:
            group = self._groups.get(chat_id)
            if group is None:
                group = self._groups[chat_id] = TokenBucket(
                    limits.group_per_minute / 60, limits.group_burst, now
                )
            buckets.append(group)
        return buckets
