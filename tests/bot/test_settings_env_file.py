"""Settings read the environment over `.env` (names in any case), and values given to Settings first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import RecordSettings, Settings, bad_setting, startup_error

TOKEN = "123456:TEST-fake-token-for-the-settings"


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """No `.env` from the checkout and no setting from the test's own environment."""
    monkeypatch.chdir(tmp_path)
    for name in [n for n in os.environ if n.upper().startswith(("PROCTOR_", "TELEGRAM_"))]:
        monkeypatch.delenv(name)
    return monkeypatch


def test_env_file_then_environment_then_given_values(tmp_path, clean):
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nproctor_language=zh\nPROCTOR_DAILY_QUESTIONS=7\n"
                                   "PROCTOR_ADMINS=1, 2\nUNRELATED=x\n", encoding="utf-8")
    s = Settings()
    assert (s.telegram_bot_token.get_secret_value(), s.language, s.daily_questions, s.admins) == \
        (TOKEN, "zh", 7, frozenset({1, 2}))
    clean.setenv("PROCTOR_DAILY_QUESTIONS", "9")
    assert Settings().daily_questions == 9  # the environment over .env
    assert Settings(PROCTOR_DAILY_QUESTIONS=3, PROCTOR_DB=tmp_path / "x.db").daily_questions == 3
    assert Settings().db == Path("data/proctor.db")


def test_the_env_files_quirks_are_read_as_before(tmp_path, clean):
    """What `.env` files in use hold: quotes of both kinds, `export`, comments on their own line and after
    a value, blank lines, CRLF line ends, a lower-case name; an empty value is unset."""
    (tmp_path / ".env").write_bytes(
        b"# the bot's settings\r\n"
        b"\r\n"
        b"export TELEGRAM_BOT_TOKEN='" + TOKEN.encode() + b"'\r\n"
        b'PROCTOR_TIMEZONE="Asia/Shanghai"   # the team is in Beijing\r\n'
        b"PROCTOR_DAILY_TIME=21:30 # after work\r\n"
        b"   \r\n"
        b"proctor_admins=5,6\r\n"
        b'PROCTOR_DB="data/my bot.db"\r\n'
        b"PROCTOR_DESK_URL=\r\n"
        b"PROCTOR_WEBHOOK_SECRET='abc-def_0123456789' # quoted, then a comment\r\n"
        b"PROCTOR_DESK_LISTEN='127.0.0.1 #inside the quotes'\r\n")
    s = Settings()
    assert s.telegram_bot_token.get_secret_value() == TOKEN
    assert (s.timezone, s.daily_time, s.admins, s.db, s.desk_url) == \
        ("Asia/Shanghai", "21:30", frozenset({5, 6}), Path("data/my bot.db"), None)
    assert s.webhook_secret is not None and s.webhook_secret.get_secret_value() == "abc-def_0123456789"
    assert s.desk_listen == "127.0.0.1 #inside the quotes"
    assert RecordSettings().db == Path("data/my bot.db")  # the record's settings read the same file


def test_the_environment_wins_over_the_env_file_in_any_case(tmp_path, clean):
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nPROCTOR_LANGUAGE=zh\nPROCTOR_DB=from-file.db\n",
                                   encoding="utf-8")
    clean.setenv("proctor_language", "en")
    clean.setenv("PROCTOR_DB", "from-env.db")
    s = Settings()
    assert (s.language, s.db) == ("en", Path("from-env.db"))
    assert RecordSettings().db == Path("from-env.db")
    assert RecordSettings(PROCTOR_DB="given.db").db == Path("given.db")  # `--db`: given, over both


def test_the_secrets_print_as_stars_and_settings_stay_as_read(tmp_path, clean):
    secret = "webhook-secret-" + "x" * 20
    s = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_WEBHOOK_SECRET=secret, PROCTOR_DB=tmp_path / "x.db")
    shown = f"{s!r} {s} {s.telegram_bot_token} {s.webhook_secret!r}"
    assert TOKEN not in shown and secret not in shown and "**********" in shown
    assert s.webhook_secret is not None and s.webhook_secret.get_secret_value() == secret
    with pytest.raises(ValidationError):
        s.db = tmp_path / "other.db"  # type: ignore[misc]
    moved = s.model_copy(update={"desk_port": 0})
    assert (moved.desk_port, s.desk_port, moved.telegram_bot_token) == (0, 8080, s.telegram_bot_token)
    # names in any case, as pydantic-settings matches them in the environment
    assert Settings(telegram_bot_token=TOKEN, proctor_desk_port=81).desk_port == 81


@pytest.mark.parametrize("name, value, attr", [
    ("PROCTOR_BOT_API_PROXY", "http://ann:s3cret-proxy@proxy.example:3128", "bot_api_proxy"),
    ("PROCTOR_BOT_API_URL", "https://ann:s3cret-api@api.example/bot", "bot_api_url"),
    ("PROCTOR_DESK_URL", "https://ann:s3cret-desk@desk.example", "desk_url"),
    ("PROCTOR_DB", "postgresql://ann:s3cret-db@db.example/proctor", "db"),
])
def test_a_password_inside_a_url_setting_is_masked_in_the_repr(clean, name, value, attr):
    s = Settings(TELEGRAM_BOT_TOKEN=TOKEN, **{name: value})
    shown = f"{s!r} {s}"
    assert "s3cret" not in shown and "ann:***@" in shown
    kept = getattr(s, attr)  # the value itself is kept whole (PROCTOR_DB's for psycopg alone)
    assert "s3cret" in (kept.conninfo() if attr == "db" else kept)
    assert [(x.setting, x.label, x.value) for x in s.secret_values() if x.label == "password"] == \
        [(name, "password", value.split(":")[2].split("@")[0])]


def test_the_secret_values_are_the_secret_fields_and_url_passwords(clean):
    s = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_WEBHOOK_SECRET="w" * 16,
                 PROCTOR_BOT_API_PROXY="http://u:pw@proxy.example", PROCTOR_DESK_URL="https://desk.example")
    assert sorted(s.secret_values()) == sorted([
        ("TELEGRAM_BOT_TOKEN", "token", TOKEN), ("TELEGRAM_BOT_TOKEN", "token", TOKEN.split(":")[1]),
        ("PROCTOR_WEBHOOK_SECRET", "webhook secret", "w" * 16), ("PROCTOR_BOT_API_PROXY", "password", "pw")])
    assert RecordSettings().secret_values() == []


@pytest.mark.parametrize("given, read", [
    ({"PROCTOR_WEBHOOK_PORT": "8443.0"}, ("webhook_port", 8443)),  # a whole number, as pydantic reads it
    ({"PROCTOR_DAILY_QUESTIONS": " 7 "}, ("daily_questions", 7)),
    ({"PROCTOR_SHUFFLE_OPTIONS": "Off"}, ("shuffle_options", False)),
    ({"PROCTOR_ADMINS": "1, 2,"}, ("admins", frozenset({1, 2}))),
    ({"PROCTOR_ADMINS": [3, 4]}, ("admins", frozenset({3, 4}))),
    ({"PROCTOR_WEBHOOK_SECRET": ""}, ("webhook_secret", None)),
    ({"PROCTOR_DESK_URL": "https://desk.example/"}, ("desk_url", "https://desk.example")),
    ({"PROCTOR_CJK_FONT": "/fonts/cjk.ttc"}, ("cjk_font", Path("/fonts/cjk.ttc"))),
])
def test_values_are_read_as_the_pydantic_settings_read_them(clean, given, read):
    attr, value = read
    assert getattr(Settings(TELEGRAM_BOT_TOKEN=TOKEN, **given), attr) == value


@pytest.mark.parametrize("given", [{"PROCTOR_DAILY_QUESTIONS": "5.5"}, {"PROCTOR_ADMINS": [1.5]},
                                   {"PROCTOR_DB": 5}, {"PROCTOR_WEBHOOK_PORT": "inf"}])
def test_a_value_that_is_not_one_is_an_error_naming_it(clean, given):
    with pytest.raises(ValidationError) as e:
        Settings(TELEGRAM_BOT_TOKEN=TOKEN, **given)
    assert bad_setting(e.value).name == next(iter(given))


@pytest.mark.parametrize("name, value", [
    ("PROCTOR_BOT_API_PROXY", "socks5://ann:s3cret-proxy@127.0.0.1:1080"),
    ("PROCTOR_WEBHOOK_SECRET", "s3cret with spaces in it"),
    ("PROCTOR_DAILY_QUESTIONS", "s3cret"),
])
def test_the_error_line_names_the_setting_and_never_its_value(clean, name, value):
    with pytest.raises(ValidationError) as e:
        Settings(TELEGRAM_BOT_TOKEN=TOKEN, **{name: value})
    line = startup_error(e.value)
    assert line.startswith(f"proctor: bad setting: {name}: ") and "s3cret" not in line and "\n" not in line


def test_an_empty_value_is_unset(tmp_path, clean):
    """pydantic-settings' env_ignore_empty: `NAME=` in `.env` or the environment leaves the default."""
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nPROCTOR_LANGUAGE=\nPROCTOR_BOT_API_FILE_URL=\n",
                                   encoding="utf-8")
    clean.setenv("PROCTOR_DB", "")
    s = Settings()
    assert (s.language, s.bot_api_file_url, s.db) == ("en", None, Path("data/proctor.db"))
