"""Migrations: fresh database, re-run, failure rollback, newer database refused."""

import shutil
import sqlite3

import pytest

from bank.errors import DatabaseTooNew, MigrationFailed
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db


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

        def transaction(conn):
            conn.execute("INSERT INTO users (id, created_at) VALUES (1, 0)")
            raise RuntimeError("boom")

        await db.run_write(transaction)
    assert await db.scalar("SELECT COUNT(*) FROM users") == 0


async def test_formats_migration_widens_kinds_and_keeps_every_record(tmp_path):
    """011: numerical and matching become storable kinds; questions and the rows that point at
    them (review cards cascade on delete) are all still there."""
    old = tmp_path / "migs"
    old.mkdir()
    for version, path in migration_files():
        if version <= 6:
            shutil.copy(path, old / path.name)
    db = await Database.open(tmp_path / "p.db", migrations_dir=old)
    try:
        await _formats_migration(db, old)
    finally:
        await db.close()


async def _formats_migration(db, old):
    from bank.kinds import Kind, fingerprint
    from bank.models import Question, Section
    from bank.paper_store import load_paper
    from tests.papers_fixture import save_paper

    def transaction(conn):  # what the code of version 6 wrote
        conn.execute("INSERT INTO papers (id, slug, title, imported_at) VALUES (1, 'p', 'P', 0)")
        conn.execute("INSERT INTO sections (id, paper_id, position, kind, title) "
                     "VALUES (1, 1, 1, 'single', 'S')")
        for n in range(1, 4):
            conn.execute(
                "INSERT INTO questions (fingerprint, paper_id, section_id, number, kind, stem, options, "
                "answer, points) VALUES (?, 1, 1, ?, 'single', ?, '[\"a\",\"b\"]', '\"A\"', 1)",
                (fingerprint("p", 1, n), n, f"stem {n}"))
        conn.execute("INSERT INTO users (id, created_at) VALUES (7, 0)")
        conn.execute("INSERT INTO review_cards (user_id, question_id, card, due) "
                     "SELECT 7, id, '{}', 0 FROM questions")

    await db.run_write(transaction)
    before = [tuple(r) for r in await db.fetchall("SELECT * FROM questions ORDER BY id")]
    cards = await db.scalar("SELECT COUNT(*) FROM review_cards")
    assert await db.migrate() == [v for v, _ in migration_files() if v > 6]
    after = [tuple(r)[:len(before[0])] for r in await db.fetchall("SELECT * FROM questions ORDER BY id")]
    assert after == before and await db.scalar("SELECT COUNT(*) FROM review_cards") == cards == len(before)
    assert await db.scalar("PRAGMA integrity_check") == "ok"
    # the same connection stores the new kinds at once, and still refuses a kind nobody knows
    paper = await load_paper(db, 1)
    paper.sections.append(Section(kind=Kind.numerical, title="数值题", questions=[
        Question(number=1, kind=Kind.numerical, stem="pi", answer=[["3.14", "0.01"]], weights=[1.0],
                 name="pi", difficulty="易"),
        Question(number=2, kind=Kind.matching, stem="m", answer=[["a", "b"], ["c", "d"]])]))
    await save_paper(db, paper, now=2.0)
    stored = (await load_paper(db, 1)).sections[-1].questions
    assert [(q.kind, q.name, q.difficulty) for q in stored] == [
        (Kind.numerical, "pi", "易"), (Kind.matching, "", "")]
    with pytest.raises(sqlite3.IntegrityError):

        def transaction(conn):
            conn.execute("UPDATE questions SET kind='essay' WHERE id=1")

        await db.run_write(transaction)
