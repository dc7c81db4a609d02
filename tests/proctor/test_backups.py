"""`proctor backup` / `proctor restore` on files: what a backup holds, what a restore refuses and
keeps, an older backup migrated. With a running bot: tests/process/test_backup_process.py."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bank.errors import DatabaseTooNew, DatabaseUnusable
from bot.cli import main
from proctor.storage import backups
from proctor.storage.db import Database
from tests.proctor.test_upgrade import FIXTURES, load_release

# SQLite only: SQLite file backups (test_pg_backups.py has PostgreSQL's)
NOW = 1_796_300_000.0  # 2026-12-03 ...


async def _db(path: Path, marker: str) -> Path:
    """A migrated database whose one paper's title is `marker`."""
    db = await Database.open(path)

    def transaction(conn):
        conn.execute("INSERT INTO papers (slug, title, imported_at) VALUES (?, ?, 0)",
                     (marker, marker))

    await db.run_write(transaction)
    await db.close()
    return path


def _titles(path: Path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[0] for r in con.execute("SELECT title FROM papers ORDER BY id")]
    finally:
        con.close()


def _version(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("PRAGMA user_version").fetchone()[0])
    finally:
        con.close()


async def test_backup_is_one_checked_file_and_restore_puts_it_back_keeping_the_replaced(tmp_path):
    live = await _db(tmp_path / "p.db", "before")
    copy = backups.backup(live, tmp_path / "b.db")
    assert copy.version == backups.known_version() and copy.size == (tmp_path / "b.db").stat().st_size
    assert not (tmp_path / "b.db-wal").exists() and [p.name for p in tmp_path.glob(".*")] == []

    db = await Database.open(live)

    def transaction(conn):
        conn.execute("UPDATE papers SET title = 'after'")

    await db.run_write(transaction)
    await db.close()

    done = await backups.restore(tmp_path / "b.db", live, NOW)
    assert _titles(live) == ["before"]
    assert done.kept is not None and done.kept.name.startswith("p.db.before-restore-")
    assert _titles(done.kept) == ["after"]
    again = await backups.restore(tmp_path / "b.db", live, NOW)  # the same second: a second kept file
    assert again.kept != done.kept and _titles(again.kept) == ["before"]


async def test_restore_onto_no_database_creates_it_and_keeps_nothing(tmp_path):
    backup = await _db(tmp_path / "b.db", "only")
    done = await backups.restore(backup, tmp_path / "new" / "p.db", NOW)
    assert done.kept is None and _titles(tmp_path / "new" / "p.db") == ["only"]


async def test_restore_over_a_file_that_is_no_database_keeps_it_and_replaces_it(tmp_path):
    backup = await _db(tmp_path / "b.db", "good")
    live = tmp_path / "p.db"
    live.write_bytes(b"scrambled" * 1000)
    (tmp_path / "p.db-wal").write_bytes(b"stale wal")
    done = await backups.restore(backup, live, NOW)
    assert _titles(live) == ["good"] and done.kept.read_bytes() == b"scrambled" * 1000
    assert not (tmp_path / "p.db-wal").exists()


async def test_an_older_backup_is_migrated_on_restore(tmp_path):
    old = tmp_path / "old.db"
    load_release(FIXTURES / "release_2026_12_03.sql", old)
    live = await _db(tmp_path / "p.db", "current")
    done = await backups.restore(old, live, NOW)
    assert (done.from_version, done.version) == (25, backups.known_version())
    assert _version(live) == backups.known_version()
    assert _version(old) == 25, "the backup file itself is not changed"


async def _damaged(path: Path) -> Path:
    await _db(path, "x")
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("CREATE TABLE filler (x)")
    con.executemany("INSERT INTO filler (x) VALUES (randomblob(3000))", [()] * 50)
    con.commit()
    con.close()
    data = bytearray(path.read_bytes())
    data[len(data) // 2: len(data) // 2 + 4096] = b"\xff" * 4096  # a page in the middle overwritten
    path.write_bytes(bytes(data))
    return path


async def _newer(path: Path) -> Path:
    await _db(path, "x")
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {backups.known_version() + 1}")
    con.close()
    return path


async def _foreign(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE papers (id)")  # an SQLite file, but not ours
    con.close()
    return path


async def _text(path: Path) -> Path:
    path.write_text("not a database")
    return path


@pytest.mark.parametrize(("make", "error", "says"), [
    (_text, DatabaseUnusable, "is not an SQLite database"),
    (_foreign, DatabaseUnusable, "not an Exam Proctor one"),
    (_newer, DatabaseTooNew, "upgrade Exam Proctor first"),
    (_damaged, DatabaseUnusable, "is damaged"),
])
async def test_restore_refuses_a_bad_backup_and_leaves_the_database_as_it_was(tmp_path, make, error, says):
    live = await _db(tmp_path / "p.db", "live")
    before = live.read_bytes()
    bad = await make(tmp_path / "bad.db")
    with pytest.raises(error, match=says):
        await backups.restore(bad, live, NOW)
    assert live.read_bytes() == before and _titles(live) == ["live"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.db", "p.db"]


async def test_restore_refuses_while_the_database_is_open(tmp_path):
    live = await _db(tmp_path / "p.db", "live")
    backup = backups.backup(live, tmp_path / "b.db").path
    db = await Database.open(live)  # as the bot holds it, from start to stop
    try:
        with pytest.raises(backups.BotRunning, match="stop the bot first"):
            await backups.restore(backup, live, NOW)
    finally:
        await db.close()
    assert not list(tmp_path.glob("p.db.before-restore-*"))


@pytest.mark.parametrize("make", [_damaged, _newer])
async def test_backup_of_a_bad_database_keeps_the_previous_backup(tmp_path, make):
    previous = backups.backup(await _db(tmp_path / "good.db", "good"), tmp_path / "b.db").path
    with pytest.raises((DatabaseUnusable, DatabaseTooNew)):
        backups.backup(await make(tmp_path / "p.db"), previous)
    assert _titles(previous) == ["good"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db", "good.db", "p.db"]


def test_cli_says_what_went_wrong_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    assert main(["--db", str(tmp_path / "none.db"), "backup", str(tmp_path / "b.db")]) == 1
    assert capsys.readouterr().err == f"proctor: {tmp_path / 'none.db'}: no database there (give it with --db or PROCTOR_DB)\n"
    (tmp_path / "t.txt").write_text("hello")
    assert main(["--db", str(tmp_path / "p.db"), "restore", str(tmp_path / "t.txt")]) == 1
    assert capsys.readouterr().err == f"proctor: {tmp_path / 't.txt'} is not an SQLite database (or is encrypted)\n"
    assert not (tmp_path / "p.db").exists()


def test_cli_backs_up_and_restores(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    live = asyncio.run(_db(tmp_path / "p.db", "live"))
    assert main(["--db", str(live), "backup", str(tmp_path / "b.db")]) == 0
    assert capsys.readouterr().out.startswith(f"backed up {live} to {tmp_path / 'b.db'}: ")
    assert main(["--db", str(live), "restore", str(tmp_path / "b.db")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"restored {tmp_path / 'b.db'} to {live}: schema version ") and "before-restore-" in out


async def test_a_backup_in_small_steps_under_constant_writes_finishes_with_the_state_of_one_commit(tmp_path):
    """Each commit by another connection would restart a stepped copy from its first page; the copy's
    read snapshot lets it finish while the writes go on, holding exactly the rows of one commit."""
    live = await _db(tmp_path / "p.db", "x")
    db = await Database.open(live)

    def transaction(conn):  # about 1 MB of papers, so that the copy takes many steps
        conn.executemany("INSERT INTO papers (slug, title, imported_at) VALUES (?, hex(randomblob(1500)), 0)",
                         [(f"filler-{i}",) for i in range(300)])

    await db.run_write(transaction)
    written, stop = 0, asyncio.Event()

    def tick(conn: sqlite3.Connection, n: int) -> None:
        conn.execute("INSERT INTO papers (slug, title, imported_at) VALUES (?, 'tick', ?)", (f"tick-{n}", n))

    async def write_until_stopped() -> None:
        nonlocal written
        while not stop.is_set():
            await db.run_write(lambda conn, n=written: tick(conn, n))
            written += 1

    writer = asyncio.create_task(write_until_stopped())
    try:
        while written < 5:
            await asyncio.sleep(0.01)  # lets the writer commit a few before the copy starts
        before = written
        copying = asyncio.create_task(asyncio.to_thread(backups.backup, live, tmp_path / "b.db",
                                                        step_pages=4, pause=0.001))
        finished, _ = await asyncio.wait({copying}, timeout=20)
        after = written
    finally:
        stop.set()
        await writer
    await copying
    await db.close()
    assert finished, "the copy kept restarting under the writes"
    con = sqlite3.connect(tmp_path / "b.db")
    ticks = [int(r[0]) for r in con.execute("SELECT imported_at FROM papers WHERE title = 'tick' ORDER BY 1")]
    con.close()
    assert ticks == list(range(len(ticks))) and before <= len(ticks) < after
