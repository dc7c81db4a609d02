"""Files the bot writes never replace a file silently: every Exam Proctor database and every backup
carries SQLite's application id (migration 038, proctor/storage/stamp.py); `proctor backup FILE`
replaces FILE only when it is such a backup, and `bank export -o` / `bank template -o` replace an
existing file only with --force."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from bank.errors import DatabaseUnusable
from bot.cli import main
from proctor.storage import backups
from proctor.storage.db import MIGRATIONS_DIR
from proctor.storage.stamp import APP_ID, FileKind, kind_of
from tests.proctor.test_upgrade import RELEASES, load_release
from tests.template_db import copy_migrated, copy_with_bundled_bank

# SQLite only: SQLite's file header (application_id) and files on disk
NOW = 1_796_300_000.0


def _app_id(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("PRAGMA application_id").fetchone()[0])
    finally:
        con.close()


def _foreign_db(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.execute("INSERT INTO notes VALUES ('mine')")
    con.commit()
    con.close()
    return path


async def _live(tmp_path: Path) -> Path:
    live = tmp_path / "p.db"
    await copy_migrated(live)
    return live


def test_the_stamp_the_migration_sets_is_the_one_the_code_reads():
    [sql] = MIGRATIONS_DIR.glob("*_app_stamp.sql")
    [value] = re.findall(r"PRAGMA application_id = (\d+);", sql.read_text(encoding="utf-8"))
    assert int(value) == APP_ID == int.from_bytes(b"PRCT", "big")


async def test_a_migrated_database_and_its_backup_are_stamped(tmp_path):
    live = await _live(tmp_path)
    assert _app_id(live) == APP_ID and kind_of(live) is FileKind.live
    backups.backup(live, tmp_path / "b.db")
    assert _app_id(tmp_path / "b.db") == APP_ID and kind_of(tmp_path / "b.db") is FileKind.backup


async def test_a_backup_of_a_database_older_than_the_stamp_is_stamped(tmp_path):
    dump, version = RELEASES["2026-12-05"]
    load_release(dump, tmp_path / "old.db")
    assert _app_id(tmp_path / "old.db") == 0
    copy = backups.backup(tmp_path / "old.db", tmp_path / "b.db")
    assert copy.version == version and kind_of(tmp_path / "b.db") is FileKind.backup


def _text(path: Path) -> Path:
    path.write_text("my notes\n")
    return path


def _empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


@pytest.mark.parametrize("make", [_text, _empty, _foreign_db], ids=["text", "empty", "another-sqlite-database"])
async def test_backup_refuses_an_existing_file_that_is_not_a_backup_in_one_line(tmp_path, capsys, monkeypatch,
                                                                                  make):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    live = await _live(tmp_path)
    target = make(tmp_path / "b.db")
    before = target.read_bytes()
    assert main(["--db", str(live), "backup", str(target)]) == 1
    assert capsys.readouterr().err == (f"proctor: {target} exists and is not an Exam Proctor backup; give the "
                                       f"backup another name, or remove that file first\n")
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db", "p.db"]  # no partial copy left


async def test_backup_refuses_another_bots_database(tmp_path):
    """The arguments swapped (`--db new.db backup data/proctor.db`): the target is a bot's own database
    (stamped, in WAL mode), never a backup, so it is left as it was."""
    live = await _live(tmp_path)
    other = tmp_path / "other.db"
    await copy_with_bundled_bank(other, NOW)
    con = sqlite3.connect(other)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    assert kind_of(other) is FileKind.live
    before = other.read_bytes()
    with pytest.raises(DatabaseUnusable, match="is a bot's own database, not a backup"):
        backups.backup(live, other)
    assert other.read_bytes() == before


async def test_backup_replaces_an_earlier_backup(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    live = await _live(tmp_path)
    target = tmp_path / "b.db"
    assert main(["--db", str(live), "backup", str(target)]) == 0
    con = sqlite3.connect(live)
    con.execute("INSERT INTO papers (slug, title, imported_at) VALUES ('new', 'New', 0)")
    con.commit()
    con.close()
    assert main(["--db", str(live), "backup", str(target)]) == 0
    con = sqlite3.connect(target)
    assert con.execute("SELECT title FROM papers").fetchall() == [("New",)]
    con.close()


@pytest.mark.parametrize("command", [["bank", "export"], ["bank", "export", "--format", "csv"],
                                     ["bank", "template", "--format", "csv"]])
def test_export_and_template_refuse_an_existing_file_unless_forced(tmp_path, capsys, monkeypatch, command):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    db = tmp_path / "p.db"
    asyncio.run(copy_with_bundled_bank(db, NOW))
    out = _text(tmp_path / "out.txt")
    assert main(["--db", str(db), *command, "-o", str(out)]) == 1
    said = capsys.readouterr()
    assert said.err == f"proctor: {out} exists; give --force to replace it, or another name\n" and said.out == ""
    assert out.read_text() == "my notes\n"
    assert main(["--db", str(db), *command, "-o", str(out), "--force"]) == 0
    assert out.read_text() != "my notes\n"
    out.unlink()
    assert main(["--db", str(db), *command, "-o", str(out)]) == 0 and out.stat().st_size > 0


def test_backup_and_restore_name_a_directory_given_for_a_file(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    live = tmp_path / "p.db"
    asyncio.run(copy_migrated(live))
    folder = tmp_path / "backups"
    folder.mkdir()
    assert main(["--db", str(live), "restore", str(folder)]) == 1
    assert capsys.readouterr().err == f"proctor: {folder} is a directory, not a backup file\n"
    assert main(["--db", str(live), "backup", str(folder)]) == 1
    assert capsys.readouterr().err == (f"proctor: {folder} is a directory; give the backup a file name, such as "
                                       f"{folder / 'proctor.db'}\n")
    assert list(folder.iterdir()) == []
