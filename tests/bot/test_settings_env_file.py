"""Settings read the environment over `.env` (names in any case), and values given to Settings first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.settings import SettingError, Settings

TOKEN = "123456:TEST-fake-token-for-the-settings"


def test_env_file_then_environment_then_given_values(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_BOT_TOKEN", "PROCTOR_LANGUAGE", "PROCTOR_DAILY_QUESTIONS", "PROCTOR_ADMINS", "PROCTOR_DB"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nproctor_language=zh\nPROCTOR_DAILY_QUESTIONS=7\n"
                                   "PROCTOR_ADMINS=1, 2\nUNRELATED=x\n", encoding="utf-8")
    s = Settings()
    assert (s.telegram_bot_token.get_secret_value(), s.language, s.daily_questions, s.admins) == \
        (TOKEN, "zh", 7, frozenset({1, 2}))
    monkeypatch.setenv("PROCTOR_DAILY_QUESTIONS", "9")
    assert Settings().daily_questions == 9  # the environment over .env
    assert Settings(PROCTOR_DAILY_QUESTIONS=3, PROCTOR_DB=tmp_path / "x.db").daily_questions == 3
    assert Settings().db == Path("data/proctor.db")


def test_the_secrets_print_as_stars_and_settings_stay_as_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in [n for n in os.environ if n.upper().startswith(("PROCTOR_", "TELEGRAM_"))]:
        monkeypatch.delenv(name)
    secret = "webhook-secret-" + "x" * 20
    s = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_WEBHOOK_SECRET=secret, PROCTOR_DB=tmp_path / "x.db")
    shown = f"{s!r} {s.telegram_bot_token} {s.webhook_secret!r}"
    assert TOKEN not in shown and secret not in shown and "**********" in shown
    assert s.webhook_secret is not None and s.webhook_secret.get_secret_value() == secret
    with pytest.raises(AttributeError):
        s.db = tmp_path / "other.db"  # type: ignore[misc]
    moved = s.replace(desk_port=0)
    assert (moved.desk_port, s.desk_port, moved.telegram_bot_token) == (0, 8080, s.telegram_bot_token)
    with pytest.raises(TypeError):
        Settings(TELEGRAM_BOT_TOKEN=TOKEN, telegram_bot_token=TOKEN)  # the environment's names, as documented


@pytest.mark.parametrize("given, read", [
    ({"PROCTOR_WEBHOOK_PORT": "8443.0"}, ("webhook_port", 8443)),  # a whole number, as pydantic took it
    ({"PROCTOR_DAILY_QUESTIONS": " 7 "}, ("daily_questions", 7)),
    ({"PROCTOR_SHUFFLE_OPTIONS": "Off"}, ("shuffle_options", False)),
    ({"PROCTOR_ADMINS": "1, 2,"}, ("admins", frozenset({1, 2}))),
    ({"PROCTOR_ADMINS": [3, 4]}, ("admins", frozenset({3, 4}))),
    ({"PROCTOR_WEBHOOK_SECRET": ""}, ("webhook_secret", None)),
    ({"PROCTOR_DESK_URL": "https://desk.example/"}, ("desk_url", "https://desk.example")),
])
def test_values_are_read_as_the_pydantic_settings_read_them(tmp_path, monkeypatch, given, read):
    monkeypatch.chdir(tmp_path)
    attr, value = read
    assert getattr(Settings(TELEGRAM_BOT_TOKEN=TOKEN, **given), attr) == value


@pytest.mark.parametrize("given", [{"PROCTOR_DAILY_QUESTIONS": "5.5"}, {"PROCTOR_ADMINS": [1.5]},
                                   {"PROCTOR_DB": 5}, {"PROCTOR_WEBHOOK_PORT": "inf"}])
def test_a_value_that_is_not_one_is_a_setting_error_naming_it(tmp_path, monkeypatch, given):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SettingError) as e:
        Settings(TELEGRAM_BOT_TOKEN=TOKEN, **given)
    assert e.value.name == next(iter(given))
