"""Settings from the environment or `.env`: a pydantic model over the environment's values.

Not pydantic-settings: its import (~12 ms, its many sources) was a share of every cold start, and this
reads just what it read: the fields' names in the environment, case-insensitively, over `.env` in
the working directory; values given to `Settings(...)` come first."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from proctor.local_time import BadTime, BadTimezone, parse_hhmm, parse_timezone

TOKEN_HELP = ("Get a token from @BotFather in Telegram (/newbot makes a bot, /token shows an existing bot's), "
              "then run: TELEGRAM_BOT_TOKEN=<the token> proctor run (or try the bot without a token: proctor sandbox)")
# what _TOKEN checks, said to a person: Telegram's tokens are the bot's id, a colon and 35 such characters
TOKEN_SHAPE = ("a token is the bot's id (digits), a colon, and at least 20 letters, digits, - or _, "
               "like 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw")
_TOKEN = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{20,}$")
_WEBHOOK_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,256}$")


ENV_FILE = ".env"


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


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    telegram_bot_token: SecretStr = Field(validation_alias="TELEGRAM_BOT_TOKEN")
    db: Path = Field(Path("data/proctor.db"), validation_alias="PROCTOR_DB")
    admins: frozenset[int] = Field(frozenset(), validation_alias="PROCTOR_ADMINS")
    timezone: str = Field("UTC", validation_alias="PROCTOR_TIMEZONE")
    language: str = Field("en", validation_alias="PROCTOR_LANGUAGE")
    bot_api_url: str = Field("https://api.telegram.org/bot", validation_alias="PROCTOR_BOT_API_URL")
    bot_api_file_url: str | None = Field(None, validation_alias="PROCTOR_BOT_API_FILE_URL")
    bot_api_proxy: str | None = Field(None, validation_alias="PROCTOR_BOT_API_PROXY")  # unset: direct
    shuffle_options: bool = Field(True, validation_alias="PROCTOR_SHUFFLE_OPTIONS")
    daily_time: str = Field("09:00", validation_alias="PROCTOR_DAILY_TIME")
    daily_questions: int = Field(5, validation_alias="PROCTOR_DAILY_QUESTIONS")
    webhook_secret: SecretStr | None = Field(None, validation_alias="PROCTOR_WEBHOOK_SECRET")
    webhook_listen: str = Field("0.0.0.0", validation_alias="PROCTOR_WEBHOOK_LISTEN")
    webhook_port: int = Field(8443, validation_alias="PROCTOR_WEBHOOK_PORT")
    desk_url: str | None = Field(None, validation_alias="PROCTOR_DESK_URL")  # public base URL; unset: no desk
    desk_port: int = Field(8080, validation_alias="PROCTOR_DESK_PORT")
    desk_listen: str = Field("127.0.0.1", validation_alias="PROCTOR_DESK_LISTEN")

    @model_validator(mode="before")
    @classmethod
    def _environment(cls, given: Any) -> Any:
        """The given values over the environment's over `.env`'s (names matched case-insensitively)."""
        if not isinstance(given, dict):
            return given
        names = {str(f.validation_alias).upper(): str(f.validation_alias) for f in cls.model_fields.values()}
        values: dict[str, Any] = {}
        for source in (_from_env_file(), os.environ):
            for key, value in source.items():
                if (name := names.get(key.upper())) is not None and value is not None:
                    values[name] = value
        return values | given

    @field_validator("telegram_bot_token")
    @classmethod
    def _token_shape(cls, v: SecretStr) -> SecretStr:
        if not _TOKEN.match(v.get_secret_value().strip()):
            raise ValueError("malformed token")
        return SecretStr(v.get_secret_value().strip())

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, v: SecretStr | None) -> SecretStr | None:
        # Telegram's alphabet; 16 characters at least, so it is a secret (and redacting it in logs
        # cannot mangle ordinary words)
        if v is None or not v.get_secret_value():
            return None  # unset: a random one is made at start-up
        if not _WEBHOOK_SECRET.match(v.get_secret_value()):
            raise ValueError("16 to 256 characters of A-Z, a-z, 0-9, _ and -")
        return v

    @field_validator("admins", mode="before")
    @classmethod
    def _split_admins(cls, v):
        if isinstance(v, str):
            return frozenset(int(x) for x in v.replace(" ", "").split(",") if x)
        return v

    @field_validator("desk_url")
    @classmethod
    def _desk_url(cls, v: str | None) -> str | None:
        if not v:
            return None
        if not re.match(r"^https?://[^/?#\s]+(/[^?#\s]*)?$", v):
            raise ValueError("PROCTOR_DESK_URL: an http(s) URL without query or fragment")
        return v.rstrip("/")

    @field_validator("language")
    @classmethod
    def _lang(cls, v: str) -> str:
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
        if v is not None and not re.match(r"^https?://[^\s]+$", v):
            raise ValueError("an http(s) URL")
        return v


def startup_error(e: ValidationError) -> str:
    """One line for a bad setting, naming it (never its value: it may be a secret)."""
    err = e.errors()[0]
    name = str(err["loc"][0]) if err["loc"] else "settings"
    if name == "TELEGRAM_BOT_TOKEN":
        what = "is missing" if err["type"] == "missing" else f"is malformed: {TOKEN_SHAPE}"
        return f"proctor: TELEGRAM_BOT_TOKEN {what}. {TOKEN_HELP}"
    msg = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] in ("int_parsing", "bool_parsing"):
        msg = "not a number" if err["type"] == "int_parsing" else "expected true or false"
    return f"proctor: bad setting: {name}: {msg}"
