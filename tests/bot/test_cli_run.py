"""`proctor run` refuses to start with one clear line: newer database, unreachable or refusing Bot API."""

import gc
import sqlite3

from bot.cli import main
from tests.harness import TOKEN


def _env(monkeypatch, url):
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("PROCTOR_BOT_API_URL", url)


def test_newer_database_is_refused_with_one_line(tmp_path, monkeypatch, capsys):
    db = tmp_path / "p.db"
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA user_version = 999")
    raw.commit()
    raw.close()
    _env(monkeypatch, "http://127.0.0.1:9/bot")
    assert main(["--db", str(db), "run"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "schema version 999" in err and "Traceback" not in err


def test_unreachable_bot_api_is_one_line(tmp_path, monkeypatch, capsys):
    _env(monkeypatch, "http://127.0.0.1:9/bot")  # nothing listens on port 9
    assert main(["--db", str(tmp_path / "p.db"), "run"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("proctor: cannot reach the Bot API") and err.count("\n") == 0
    assert TOKEN not in err and TOKEN.split(":")[1] not in err
    assert gc.isenabled()  # main keeps the collector off only while starting up


async def test_rejected_token_is_one_line(tmp_path, monkeypatch, capsys):
    import asyncio

    from sandbox.fakeapi import FakeBotApi

    async with FakeBotApi("999999:ANOTHER-token-the-server-knows") as api:
        _env(monkeypatch, api.base_url)
        code = await asyncio.to_thread(main, ["--db", str(tmp_path / "p.db"), "run"])
    assert code == 1
    err = capsys.readouterr().err.strip()
    assert "rejected TELEGRAM_BOT_TOKEN" in err and TOKEN not in err


def _newer(path):
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 999")
    raw.commit()
    raw.close()
    return path


def test_global_options_work_after_the_command_too(tmp_path, monkeypatch, capsys):
    """Before: `proctor run --db x.db` and `proctor run --log-level DEBUG` were refused by argparse."""
    import logging

    db = _newer(tmp_path / "p.db")
    _env(monkeypatch, "http://127.0.0.1:9/bot")
    httpx_log = logging.getLogger("httpx")
    monkeypatch.setattr(httpx_log, "level", httpx_log.level)  # restored after the test
    assert main(["run", "--db", str(db), "--log-level", "debug"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "schema version 999" in err  # the --db given after `run` was used
    assert httpx_log.level == logging.DEBUG  # DEBUG keeps httpx's request lines; INFO quiets them
    # after the command wins over before it; absent after it, the one before stays
    assert main(["--db", str(tmp_path / "other.db"), "bank", "stats", "--db", str(db)]) == 1
    assert "schema version 999" in capsys.readouterr().err
    assert main(["--db", str(db), "status"]) == 1
    assert "schema version 999" in capsys.readouterr().err


def test_sandbox_on_a_file_that_is_no_database_is_one_line(tmp_path, capsys):
    """Before: `proctor --db quiz.gift sandbox` (or a directory) ended in a DatabaseUnusable traceback."""
    gift = tmp_path / "quiz.gift"
    gift.write_text("::q:: Two plus two? {=four ~five}\n", encoding="utf-8")
    folder = tmp_path / "adir"
    folder.mkdir()
    for path, why in ((gift, "is not an SQLite database"), (folder, "is a directory")):
        assert main(["--db", str(path), "sandbox"]) == 1
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and err.startswith(f"proctor: {path} {why}"), err
    assert gift.read_text(encoding="utf-8").startswith("::q::")  # untouched
