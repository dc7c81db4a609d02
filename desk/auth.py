"""Who is at the desk: Telegram Mini App initData, sessions, CSRF tokens.

initData is checked exactly as Telegram documents it (core.telegram.org/bots/webapps, "Validating
data received via the Mini App"): the data-check-string is every field but `hash`, as `key=value`
lines sorted by key; the secret key is HMAC-SHA256 of the bot token keyed with "WebAppData"; the
hash is the hex HMAC-SHA256 of the data-check-string under that secret key.

Sessions live in memory and last SESSION_SECONDS: they are short-lived, so losing them on a
restart only means the lead opens the desk again from Telegram. One-time login links and spent
initData are in SQLite (bank.desk_tokens), so a restart neither forgets a link nor allows a replay.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qsl

MAX_AGE = 3600  # initData older than this is stale
CLOCK_SKEW = 60  # an auth_date this far in the future is still accepted
SESSION_SECONDS = 3600
MAX_INIT_DATA = 4096


class BadInitData(Exception):
    """initData that is malformed, forged or stale; the message says which (never the data)."""


@dataclass(frozen=True)
class InitData:
    user_id: int
    first_name: str
    username: str | None
    language_code: str | None
    auth_date: int
    hash: str


def _secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def check_init_data(raw: str, bot_token: str, now: float, max_age: float = MAX_AGE) -> InitData:
    """The signed user of `raw`. Raises BadInitData if malformed, forged or stale."""
    if not raw or len(raw) > MAX_INIT_DATA:
        raise BadInitData("empty or too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise BadInitData("not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadInitData("a field appears twice")
    given = fields.get("hash", "")
    expected = hmac.new(_secret_key(bot_token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise BadInitData("bad signature")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise BadInitData("no auth_date or user") from None
    if now - auth_date > max_age or auth_date - now > CLOCK_SKEW:
        raise BadInitData("stale")
    return InitData(user_id=user_id, first_name=str(user.get("first_name", "")), username=user.get("username"),
                    language_code=user.get("language_code"), auth_date=auth_date, hash=given)


@dataclass
class Session:
    sid: str
    user_id: int
    csrf: str
    expires_at: float
    telegram_lang: str | None = None


class Sessions:
    """Short-lived sessions by random id, in memory (see the module docstring)."""

    def __init__(self, ttl: float = SESSION_SECONDS):
        self.ttl = ttl
        self._by_id: dict[str, Session] = {}

    def create(self, user_id: int, now: float, telegram_lang: str | None = None) -> Session:
        self._by_id = {k: s for k, s in self._by_id.items() if s.expires_at > now}
        s = Session(secrets.token_urlsafe(32), user_id, secrets.token_urlsafe(32), now + self.ttl, telegram_lang)
        self._by_id[s.sid] = s
        return s

    def get(self, sid: str | None, now: float) -> Session | None:
        s = self._by_id.get(sid or "")
        if s is None or s.expires_at <= now:
            self._by_id.pop(sid or "", None)
            return None
        return s

    def drop(self, sid: str) -> None:
        self._by_id.pop(sid, None)


def csrf_ok(session: Session, token: str | None) -> bool:
    return bool(token) and token is not None and hmac.compare_digest(session.csrf.encode(), token.encode())
