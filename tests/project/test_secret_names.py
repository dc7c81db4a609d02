"""Every place that filters secrets follows the settings' own rules (bot/settings.py): what a setting is
(pydantic-settings reads its name in any case), and what is secret (`secret_values`: every SecretStr,
and the password of a URL as the HTTP clients read it). Tied here, because the bank, whose child
processes must not inherit a setting, cannot import the bot's settings.

For every setting in every spelling: the children's environment (bank/child_process.py) drops it; a
secret it holds is masked by the settings' repr and str, and redacted from any log line that prints
the settings, their `model_dump()` or their JSON (bot/logging_setup.py)."""

from __future__ import annotations

import logging
import os
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from pydantic import SecretStr, ValidationError

from bank.child_process import child_env
from bot import logging_setup
from bot.settings import TOKEN, RecordSettings, Settings

SETTINGS = (RecordSettings, Settings)
ALIASES = sorted({info.alias for cls in SETTINGS for info in cls.model_fields.values() if info.alias})
A_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
# what a secret setting may hold; each has a part ("tail") that must never be shown
SECRETS = [
    ("987654321:tokenTailTokenTailTokenTail", "tokenTailTokenTail"),
    ("webhookTail-webhookTail-0123", "webhookTail-webhookTail"),
    ("http://ann:proxyTail-0123@proxy.example:3128", "proxyTail"),
    ("https://ann:p@ssTail-0123@api.example/bot", "ssTail"),  # '@' in the password: the last '@' ends it
    ("http://me@corp.example:corpTail-0123@proxy.example:3128", "corpTail"),  # '@' in the user name
    ("https://ann:a:colonTail-0123@desk.example", "colonTail"),
    ("postgresql://ann:dbTail-0123@db.example/proctor", "dbTail"),
]


def _spellings(alias: str) -> list[str]:
    mixed = "".join(c.lower() if i % 2 else c.upper() for i, c in enumerate(alias))
    return sorted({alias.upper(), alias.lower(), mixed, alias.title()})


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """No `.env` from the checkout, no setting from the test's own environment, no registered secret."""
    monkeypatch.chdir(tmp_path)
    for name in [n for n in os.environ if n.upper() in ALIASES]:
        monkeypatch.delenv(name)
    monkeypatch.setattr(logging_setup, "_secrets", {})
    return monkeypatch


def test_the_settings_read_their_names_in_any_case(clean):
    for cls in SETTINGS:
        assert cls.model_config.get("case_sensitive") is False
    for name in _spellings(TOKEN):
        clean.setenv(name, A_TOKEN)
        assert Settings().telegram_bot_token.get_secret_value() == A_TOKEN
        clean.delenv(name)


def test_the_children_get_no_setting_in_any_spelling(clean):
    for alias in ALIASES:
        for n, name in enumerate(_spellings(alias)):
            clean.setenv(name, f"canary-{alias}-{n}")
    env = child_env()
    assert [k for k in env if k.upper() in ALIASES] == []
    assert [v for v in env.values() if "canary-" in v] == []
    assert env["PATH"] == os.environ["PATH"], "what a child needs to run is still there"


def _logged(*shown: Any) -> str:
    """`shown` as a log line comes out of the root logger's handlers (redacted)."""
    record = logging.LogRecord("secret-names", logging.INFO, __file__, 0, " | ".join(["%s"] * len(shown)),
                               shown, None)
    logging_setup.RedactSecrets().filter(record)
    return record.getMessage()


def _held(settings: Settings, field: str, value: str) -> bool:
    """Whether `field` holds `value` as a secret: a SecretStr, or a URL with its password."""
    held = getattr(settings, field)
    if isinstance(held, SecretStr):
        return held.get_secret_value() == value
    password = urlsplit(value).password
    return password is not None and password in str(held)


def test_every_secret_a_setting_holds_is_masked_and_redacted_in_any_spelling(clean):
    holding = set()
    for field, info in Settings.model_fields.items():
        assert info.alias is not None
        for name in _spellings(info.alias):
            for value, tail in SECRETS:
                env = {name: value} if info.alias == TOKEN else {TOKEN: A_TOKEN, name: value}
                for key, v in env.items():
                    clean.setenv(key, v)
                try:
                    settings = Settings()
                except ValidationError:
                    continue  # this setting cannot hold it
                finally:
                    for key in env:
                        clean.delenv(key)
                if not _held(settings, field, value):
                    continue
                holding.add(field)
                what = f"{name}={value}"
                assert tail in " ".join(s.value for s in settings.secret_values()), f"{what}: not a secret"
                assert tail not in repr(settings) and tail not in str(settings), f"{what}: shown by repr/str"
                logging_setup.register_settings(settings)
                line = _logged(settings, repr(settings), settings.model_dump(), settings.model_dump_json(),
                               dict(settings), getattr(settings, field))
                assert tail not in line, f"{what}: in a log line"
    assert {"telegram_bot_token", "webhook_secret", "bot_api_proxy", "bot_api_url", "desk_url", "db"} <= holding


@pytest.mark.parametrize(("url", "password"), [
    ("https://ann:p@ssTail-0123@api.example/bot", "p@ssTail-0123"),
    ("http://me@corp.example:corpTail-0123@proxy.example:3128", "corpTail-0123"),
])
def test_the_password_is_what_the_http_client_sends(url, password):
    """What the secrets above assume: a URL's password is read as the HTTP client (httpx) reads it."""
    assert httpx.URL(url).password == urlsplit(url).password == password
