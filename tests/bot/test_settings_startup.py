"""Every setting is checked at start-up: a bad value stops `proctor run` with one line naming it.
The time of day and the zone are read by the same rule as `/daily on` and `/digest`."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.settings import Settings
from proctor.local_time import BadTime, looks_like_time, parse_hhmm
from proctor.teams.digest import BadSchedule, parse_schedule

TOKEN = "123456:TEST-fake-token-for-the-settings"


@pytest.fixture
def clean_env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    for name in ("TELEGRAM_BOT_TOKEN", "PROCTOR_DAILY_TIME", "PROCTOR_TIMEZONE", "PROCTOR_LANGUAGE",
                 "PROCTOR_DAILY_QUESTIONS", "PROCTOR_WEBHOOK_PORT", "PROCTOR_DESK_PORT", "PROCTOR_ADMINS",
                 "PROCTOR_BOT_API_URL", "PROCTOR_SHUFFLE_OPTIONS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PROCTOR_DB", str(tmp_path / "p.db"))
    return monkeypatch


@pytest.mark.parametrize("name, value", [
    ("PROCTOR_DAILY_TIME", "25:00"), ("PROCTOR_DAILY_TIME", "nine"), ("PROCTOR_TIMEZONE", "Mars/Base"),
    ("PROCTOR_TIMEZONE", "../etc/passwd"), ("PROCTOR_LANGUAGE", "fr"), ("PROCTOR_DAILY_QUESTIONS", "0"),
    ("PROCTOR_DAILY_QUESTIONS", "many"), ("PROCTOR_WEBHOOK_PORT", "70000"), ("PROCTOR_ADMINS", "ann"),
    ("PROCTOR_BOT_API_URL", "ftp://x"), ("PROCTOR_SHUFFLE_OPTIONS", "maybe"),
])
def test_a_bad_setting_stops_run_with_one_line_naming_it(clean_env, capsys, tmp_path, name, value):
    clean_env.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    clean_env.setenv(name, value)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    [line] = err.strip().splitlines()
    assert line.startswith(f"proctor: bad setting: {name}: "), line
    assert "Traceback" not in err and "pydantic" not in err and TOKEN not in err
    assert not (tmp_path / "p.db").exists()


@pytest.mark.parametrize("token, says", [(None, "is missing"), ("abc", "is malformed")])
def test_the_token_line_says_missing_or_malformed(clean_env, capsys, token, says):
    if token:
        clean_env.setenv("TELEGRAM_BOT_TOKEN", token)
    assert main(["run"]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"proctor: TELEGRAM_BOT_TOKEN {says}") and "BotFather" in line


@pytest.mark.parametrize("token", ["123456:your-token", "123456:ABC...", "abc:" + "x" * 30, "123456" + "x" * 30])
def test_a_malformed_token_is_told_what_a_token_looks_like(clean_env, capsys, token):
    """Before: the README's own placeholder got "malformed (expected digits:letters…)", naming a rule it met."""
    clean_env.setenv("TELEGRAM_BOT_TOKEN", token)
    assert main(["run"]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("proctor: TELEGRAM_BOT_TOKEN is malformed: a token is the bot's id (digits), a colon, "
                           "and at least 20 letters, digits, - or _, like 123456789:"), line
    assert "@BotFather" in line and "/newbot" in line and "digits:letters" not in line
    assert token not in line  # a secret, even a wrong one, is never echoed


def test_good_settings_are_normalised(clean_env):
    s = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DAILY_TIME="21.30", PROCTOR_TIMEZONE="Asia/Shanghai",
                 PROCTOR_LANGUAGE="zh_CN")
    assert (s.daily_time, s.timezone, s.language) == ("21:30", "Asia/Shanghai", "zh")


@pytest.mark.parametrize("text", ["21.30", "21:30", "9:05", "21：30", "9h05", "24:00", "21-30", "2130", "9:5"])
def test_one_time_of_day_rule_for_settings_daily_and_digest(clean_env, text):
    """Before: `/daily on` took 21.30 and `/digest` refused it."""
    try:
        expected = parse_hhmm(text).strftime("%H:%M")
    except BadTime:
        expected = None
    try:
        setting = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DAILY_TIME=text).daily_time
    except Exception:
        setting = None
    try:
        digest = parse_schedule(["mon", text])[1]
    except BadSchedule:
        digest = None
    assert setting == digest == expected
    assert looks_like_time(text) == (expected is not None)
    assert (expected is not None) == (text in ("21.30", "21:30", "9:05", "21：30", "9h05"))



@pytest.mark.parametrize("name, value", [
    ("TELEGRAM_BOT_TOKEN", None), ("TELEGRAM_BOT_TOKEN", "abc"), ("PROCTOR_DAILY_TIME", "nine"),
    ("PROCTOR_DESK_PORT", "abc"), ("PROCTOR_ADMINS", "ann"), ("PROCTOR_WEBHOOK_SECRET", "short"),
])
def test_a_bad_settings_line_names_it_once(clean_env, capsys, name, value):
    """Before: "TELEGRAM_BOT_TOKEN is missing. Get a token …, then run: TELEGRAM_BOT_TOKEN=<the token> proctor run"."""
    if name != "TELEGRAM_BOT_TOKEN":
        clean_env.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    if value is not None:
        clean_env.setenv(name, value)
    assert main(["run"]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.count(name) == 1, line
