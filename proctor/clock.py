"""Time is a parameter: code that decides what is due takes `now`; only jobs read a Clock."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (UTC)."""


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock the tests move."""

    def __init__(self, start: float):
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t

    def set(self, t: float) -> None:
        self.t = float(t)


class ShiftedClock:
    """The system clock moved forward by hand (the sandbox's `/tick 1h`): time still runs."""

    def __init__(self, offset: float = 0.0):
        self.offset = float(offset)

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> float:
        self.offset += seconds
        return self.now()
