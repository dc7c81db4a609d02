"""The method table: what a handler works on and how it registers under Bot API names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sandbox.fakeapi.limits import RateLimiter
from sandbox.fakeapi.state import BotState


@dataclass
class Api:
    """What a method implementation works on."""

    state: BotState
    limiter: RateLimiter


Handler = Callable[[Api, dict[str, Any]], Any | Awaitable[Any]]
METHODS: dict[str, tuple[str, Handler]] = {}  # lower-case name -> (canonical name, handler)


def method(*names: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        for name in names:
            METHODS[name.lower()] = (name, func)
        return func

    return register
