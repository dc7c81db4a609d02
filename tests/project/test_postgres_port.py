"""docs/postgres-port.md and proctor/storage/postgres_port.py agree on which modules' SQL runs on
PostgreSQL; every module that runs SQL is in the list; no ported module holds a construct only SQLite
takes; and the bot refuses a PostgreSQL URL, in one line naming what is missing, until none is left."""

from __future__ import annotations

import re
from pathlib import Path

from bot.cli import main
from proctor.storage import postgres_port

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bank", "proctor", "bot", "desk", "sandbox")
RUNS_SQL = re.compile(r"\.(execute|executemany|fetchall|fetchone|scalar)\(")
# SQL only SQLite takes; bank/store.py is the one home of the per-engine forms
SQLITE_ONLY = re.compile(
    r"json_each\(|json_tree\(|json_group_array\(|json_valid\(|printf\(|(?<![.\w])strftime\(|\bTOTAL\(|INDEXED BY"
    r"|INSERT OR |REPLACE INTO|group_concat\(|\bIS NOT \?|\bIS \?|PRAGMA |sqlite_(?:schema|master)|json_array_length\("
    r"|WHERE 0\b|\binstr\(|\bGLOB\b|julianday\(|\biif\(|lastrowid|\bIS (?:NOT )?[a-z]+\.[a-z_]+\b")
ENGINE = {"proctor/storage/db.py", "proctor/storage/postgres.py"}  # the engines themselves


def _listed(section: str) -> list[str]:
    text = (REPO / "docs" / "postgres-port.md").read_text(encoding="utf-8")
    part = text.split(f"\n## {section}")[1].split("\n## ")[0]
    return re.findall(r"^- `([\w/]+\.py)`", part, re.M)


def _runs_sql() -> set[str]:
    return {p.relative_to(REPO).as_posix() for package in PACKAGES for p in (REPO / package).rglob("*.py")
            if "fakeapi" not in p.parts and RUNS_SQL.search(p.read_text(encoding="utf-8"))}


def test_every_module_that_runs_sql_is_listed_once():
    ported, not_yet, files = _listed("Ported"), _listed("Not yet"), _listed("One engine only")
    everything = ported + not_yet + files
    assert len(everything) == len(set(everything))
    assert set(everything) == _runs_sql()
    assert tuple(not_yet) == postgres_port.NOT_YET


def test_no_ported_module_holds_sql_only_sqlite_takes():
    found = {}
    for module in set(_listed("Ported")) - ENGINE:
        lines = (REPO / module).read_text(encoding="utf-8").splitlines()
        if hits := [f"{n}: {m.group()}" for n, line in enumerate(lines, 1) if not line.lstrip().startswith("#")
                    for m in SQLITE_ONLY.finditer(line)]:
            found[module] = hits
    assert not found


def test_the_check_finds_what_only_sqlite_takes():
    for sql in ("SELECT value FROM json_each(?)", "INSERT OR IGNORE INTO t", "WHERE a IS ?", "x INDEXED BY i",
                "b.paper_id IS a.paper_id", "TOTAL(points)", "SELECT NULL WHERE 0"):
        assert SQLITE_ONLY.search(sql), sql
    for sql in ("WHERE a IS NULL", "a IS NOT DISTINCT FROM b", "ON CONFLICT DO NOTHING", "dt.strftime('%H')"):
        assert not SQLITE_ONLY.search(sql), sql


def _run_on_a_url(capsys, monkeypatch, tmp_path) -> str:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:" + "A" * 35)
    monkeypatch.setenv("PROCTOR_DB", "postgresql://ann:s3cret-pw@127.0.0.1:1/proctor")
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "s3cret" not in err
    return err


def test_the_bot_refuses_a_postgresql_url_naming_what_is_missing(capsys, monkeypatch, tmp_path):
    missing = ("proctor/teams/reports.py", "proctor/live/board.py")  # a list not yet complete
    monkeypatch.setattr(postgres_port, "NOT_YET", missing)
    err = _run_on_a_url(capsys, monkeypatch, tmp_path)
    assert err.startswith("proctor: the bot does not run on PostgreSQL yet: ")
    assert all(module in err for module in missing) and "docs/postgres-port.md" in err


def test_with_every_module_ported_the_bot_goes_on_to_open_the_database(capsys, monkeypatch, tmp_path):
    assert postgres_port.unported() is None  # the list is complete
    err = _run_on_a_url(capsys, monkeypatch, tmp_path)
    assert "postgresql://ann:***@127.0.0.1:1/proctor cannot be opened" in err  # nobody listens there
