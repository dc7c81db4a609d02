"""Settings from the environment or `.env` (pydantic-settings).

Each setting is a field whose alias is its name in the environment. Values given to the constructor
come first, then the environment, then `.env` in the working directory; names match in any case
(pydantic-settings' `case_sensitive=False`), and an empty value counts as unset. `RecordSettings` holds
what every command needs (where the record is); `Settings`, the bot's, extends it. A bad value raises
pydantic's ValidationError: `startup_error` says it in one line that names the setting, never its value.

What is secret is one rule (`secret_values`): every SecretStr field's value, and the password inside any
setting that holds a URL (PROCTOR_DB's too: a `PostgresUrl`, which never shows it). Reprs mask by it and the logs redact by it (bot/logging_setup.py).

The one variable the program writes is python-telegram-bot's own, PTB_TIMEDELTA (`use_ptb_timedeltas`):
not a setting, but how PTB hands out durations, chosen by the program where it starts.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Any, NamedTuple

from pydantic import Field, PlainValidator, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from proctor.local_time import BadTime, BadTimezone, parse_hhmm, parse_timezone
from proctor.storage.db import DEFAULT_DB
from proctor.storage.location import DbLocation, PostgresUrl, parse_location

TOKEN = "TELEGRAM_BOT_TOKEN"
# said after the setting's name, so it does not name it again
TOKEN_HELP = ("Get one from @BotFather in Telegram (/newbot makes a bot, /token shows an existing bot's), set it "
              "in the environment or in .env, and run proctor run again (or try the bot without a token: "
              "proctor sandbox)")
# what _TOKEN checks, said to a person: Telegram's tokens are the bot's id, a colon and 35 such characters
TOKEN_SHAPE = ("a token is the bot's id (digits), a colon, and at least 20 letters, digits, - or _, "
               "like 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw")
_TOKEN = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{20,}$")
_WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,256}$")
_HTTP_URL = re.compile(r"^https?://[^\s]+$")
_DESK_URL = re.compile(r"^https?://[^/?#\s]+(/[^?#\s]*)?$")
# a password inside a URL, `scheme://user:password@host` (or `scheme:/`: a Path keeps one slash), read as
# httpx and urllib read it: the user info runs to the authority's last `@` (a user name or a password may
# hold an unescaped `@`), the password from the user info's first `:`
_URL_PASSWORD = re.compile(r'\b([A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^/?#\s"<>:]*:)([^/?#\s"<>]+)'
                           r'(?=@[^@/?#\s"<>]*(?:[/?#\s"<>]|$))')


def url_passwords(text: str) -> list[str]:
    """The password inside every URL in `text` (`http://user:password@host`)."""
    return [m.group(2) for m in _URL_PASSWORD.finditer(text)]


def mask_url_passwords(text: str, mask: str = "***") -> str:
    """`text` with the password inside every URL shown as `mask`: `http://u:***@host`."""
    return _URL_PASSWORD.sub(lambda m: m.group(1) + mask, text)


class Secret(NamedTuple):
    """A secret a setting holds: its setting's environment name, what a log shows in its place, the value."""

    setting: str
    label: str
    value: str


class RecordSettings(BaseSettings):
    """The settings every command reads: where the record is."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", case_sensitive=False,
                                      env_ignore_empty=True, extra="ignore", frozen=True)

    # a SQLite file's path or a postgresql:// URL, parsed here once (proctor/storage/location.py)
    db: Annotated[DbLocation, PlainValidator(parse_location)] = Field(DEFAULT_DB, alias="PROCTOR_DB")

    def secret_values(self) -> list[Secret]:
        """Every secret these settings hold: each SecretStr field's value (labelled by the field's title;
        the token's part after the bot id too, as it can stand alone), and the password inside any URL."""
        found = []
        for name, info in type(self).model_fields.items():
            setting, value = info.alias or name, getattr(self, name)
            if isinstance(value, SecretStr):
                text, label = value.get_secret_value(), info.title or setting
                found.append(Secret(setting, label, text))
                if setting == TOKEN:
                    found.append(Secret(setting, label, text.partition(":")[2]))
            elif isinstance(value, PostgresUrl):  # its str shows `***`: the password is asked of it
                found += [Secret(setting, "password", password) for password in value.passwords]
            elif value is not None:
                found += [Secret(setting, "password", password) for password in url_passwords(str(value))]
        return found

    def __repr_args__(self) -> Any:
        # SecretStr prints as stars itself; a URL's password is masked here
        for name, value in super().__repr_args__():
            if isinstance(value, str | Path) and url_passwords(str(value)):
                value = type(value)(mask_url_passwords(str(value)))
            yield name, value


class Settings(RecordSettings):
    """The bot's settings, read and checked once, then frozen. `Settings(PROCTOR_DB=...)`: given values by
    their environment names. Raises ValidationError (`startup_error` says it in one line)."""

    telegram_bot_token: SecretStr = Field(alias=TOKEN, title="token")
    admins: Annotated[frozenset[int], NoDecode] = Field(frozenset(), alias="PROCTOR_ADMINS")
    timezone: str = Field("UTC", alias="PROCTOR_TIMEZONE")
    language: str = Field("en", alias="PROCTOR_LANGUAGE")
    bot_api_url: str = Field("https://api.telegram.org/bot", alias="PROCTOR_BOT_API_URL")
    bot_api_file_url: str | None = Field(None, alias="PROCTOR_BOT_API_FILE_URL")
    bot_api_proxy: str | None = Field(None, alias="PROCTOR_BOT_API_PROXY")  # unset: direct
    shuffle_options: bool = Field(True, alias="PROCTOR_SHUFFLE_OPTIONS")
    daily_time: str = Field("09:00", alias="PROCTOR_DAILY_TIME")
    daily_questions: int = Field(5, alias="PROCTOR_DAILY_QUESTIONS")
    webhook_secret: SecretStr | None = Field(None, alias="PROCTOR_WEBHOOK_SECRET", title="webhook secret")
    webhook_listen: str = Field("0.0.0.0", alias="PROCTOR_WEBHOOK_LISTEN")
    webhook_port: int = Field(8443, alias="PROCTOR_WEBHOOK_PORT")
    desk_url: str | None = Field(None, alias="PROCTOR_DESK_URL")  # the desk's public base URL; unset: no desk
    desk_port: int = Field(8080, alias="PROCTOR_DESK_PORT")
    desk_listen: str = Field("127.0.0.1", alias="PROCTOR_DESK_LISTEN")
    cjk_font: Path | None = Field(None, alias="PROCTOR_CJK_FONT")  # unset: proctor.teams.charts.CJK_FONTS

    @field_validator("telegram_bot_token")
    @classmethod
    def _token_shape(cls, v: SecretStr) -> SecretStr:
        token = v.get_secret_value().strip()
        if not _TOKEN.match(token):
            raise ValueError(TOKEN_SHAPE)
        return SecretStr(token)

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, v: SecretStr | None) -> SecretStr | None:
        # Telegram's alphabet; 16 characters at least, so it is a secret (and redacting it in logs cannot
        # mangle ordinary words)
        if v is None or not v.get_secret_value():
            return None  # unset: a random one is made at start-up
        if not _WEBHOOK_SECRET.match(v.get_secret_value()):
            raise ValueError("16 to 256 characters of A-Z, a-z, 0-9, _ and -")
        return v

    @field_validator("admins", mode="before")
    @classmethod
    def _split_admins(cls, v: Any) -> Any:
        if not isinstance(v, str):
            return v  # a caller's collection: pydantic reads its items
        try:
            return frozenset(int(x) for x in v.replace(" ", "").split(",") if x)
        except ValueError:
            raise ValueError("Telegram user ids separated by commas, such as 12345,67890") from None

    @field_validator("desk_url")
    @classmethod
    def _desk_url(cls, v: str | None) -> str | None:
        if not v:
            return None
        if not _DESK_URL.match(v):
            raise ValueError("an http(s) URL without query or fragment")
        return v.rstrip("/")

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        lang = v.strip().lower().replace("_", "-")
        if lang not in ("en", "zh") and not lang.startswith(("en-", "zh-")):
            raise ValueError("en or zh")
        return lang[:2]

    @field_validator("daily_time")
    @classmethod
    def _daily_time(cls, v: str) -> str:
        try:
            return parse_hhmm(v).strftime("%H:%M")  # the one time-of-day rule (proctor/local_time.py)
        except BadTime:
            raise ValueError("a time of day such as 09:00") from None

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, v: str) -> str:
        try:
            return parse_timezone(v).key
        except BadTimezone:
            raise ValueError("an IANA time zone such as UTC or Asia/Shanghai") from None

    @field_validator("daily_questions")
    @classmethod
    def _daily_questions(cls, v: int) -> int:
        if not 1 <= v <= 20:
            raise ValueError("a number from 1 to 20")
        return v

    @field_validator("webhook_port", "desk_port")
    @classmethod
    def _port(cls, v: int) -> int:
        if not 1 <= v <= 65535:
            raise ValueError("a port from 1 to 65535")
        return v

    @field_validator("bot_api_url", "bot_api_file_url", "bot_api_proxy")
    @classmethod
    def _api_url(cls, v: str | None) -> str | None:
        if v is not None and not _HTTP_URL.match(v):
            raise ValueError("an http(s) URL")
        return v


class BadSetting(NamedTuple):
    """The first bad setting of a ValidationError: its environment name and the problem, never its value."""

    name: str
    problem: str
    missing: bool


def bad_setting(e: ValidationError) -> BadSetting:
    """The first error of `e`, from pydantic's errors without their input."""
    first = e.errors(include_input=False, include_url=False)[0]
    name = str(first["loc"][0]) if first["loc"] else "settings"
    return BadSetting(name, str(first["msg"]).removeprefix("Value error, "), first["type"] == "missing")


def startup_error(e: ValidationError) -> str:
    """One line for a bad setting, naming it once (never its value: it may be a secret)."""
    bad = bad_setting(e)
    if bad.name == TOKEN:
        what = "is missing" if bad.missing else f"is malformed: {TOKEN_SHAPE}"
        return f"proctor: {TOKEN} {what}. {TOKEN_HELP}"
    return f"proctor: bad setting: {bad.name}: {bad.problem}"


def use_ptb_timedeltas() -> None:
    """python-telegram-bot's durations (a 429's retry_after, ...) as timedelta, the form its next major
    version keeps, with no deprecation warning: PTB reads PTB_TIMEDELTA whenever it hands one out, so
    this runs where the program starts, before any PTB object is built (bot.cli.main)."""
    os.environ["PTB_TIMEDELTA"] = "1"
