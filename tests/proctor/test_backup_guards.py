"""What `proctor backup` and `proctor restore` refuse to touch and how they create files: never the
live database's own files (links resolved), copies no one else can read whatever the umask, and
backups whose schema is not the one their version makes."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bank.errors import DatabaseUnusable
from bot.cli import main
from proctor.storage import backups
from proctor.storage.db import Database
from tests.proctor.test_backups import NOW, _db, _titles
from tests.proctor.test_upgrade import RELEASES, load_release


@contextmanager
# SQLite only: SQLite file backups: links, umask, a file's schema (test_pg_backups.py has PostgreSQL's)
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- the live database's own files -----------------------------------------------------------------

@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
@pytest.mark.parametrize("spelled", ["plain", "dotdot", "symlink"])
async def test_backup_onto_the_live_database_or_its_companions_is_refused(tmp_path, suffix, spelled):
    (tmp_path / "data").mkdir()
    live = await _db(tmp_path / "data" / "p.db", "live")
    db = await Database.open(live)  # the bot running: its -wal and -shm are there
    try:
        await db.run_write(lambda conn: conn.execute("UPDATE papers SET title = 'in the wal'"))
        companion = live.with_name(live.name + suffix)
        if suffix == "-journal":
            companion.write_bytes(b"")  # a rollback journal's name: refused whether it is there or not
        target = {"plain": companion,
                  "dotdot": tmp_path / "data" / ".." / "data" / companion.name,
                  "symlink": tmp_path / "link.db"}[spelled]
        if spelled == "symlink":
            target.symlink_to(companion)
        before = {p.name: p.read_bytes() for p in live.parent.iterdir()}
        with pytest.raises(DatabaseUnusable, match="the live database") as e:
            backups.backup(live, target)
        assert "\n" not in str(e.value) and "give the backup another name" in str(e.value)
        if suffix in ("", "-wal"):
            assert {p.name: p.read_bytes() for p in live.parent.iterdir() if p.name.endswith(("db", "-wal"))} \
                == {k: v for k, v in before.items() if k.endswith(("db", "-wal"))}
    finally:
        await db.close()
    assert _titles(live) == ["in the wal"], "every committed row is still there"


async def test_a_hard_link_to_the_live_database_is_refused(tmp_path):
    live = await _db(tmp_path / "p.db", "live")
    os.link(live, tmp_path / "same.db")
    with pytest.raises(DatabaseUnusable, match="is the live database itself"):
        backups.backup(live, tmp_path / "same.db")


async def test_the_cli_refuses_a_backup_onto_the_live_wal_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PROCTOR_DB", raising=False)
    live = await _db(tmp_path / "p.db", "live")
    db = await Database.open(live)
    try:
        await db.run_write(lambda conn: conn.execute("UPDATE papers SET title = 'in the wal'"))
        wal = tmp_path / "p.db-wal"
        before = wal.read_bytes()
        assert await asyncio.to_thread(main, ["--db", str(live), "backup", str(wal)]) == 1
        assert capsys.readouterr().err == (f"proctor: {wal} is the live database's -wal file; "
                                           f"give the backup another name\n")
        assert wal.read_bytes() == before
    finally:
        await db.close()
    assert _titles(live) == ["in the wal"]


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
async def test_restore_from_the_live_databases_companions_is_refused(tmp_path, suffix):
    live = await _db(tmp_path / "p.db", "live")
    companion = tmp_path / f"p.db{suffix}"
    backups.backup(live, companion.with_name("b.db"))
    os.replace(companion.with_name("b.db"), companion)  # even one that holds a good database
    (tmp_path / "link.db").symlink_to(companion)
    for source in (companion, tmp_path / "link.db", tmp_path / ".." / tmp_path.name / companion.name):
        with pytest.raises(DatabaseUnusable, match=f"is the live database's {suffix} file"):
            await backups.restore(source, live, NOW)
    assert _titles(live) == ["live"] and not list(tmp_path.glob("p.db.before-restore-*"))


# -- permissions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("umask", [0o000, 0o022])
@pytest.mark.parametrize(("live_mode", "copy_mode"), [(0o644, 0o600), (0o600, 0o600), (0o640, 0o640)])
async def test_backups_and_kept_copies_are_as_private_as_the_live_file_whatever_the_umask(
        tmp_path, umask, live_mode, copy_mode):
    live = await _db(tmp_path / "p.db", "live")
    live.chmod(live_mode)
    with _umask(umask):
        copy = backups.backup(live, tmp_path / "b.db").path
        assert _mode(copy) == copy_mode
        done = await backups.restore(copy, live, NOW)
    assert done.kept is not None and _mode(done.kept) == copy_mode
    assert _mode(live) == live_mode, "a restore into the live database keeps its mode"


@pytest.mark.parametrize("umask", [0o000, 0o022])
async def test_a_restore_over_a_broken_file_keeps_it_and_its_wal_privately(tmp_path, umask):
    backup = await _db(tmp_path / "b.db", "good")
    backup.chmod(0o644)
    live = tmp_path / "p.db"
    live.write_bytes(b"scrambled" * 1000)
    live.chmod(0o644)
    (tmp_path / "p.db-wal").write_bytes(b"stale wal")
    with _umask(umask):
        done = await backups.restore(backup, live, NOW)
    kept_wal = done.kept.with_name(done.kept.name + "-wal")
    assert kept_wal.read_bytes() == b"stale wal"
    assert (_mode(done.kept), _mode(kept_wal), _mode(live)) == (0o600, 0o600, 0o600)
    assert _titles(live) == ["good"]


async def test_a_restore_onto_no_database_creates_it_privately(tmp_path):
    backup = await _db(tmp_path / "b.db", "good")
    with _umask(0):
        await backups.restore(backup, tmp_path / "p.db", NOW)
    assert _mode(tmp_path / "p.db") == 0o600


# -- the schema of the backup's own version ---------------------------------------------------------

def _alter(path: Path, *statements: str) -> Path:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        for sql in statements:
            con.execute(sql)
    finally:
        con.close()
    return path


_TRIGGER = "CREATE TRIGGER daily_scores_insert AFTER INSERT ON daily_answers BEGIN SELECT 1; END"


@pytest.mark.parametrize(("statements", "says"), [
    (["CREATE TRIGGER spy AFTER INSERT ON answers BEGIN UPDATE answers SET score = 0; END"],
     "trigger spy is not part of it"),
    (["CREATE VIEW keys AS SELECT * FROM questions"], "view keys is not part of it"),
    (["CREATE INDEX extra ON papers(title)"], "index extra is not part of it"),
    (["CREATE TABLE stash (x)"], "table stash is not part of it"),
    (["DROP INDEX attempts_by_deadline"], "index attempts_by_deadline is missing"),
    (["DROP TRIGGER daily_scores_insert", _TRIGGER], "trigger daily_scores_insert is not as version"),
])
async def test_restore_refuses_a_backup_whose_schema_is_not_its_versions(tmp_path, statements, says):
    live = await _db(tmp_path / "p.db", "live")
    bad = _alter(await _db(tmp_path / "bad.db", "bad"), *statements)
    with pytest.raises(DatabaseUnusable, match=says):
        await backups.restore(bad, live, NOW)
    assert _titles(live) == ["live"]
    with pytest.raises(DatabaseUnusable, match=says):
        backups.backup(bad, tmp_path / "copy.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.db", "p.db"]


async def test_the_schema_comparison_ignores_layout_and_the_planners_statistics(tmp_path):
    """An index written with other spaces, a comment and quotes is the migration's index."""
    path = await _db(tmp_path / "b.db", "x")
    con = sqlite3.connect(path, isolation_level=None)
    sql = con.execute("SELECT sql FROM sqlite_schema WHERE name = 'questions_by_paper'").fetchone()[0]
    con.execute("DROP INDEX questions_by_paper")
    con.execute(sql.replace(" ON ", "  ON\n  -- by paper\n ").replace("questions(", '"questions" ( '))
    con.execute("ANALYZE")  # sqlite_stat1: the planner's, made by ANALYZE or PRAGMA optimize
    con.close()
    assert backups.check(path, name=path) == backups.known_version()


@pytest.mark.parametrize("release", sorted(RELEASES))
async def test_every_released_schema_is_its_versions(tmp_path, release):
    dump, version = RELEASES[release]
    old = tmp_path / "old.db"
    load_release(dump, old)
    assert backups.check(old, name=old) == version
