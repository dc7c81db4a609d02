"""Settings read the environment over `.env` (names in any case), and values given to Settings first."""

from __future__ import annotations

from pathlib import Path

from bot.settings import Settings

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
