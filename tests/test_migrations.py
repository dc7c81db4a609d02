"""Migrations: fresh database, re-run, failure rollback, newer database refused."""

import shutil
import sqlite3

import pytest

from bank.errors import DatabaseTooNew, MigrationFailed
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files


async def _tables(db):
    rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    return [r[0] for r in rows]


async def test_fresh_database_gets_every_migration(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    try:
        latest = migration_files()[-1][0]
        assert await db.user_version() == latest
        tables = await _tables(db)
        for name in ("papers", "sections", "questions", "attempts", "answers"):
            assert name in tables
        assert (await db.scalar("PRAGMA journal_mode")) == "wal"
        assert (await db.scalar("PRAGMA foreign_keys")) == 1
    finally:
        await db.close()


async def test_rerun_is_a_noop(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    before = await _tables(db)
    assert await db.migrate() == []
    assert await _tables(db) == before
    await db.close()
    db = await Database.open(tmp_path / "p.db")
    assert await db.migrate() == []
    await db.close()


async def test_failing_migration_leaves_database_as_it_was(tmp_path):
    mig = tmp_path / "migs"
    shutil.copytree(MIGRATIONS_DIR, mig)
    good_version = migration_files(mig)[-1][0]
    db = await Database.open(tmp_path / "p.db", migrations_dir=mig)
    before = await _tables(db)
    await db.close()
    # a migration that creates a table, then fails halfway
    (mig / f"{good_version + 1:03d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    with pytest.raises(MigrationFailed, match="broken"):
        await Database.open(tmp_path / "p.db", migrations_dir=mig)
    raw = sqlite3.connect(tmp_path / "p.db")
    assert raw.execute("PRAGMA user_version").fetchone()[0] == good_version
    names = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    raw.close()
    assert names == before
    assert "half_done" not in names


async def test_newer_database_is_refused(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    await db.close()
    raw = sqlite3.connect(tmp_path / "p.db")
    raw.execute("PRAGMA user_version = 999")
    raw.commit()
    raw.close()
    with pytest.raises(DatabaseTooNew, match="999"):
        await Database.open(tmp_path / "p.db")


async def test_write_rolls_back_on_error(db):
    with pytest.raises(RuntimeError):
        async with db.write() as conn:
            await conn.execute("INSERT INTO users (id, created_at) VALUES (1, 0)")
            raise RuntimeError("boom")
    assert await db.scalar("SELECT COUNT(*) FROM users") == 0
