"""`proctor db copy SRC DST` (proctor/storage/copy.py): a record with real content goes from SQLite to
PostgreSQL and back to an equal file; ids kept, sequences numbering on, summaries not doubled; a
destination that holds a record is refused without --force; a source at another version is refused; a
difference between the two sides fails the copy and leaves the destination as it was; the command's
output, and a URL's password never in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from bot.cli import main
from proctor.storage.copy import CopyFailed, copy_record
from proctor.storage.db import migration_files
from proctor.storage.location import parse_location
from proctor.storage.schema import difference, schema_of
from tests.copy_world import record
from tests.engines import postgres_migrated

SUMMARIES = ("daily_scores", "daily_topics", "exam_topics")
VERSION = migration_files()[-1][0]


def sqlite_tables(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table of a SQLite file (its counter table too) with its rows in one order, read plainly."""
    con = sqlite3.connect(path)
    try:
        names = [n for (n,) in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")]
        out = {}
        for name in names:
            width = len(con.execute(f"SELECT * FROM {name} LIMIT 0").description)
            order = ", ".join(str(i + 1) for i in range(width))
            out[name] = con.execute(f"SELECT * FROM {name} ORDER BY {order}").fetchall()
        return out
    finally:
        con.close()


def pg_count(url: str, table: str) -> int:
    with psycopg.connect(url) as con:
        return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])  # type: ignore[index]


def test_a_record_goes_to_postgresql_and_back_to_an_equal_file(tmp_path, pg_url):
    first = record(tmp_path)
    there = copy_record(first, parse_location(pg_url))
    back = tmp_path / "back.db"
    again = copy_record(parse_location(pg_url), back)
    before, after = sqlite_tables(first), sqlite_tables(back)
    assert list(before) == list(after)
    for table in before:
        assert after[table] == before[table], table
    assert dict(there.tables) == dict(again.tables) == {t: len(rows) for t, rows in before.items()
                                                         if t != "sqlite_sequence"}
    # the summaries came as rows, not recounted on top of them by the triggers
    for table in SUMMARIES:
        assert before[table] and pg_count(pg_url, table) == len(before[table])
    assert before["attempts"] and [r[0] for r in after["attempts"]] == [r[0] for r in before["attempts"]]
    con = sqlite3.connect(back)
    try:  # the file is a record at this version: its triggers made again, its stamp and version
        assert difference(schema_of(con), VERSION) is None
        assert con.execute("PRAGMA user_version").fetchone()[0] == VERSION
        assert con.execute("PRAGMA application_id").fetchone()[0] == 0x50524354
    finally:
        con.close()


def test_postgresql_numbers_on_past_the_ids_copied(tmp_path, pg_url):
    first = record(tmp_path)
    con = sqlite3.connect(first)
    with con:  # a draft given id 3 and deleted: AUTOINCREMENT never gives 3 again, nor should the copy
        for uid in (1, 2, 3):
            con.execute("INSERT INTO question_drafts (user_id, chat_id, step, data, updated_at) VALUES (?, ?, 'x', '{}', 0)",
                        (uid, uid))
        con.execute("DELETE FROM question_drafts WHERE id = 3")
    top = con.execute("SELECT MAX(id) FROM papers").fetchone()[0]
    con.close()
    copy_record(first, parse_location(pg_url))
    with psycopg.connect(pg_url) as pg:
        pg.execute("INSERT INTO papers (slug, title, imported_at) VALUES ('new', 'New', 0)")
        made = pg.execute("SELECT id, code FROM papers WHERE slug = 'new'")
        assert made.fetchone() == (top + 1, f"P{top + 1}")  # and its trigger runs again: the code given
        draft = pg.execute("INSERT INTO question_drafts (user_id, chat_id, step, data, updated_at) "
                           "VALUES (4, 4, 'x', '{}', 0) RETURNING id")
        assert draft.fetchone() == (4,)


def test_a_destination_that_holds_a_record_is_refused_without_force_and_replaced_with_it(tmp_path, pg_url, seed_files):
    world = record(tmp_path)
    small = tmp_path / "small.db"
    assert main(["--db", str(small), "import", str(seed_files[0])]) == 0  # one paper, no attempts
    for dst in (parse_location(pg_url), tmp_path / "copy.db"):
        copy_record(world, dst)
        with pytest.raises(CopyFailed, match="already holds a record .* give --force to replace it"):
            copy_record(small, dst)
        counts = dict(copy_record(small, dst, force=True).tables)
        assert counts["attempts"] == 0 and counts["papers"] == len(sqlite_tables(small)["papers"])
    assert sqlite_tables(tmp_path / "copy.db") == sqlite_tables(small) | {"sqlite_sequence": []}
    assert pg_count(pg_url, "attempts") == pg_count(pg_url, "daily_scores") == 0


def test_a_source_at_another_version_is_refused_and_nothing_is_made(tmp_path, pg_url):
    old = tmp_path / "old.db"
    con = sqlite3.connect(old, isolation_level=None)
    for number, path in migration_files():
        if number < VERSION:
            con.executescript(f"BEGIN;\n{path.read_text(encoding='utf-8')}\n;PRAGMA user_version = {number};\nCOMMIT;")
    con.close()
    with pytest.raises(CopyFailed, match=f"at schema version {VERSION - 1}, this code's is {VERSION}: migrate it first"):
        copy_record(old, tmp_path / "new.db")
    assert not (tmp_path / "new.db").exists()
    with pytest.raises(CopyFailed, match="migrate it first"):
        copy_record(old, parse_location(pg_url))
    with psycopg.connect(pg_url) as pg:
        assert pg.execute("SELECT to_regclass('papers')").fetchone() == (None,)


PLANTED = """
CREATE FUNCTION planted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id = 2 THEN NEW.first_name := 'Mallory'; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER planted BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION planted();
ALTER TABLE users ENABLE ALWAYS TRIGGER planted;  -- it fires under the copy's replica role too
"""


def test_a_row_the_destination_changes_fails_the_copy_and_leaves_it_as_it_was(tmp_path, pg_url):
    postgres_migrated(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as pg:
        pg.execute(PLANTED)
    with pytest.raises(CopyFailed, match="table users, row id=2 differs in first_name: 'Bob' in the source, "
                                         "'Mallory' in the copy; .* is as it was"):
        copy_record(record(tmp_path), parse_location(pg_url))
    assert pg_count(pg_url, "users") == pg_count(pg_url, "papers") == 0


def test_a_value_sqlite_cannot_hold_fails_the_copy_and_leaves_the_file_as_it_was(tmp_path, pg_url):
    """SQLite stores a NaN as NULL: a record on PostgreSQL with one is not copied as it is."""
    world = record(tmp_path)
    copy_record(world, parse_location(pg_url))
    with psycopg.connect(pg_url) as pg:
        pg.execute("UPDATE attempts SET finished_at = 'NaN' WHERE id = 3")
    with pytest.raises(CopyFailed, match=r"table attempts, row id=3 differs in finished_at: 'NaN' in the source, "
                                         r"None in the copy"):
        copy_record(parse_location(pg_url), tmp_path / "new.db")
    assert not (tmp_path / "new.db").exists()
    before = sqlite_tables(world)
    with pytest.raises(CopyFailed, match="table attempts, row id=3"):
        copy_record(parse_location(pg_url), world, force=True)
    assert sqlite_tables(world) == before


def test_the_command_prints_each_table_and_never_a_password(tmp_path, pg_url, capsys):
    world = record(tmp_path)
    secret = pg_url.replace("postgresql://postgres@", "postgresql://postgres:Sekr1t@")  # trust: any password does
    assert main(["db", "copy", str(world), secret]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert "Sekr1t" not in out + err and err == ""
    tables = sqlite_tables(world)
    assert len(lines) == len(tables) and lines[-1].startswith(
        f"copied {sum(len(r) for t, r in tables.items() if t != 'sqlite_sequence')} rows in {len(tables) - 1} tables "
        f"from {world} to {secret.replace('Sekr1t', '***')}; checked row by row")
    assert [line.split() for line in lines if line.startswith("users ")] == [["users", "5"]]
    assert main(["db", "copy", str(world), secret]) == 1  # a record there now: one line, no password
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "--force" in err and "Sekr1t" not in err and "***" in err
