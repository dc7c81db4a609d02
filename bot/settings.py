"""Settings from the environment or `.env`: the fields' names in the environment, case-insensitively,
over `.env` in the working directory; values given to `Settings(...)` come first. Each value is read and
checked by its field's reader; the first bad one raises SettingError naming the setting, never its value.

A plain class, not a pydantic model: pydantic's import and first schema were ~0.2 s of a ~1 s cold start
(issue 23, docs/benchmarks.md), and `proctor run` answers its first /exam without pydantic
(tests/bot/test_cold_start_imports.py). `Secret` keeps what pydantic's SecretStr kept: the token and the
webhook secret print as stars and are read only through get_secret_value()."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.local_time import BadTime, BadTimezone, parse_hhmm, parse_timezone

TOKEN_HELP = ("Get a token from @BotFather in Telegram (/newbot makes a bot, /token shows an existing bot's), "
              "then run: TELEGRAM_BOT_TOKEN=<the token> proctor run (or try the bot without a token: proctor sandbox)")
# what _TOKEN checks, said to a person: Telegram's tokens are the bot's id, a colon and 35 such characters
TOKEN_SHAPE = ("a token is the bot's id (digits), a colon, and at least 20 letters, digits, - or _, "
               "like 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw")
_TOKEN = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{20,}$")
_WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,256}$")
_HTTP_URL = re.compile(r"^https?://[^\s]+$")
_DESK_URL = re.compile(r"^https?://[^/?#\s]+(/[^?#\s]*)?$")

ENV_FILE = ".env"


class Secret:
    """A secret setting's value: stars in every repr, str and log line; the value only through
    get_secret_value() (the name pydantic's SecretStr gave it)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __str__(self) -> str:
        return "**********"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


class SettingError(ValueError):
    """A setting is missing or cannot be read; `name` is its environment name (its value is never named:
    it may be a secret)."""

    def __init__(self, name: str, problem: str, *, missing: bool = False) -> None:
        super().__init__(f"{name}: {problem}")
        self.name, self.problem, self.missing = name, problem, missing


def _from_env_file() -> dict[str, str | None]:
    if not Path(ENV_FILE).is_file():
        return {}
    from dotenv import dotenv_values  # load time: only when there is a `.env` to read

    return dict(dotenv_values(ENV_FILE, encoding="utf-8"))


def setting(name: str) -> str | None:
    """One setting's raw value as Settings reads it (the environment's over `.env`'s, names matched
    case-insensitively), for commands that need no other: `proctor bank ...` reads PROCTOR_DB so."""
    found = None
    for source in (_from_env_file(), os.environ):
        for key, value in source.items():
            if key.upper() == name and value is not None:
                found = value
    return found


# the readers: a raw value (text from the environment, or what a caller gave) to the field's value;
# a ValueError's text says what was expected


def _text(v: Any) -> str:
    return str(v)


def _number(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    text = str(v).strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        whole = float(text)  # "8443.0", as pydantic's settings took it
    except ValueError:
        whole = 0.5
    if not whole.is_integer():
        raise ValueError("not a number")
    return int(whole)


_TRUE, _FALSE = {"1", "true", "t", "yes", "y", "on"}, {"0", "false", "f", "no", "n", "off"}


def _yes_no(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    word = str(v).strip().lower()
    if word not in _TRUE | _FALSE:
        raise ValueError("expected true or false")
    return word in _TRUE


def _token(v: Any) -> Secret:
    token = (v.get_secret_value() if isinstance(v, Secret) else str(v)).strip()
    if not _TOKEN.match(token):
        raise ValueError(TOKEN_SHAPE)
    return Secret(token)


def _webhook_secret(v: Any) -> Secret | None:
    # Telegram's alphabet; 16 characters at least, so it is a secret (and redacting it in logs cannot
    # mangle ordinary words)
    secret = v.get_secret_value() if isinstance(v, Secret) else str(v)
    if not secret:
        return None  # unset: a random one is made at start-up
    if not _WEBHOOK_SECRET.match(secret):
        raise ValueError("16 to 256 characters of A-Z, a-z, 0-9, _ and -")
    return Secret(secret)


def _admins(v: Any) -> frozenset[int]:
    ids = v.replace(" ", "").split(",") if isinstance(v, str) else v
    try:
        return frozenset(_number(x) for x in ids if x != "")
    except (TypeError, ValueError):
        raise ValueError("Telegram user ids separated by commas, such as 12345,67890") from None


def _desk_url(v: Any) -> str | None:
    if not v:
        return None
    if not _DESK_URL.match(str(v)):
        raise ValueError("PROCTOR_DESK_URL: an http(s) URL without query or fragment")
    return str(v).rstrip("/")


def _language(v: Any) -> str:
    lang = str(v).strip().lower().replace("_", "-")
    if lang not in ("en", "zh") and not lang.startswith(("en-", "zh-")):
        raise ValueError("en or zh")
    return lang[:2]


def _daily_time(v: Any) -> str:
    try:
        return parse_hhmm(str(v)).strftime("%H:%M")  # the one time-of-day rule (proctor/local_time.py)
    except BadTime:
        raise ValueError("a time of day such as 09:00") from None


def _timezone(v: Any) -> str:
    try:
        return parse_timezone(str(v)).key
    except BadTimezone:
        raise ValueError("an IANA time zone such as UTC or Asia/Shanghai") from None


def _daily_questions(v: Any) -> int:
    if not 1 <= (n := _number(v)) <= 20:
        raise ValueError("a number from 1 to 20")
    return n


def _port(v: Any) -> int:
    if not 1 <= (n := _number(v)) <= 65535:
        raise ValueError("a port from 1 to 65535")
    return n


def _api_url(v: Any) -> str:
    if not _HTTP_URL.match(str(v)):
        raise ValueError("an http(s) URL")
    return str(v)


REQUIRED = object()


@dataclass(frozen=True)
class Field:
    """One setting: its attribute, its name in the environment, its default and its reader."""

    attr: str
    env: str
    default: Any
    read: Callable[[Any], Any]


FIELDS = (
    Field("telegram_bot_token", "TELEGRAM_BOT_TOKEN", REQUIRED, _token),
    Field("db", "PROCTOR_DB", Path("data/proctor.db"), Path),
    Field("admins", "PROCTOR_ADMINS", frozenset(), _admins),
    Field("timezone", "PROCTOR_TIMEZONE", "UTC", _timezone),
    Field("language", "PROCTOR_LANGUAGE", "en", _language),
    Field("bot_api_url", "PROCTOR_BOT_API_URL", "https://api.telegram.org/bot", _api_url),
    Field("bot_api_file_url", "PROCTOR_BOT_API_FILE_URL", None, _api_url),
    Field("bot_api_proxy", "PROCTOR_BOT_API_PROXY", None, _api_url),  # unset: direct
    Field("shuffle_options", "PROCTOR_SHUFFLE_OPTIONS", True, _yes_no),
    Field("daily_time", "PROCTOR_DAILY_TIME", "09:00", _daily_time),
    Field("daily_questions", "PROCTOR_DAILY_QUESTIONS", 5, _daily_questions),
    Field("webhook_secret", "PROCTOR_WEBHOOK_SECRET", None, _webhook_secret),
    Field("webhook_listen", "PROCTOR_WEBHOOK_LISTEN", "0.0.0.0", _text),
    Field("webhook_port", "PROCTOR_WEBHOOK_PORT", 8443, _port),
    Field("desk_url", "PROCTOR_DESK_URL", None, _desk_url),  # the desk's public base URL; unset: no desk
    Field("desk_port", "PROCTOR_DESK_PORT", 8080, _port),
    Field("desk_listen", "PROCTOR_DESK_LISTEN", "127.0.0.1", _text),
)
_BY_ENV = {f.env: f for f in FIELDS}


class Settings:
    """The bot's settings, read and checked once, then frozen. `Settings(PROCTOR_DB=...)`: the given
    values (by their environment names) over the environment's over `.env`'s. Raises SettingError."""

    telegram_bot_token: Secret
    db: Path
    admins: frozenset[int]
    timezone: str
    language: str
    bot_api_url: str
    bot_api_file_url: str | None
    bot_api_proxy: str | None
    shuffle_options: bool
    daily_time: str
    daily_questions: int
    webhook_secret: Secret | None
    webhook_listen: str
    webhook_port: int
    desk_url: str | None
    desk_port: int
    desk_listen: str

    def __init__(self, **given: Any) -> None:
        if unknown := set(given) - set(_BY_ENV):
            raise TypeError(f"Settings() takes settings' environment names, not {sorted(unknown)}")
        values: dict[str, Any] = {}
        for source in (_from_env_file(), os.environ):
            for key, value in source.items():
                if (f := _BY_ENV.get(key.upper())) is not None and value is not None:
                    values[f.env] = value
        values |= given
        for f in FIELDS:
            raw = values.get(f.env)
            if raw is None and f.default is REQUIRED:
                raise SettingError(f.env, "missing", missing=True)
            try:
                value = f.default if raw is None else f.read(raw)
            except ValueError as e:
                raise SettingError(f.env, str(e)) from None
            except TypeError:  # a caller's value of the wrong type (PROCTOR_DB=5)
                raise SettingError(f.env, "a value of another type") from None
            object.__setattr__(self, f.attr, value)

    def replace(self, **changes: Any) -> Settings:
        """A copy with some attributes changed as given, unchecked (tests: a desk on port 0)."""
        copy = object.__new__(Settings)
        for f in FIELDS:
            object.__setattr__(copy, f.attr, changes.pop(f.attr, getattr(self, f.attr)))
        if changes:
            raise TypeError(f"no such settings: {sorted(changes)}")
        return copy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("settings are read once, at start-up")

    def __repr__(self) -> str:
        return "Settings(" + ", ".join(f"{f.attr}={getattr(self, f.attr)!r}" for f in FIELDS) + ")"


def startup_error(e: SettingError) -> str:
    """One line for a bad setting, naming it (never its value: it may be a secret)."""
    if e.name == "TELEGRAM_BOT_TOKEN":
        what = "is missing" if e.missing else f"is malformed: {TOKEN_SHAPE}"
        return f"proctor: TELEGRAM_BOT_TOKEN {what}. {TOKEN_HELP}"
    return f"proctor: bad setting: {e.name}: {e.problem}"
