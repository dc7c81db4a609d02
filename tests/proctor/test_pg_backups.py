"""`proctor backup` / `proctor restore` on a PostgreSQL record (proctor/storage/pg_backups.py), on the
real server: a record with real content (tests/copy_world.py's, moved with `proctor db copy`) dumped to
a file that is 0600 from its first byte, restored into a fresh database equal table by table and
sequence by sequence; an earlier dump replaced and any other file refused; a damaged, foreign or
tampered dump, a database that is not empty and a missing pg_dump each one line, the database left
empty. The password on the process list: tests/process/test_pg_backup_secret.py."""

from __future__ import annotations

import os
import secrets
import shutil
import struct
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from bank.errors import DatabaseUnusable
from bot.cli import main
from proctor.storage import pg_backups
from proctor.storage.copy import copy_record
from proctor.storage.location import PostgresUrl, parse_location
from tests.copy_world import record
from tests.postgres_fixtures import fresh_database

VERSION = pg_backups.known_version()


@pytest.fixture
def filled(tmp_path: Path, pg_url: str) -> str:
    """`pg_url` holding the copy world's record: the bundled bank imported, exams, daily quizzes, an
    invited sitting, a live round, a dispute (made on SQLite, moved by `proctor db copy`)."""
    folder = tmp_path / "world"
    folder.mkdir()
    copy_record(record(folder), parse_location(pg_url))
    return pg_url


@pytest.fixture
def fresh(postgres_url: str) -> Iterator[str]:
    """A second empty database, for a restore."""
    with fresh_database(postgres_url, "r") as url:
        yield url


def contents(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every table of the public schema with its rows in one order, and every sequence's position."""
    out: dict[str, list[tuple[object, ...]]] = {}
    with psycopg.connect(url) as con:
        tables = [n for (n,) in con.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                            "ORDER BY tablename")]
        for name in tables:
            cur = con.execute(f'SELECT * FROM "{name}" LIMIT 0')
            order = ", ".join(str(i + 1) for i in range(len(cur.description or ())))
            out[name] = con.execute(f'SELECT * FROM "{name}" ORDER BY {order}').fetchall()
        out["sequences"] = con.execute("SELECT sequencename, last_value FROM pg_sequences "
                                       "WHERE schemaname = 'public' ORDER BY 1").fetchall()
    return out


def tables_in(url: str) -> int:
    with psycopg.connect(url) as con:
        row = con.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        assert row is not None
        return int(row[0])


@contextmanager
def open_to_all(folder: Path) -> Iterator[None]:
    """While the block runs, a file created in `folder` with mode 0666 (as a program writing a file of
    its own creates it) is readable and writable by everyone: the folder's default ACL grants rwx to
    all, which takes the umask's place, and the umask is 0 too."""
    entries = [(0x01, 7), (0x04, 7), (0x20, 7)]  # ACL_USER_OBJ, ACL_GROUP_OBJ, ACL_OTHER: rwx
    os.setxattr(folder, "system.posix_acl_default",
                struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, 0xFFFFFFFF) for tag, perm in entries))
    folder.chmod(0o777)
    before = os.umask(0)
    try:
        probe = os.open(folder / "probe", os.O_WRONLY | os.O_CREAT, 0o666)
        os.close(probe)
        assert (os.stat(folder / "probe").st_mode & 0o777) == 0o666
        os.unlink(folder / "probe")
        yield
    finally:
        os.umask(before)


class Watcher:
    """Every (name, mode) seen in `folder`, looked at as often as the machine lets, until stopped."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.seen: set[tuple[str, int]] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.is_set():
            for entry in os.scandir(self.folder):
                try:
                    self.seen.add((entry.name, entry.stat().st_mode & 0o777))
                except FileNotFoundError:  # renamed or removed between the listing and the look
                    pass


def test_a_record_is_dumped_0600_from_its_first_byte_and_restores_equal(filled, fresh, tmp_path, capsys):
    folder = tmp_path / "backups"
    folder.mkdir()
    target = folder / "proctor.dump"
    with open_to_all(folder), Watcher(folder) as watcher:
        assert main(["--db", filled, "backup", str(target)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"backed up {parse_location(filled)} to {target}: ")
    assert f" MB, schema version {VERSION}, in " in out and out.endswith(" s\n")
    assert (target.stat().st_mode & 0o777) == 0o600
    temporary = {mode for name, mode in watcher.seen if name.startswith(".proctor.dump.partial-")}
    assert temporary, "the temporary file was never seen: the watcher looked too seldom"
    assert temporary == {0o600} and {mode for _, mode in watcher.seen} == {0o600}
    assert target.read_bytes().startswith(pg_backups.DUMP_MAGIC)

    assert main(["--db", fresh, "restore", str(target)]) == 0
    assert capsys.readouterr().out == f"restored {target} to {parse_location(fresh)}: schema version {VERSION}\n"
    want, got = contents(filled), contents(fresh)
    assert want.keys() == got.keys() and len(want) > 40
    assert sum(len(rows) for rows in want.values()) > 500  # a record with content, not an empty one
    for table in want:
        assert got[table] == want[table], table


def test_a_dump_replaces_an_earlier_dump_and_refuses_any_other_file(filled, tmp_path, capsys):
    url = PostgresUrl(filled)
    target = tmp_path / "proctor.dump"
    pg_backups.backup(url, target)
    first = target.read_bytes()
    with psycopg.connect(filled, autocommit=True) as con:
        con.execute("UPDATE papers SET title = 'changed' WHERE id = (SELECT min(id) FROM papers)")
    copy = pg_backups.backup(url, target)
    assert copy.version == VERSION and copy.size == target.stat().st_size and target.read_bytes() != first

    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    sqlite_file = record(tmp_path)
    for other in (notes, sqlite_file):
        kept = other.read_bytes()
        assert main(["--db", filled, "backup", str(other)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(other) in err and "give the backup another name" in err
        assert other.read_bytes() == kept
    assert main(["--db", filled, "backup", str(tmp_path)]) == 1
    assert "is a directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "proctor.dump", "record.db", "world"]


def test_an_empty_or_foreign_database_is_not_backed_up(pg_url, tmp_path):
    with pytest.raises(DatabaseUnusable, match="is empty: there is no record to back up"):
        pg_backups.backup(PostgresUrl(pg_url), tmp_path / "x.dump")
    with psycopg.connect(pg_url, autocommit=True) as con:
        con.execute("CREATE TABLE invoices (id bigint)")
    with pytest.raises(DatabaseUnusable, match="not an Exam Proctor database"):
        pg_backups.backup(PostgresUrl(pg_url), tmp_path / "x.dump")
    assert list(tmp_path.iterdir()) == []


def test_a_record_whose_schema_was_changed_by_hand_is_not_backed_up(filled, tmp_path):
    with psycopg.connect(filled, autocommit=True) as con:
        con.execute("CREATE INDEX spy ON papers (title)")
    with pytest.raises(DatabaseUnusable, match=f"does not have the schema of its version {VERSION}: index spy is not"):
        pg_backups.backup(PostgresUrl(filled), tmp_path / "x.dump")
    assert not list(tmp_path.glob("*x.dump*"))


def test_no_pg_dump_of_the_servers_version_is_one_line(filled, tmp_path):
    with pytest.raises(DatabaseUnusable) as e:
        pg_backups.backup(PostgresUrl(filled), tmp_path / "x.dump", root=tmp_path / "nowhere")
    message = str(e.value)
    assert "\n" not in message and "runs PostgreSQL 15, and this machine has no pg_dump 15" in message
    assert "install postgresql-client-15" in message and not (tmp_path / "x.dump").exists()


def test_a_restore_refuses_a_database_that_is_not_empty(filled, tmp_path, capsys):
    dump = tmp_path / "proctor.dump"
    pg_backups.backup(PostgresUrl(filled), dump)
    before = contents(filled)
    assert main(["--db", filled, "restore", str(dump)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not empty (it holds an Exam Proctor record)" in err
    assert contents(filled) == before


def pg_dump(url: str, target: Path) -> None:
    """The machine's own pg_dump, run as an administrator would (not through proctor backup)."""
    binary = shutil.which("pg_dump") or "/usr/lib/postgresql/15/bin/pg_dump"
    subprocess.run([binary, "-Fc", "-f", str(target), url], check=True, capture_output=True)


def test_a_damaged_foreign_or_tampered_dump_is_one_line_and_the_database_stays_empty(filled, fresh, tmp_path,
                                                                                     capsys):
    dump = tmp_path / "proctor.dump"
    pg_backups.backup(PostgresUrl(filled), dump)
    damaged = tmp_path / "damaged.dump"
    damaged.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    noise = tmp_path / "noise.dump"
    noise.write_bytes(pg_backups.DUMP_MAGIC + os.urandom(4000))
    text = tmp_path / "notes.txt"
    text.write_text("not a dump")
    foreign = tmp_path / "foreign.dump"
    with psycopg.connect(fresh, autocommit=True) as con:
        con.execute("CREATE TABLE invoices (id bigint PRIMARY KEY, total numeric)")
    pg_dump(fresh, foreign)
    with psycopg.connect(fresh, autocommit=True) as con:
        con.execute("DROP TABLE invoices")
    tampered = tmp_path / "tampered.dump"
    with psycopg.connect(filled, autocommit=True) as con:  # a trigger that would run in every write of the bot
        con.execute("CREATE FUNCTION spy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$")
        con.execute("CREATE TRIGGER spy AFTER INSERT ON answers FOR EACH ROW EXECUTE FUNCTION spy()")
    pg_dump(filled, tampered)

    expected = {damaged: "is damaged or not a backup pg_restore can read", noise: "is damaged or not a backup",
                text: "is not a PostgreSQL backup", foreign: "is a PostgreSQL dump but not of an Exam Proctor record",
                record(tmp_path): "is a SQLite database: restore it onto a SQLite file",
                tampered: f"does not have the schema of its version {VERSION}: function spy() is not part of it",
                tmp_path / "absent.dump": "no such file"}
    for path, words in expected.items():
        assert main(["--db", fresh, "restore", str(path)]) == 1, path
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"proctor: {path}") and words in err, err
        assert tables_in(fresh) == 0, path
    with psycopg.connect(fresh) as con:  # the tampered restore undone whole: its functions and collation too
        row = con.execute("SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace").fetchone()
        assert row is not None and row[0] == 0
    assert main(["--db", fresh, "restore", str(dump)]) == 0  # and the database takes a good dump after


def test_a_read_only_role_backs_up_and_the_restore_checks_the_schema(filled, fresh, tmp_path):
    """A backup role that may read everything but create nothing (pg_read_all_data) takes a dump; the
    schema it cannot check in a scratch schema is checked by the restore."""
    role = f"reader_{secrets.token_hex(4)}"
    with psycopg.connect(filled, autocommit=True) as con:
        con.execute(f"CREATE ROLE {role} LOGIN IN ROLE pg_read_all_data")
        con.execute(f"REVOKE CREATE ON DATABASE {con.info.dbname} FROM PUBLIC")
        con.execute("CREATE INDEX spy ON papers (title)")
    parts = urlsplit(filled)
    reader = urlunsplit(parts._replace(netloc=f"{role}@{parts.hostname}:{parts.port}"))
    try:
        copy = pg_backups.backup(PostgresUrl(reader), tmp_path / "x.dump")
        assert copy.version == VERSION and (copy.path.stat().st_mode & 0o777) == 0o600
        with pytest.raises(DatabaseUnusable, match="index spy is not part of it"):
            pg_backups.restore(copy.path, PostgresUrl(fresh))
        assert tables_in(fresh) == 0
    finally:
        with psycopg.connect(filled, autocommit=True) as con:
            con.execute(f"DROP OWNED BY {role}")
            con.execute(f"DROP ROLE {role}")
