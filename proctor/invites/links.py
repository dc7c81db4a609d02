"""An invite's link: its token (128 random bits, stored only as its SHA-256), the deep link's
`start` parameter, and the limit on guessed tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import deque

PREFIX = "inv_"
_PAYLOAD = re.compile(r"^inv_([A-Za-z0-9_-]{22})$")  # token_urlsafe(16): 22 characters, 128 bits


def new_token() -> str:
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def payload(token: str) -> str:
    """The `start` parameter: at most 64 characters of A-Z a-z 0-9 _ - (here 26)."""
    return PREFIX + token


def token_of(start_param: str) -> str | None:
    """The token in a `start` parameter, or None when it is not an invite's shape."""
    m = _PAYLOAD.match(start_param or "")
    return m.group(1) if m else None


def link(bot_username: str, token: str) -> str:
    return f"https://t.me/{bot_username}?start={payload(token)}"


class GuessLimiter:
    """Unknown tokens per user: after `limit` within `per` seconds, further tries are refused
    without looking (in memory: a restart forgives, the 128 bits still stand)."""

    def __init__(self, limit: int = 5, per: float = 600.0):
        self.limit, self.per = limit, per
        self._misses: dict[int, deque[float]] = {}

    def _recent(self, user_id: int, now: float) -> deque[float]:
        q = self._misses.setdefault(user_id, deque())
        while q and q[0] <= now - self.per:
            q.popleft()
        return q

    def allowed(self, user_id: int, now: float) -> bool:
        return len(self._recent(user_id, now)) < self.limit

    def missed(self, user_id: int, now: float) -> None:
        self._recent(user_id, now).append(now)
