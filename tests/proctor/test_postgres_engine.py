"""The record on PostgreSQL (proctor/storage/postgres.py): the same transaction functions, rows and
errors as on SQLite, migrations from the baseline, and one writer at a time across processes."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psycopg
import pytest

from bank.errors import DatabaseTooNew, DatabaseUnusable, MigrationFailed
from bank.store import Engine
from proctor.storage.db import Database
from proctor.storage.lease import WRITE_IDLE_TIMEOUT_MS
from proctor.storage.location import parse_location
from proctor.storage.postgres import WRITE_LOCK, placeholders

REPO = Path(__file__).resolve().parents[2]
BASELINE = """
CREATE TABLE schema_version (version integer NOT NULL);
INSERT INTO schema_version (version) VALUES (41);
CREATE TABLE attempts (id bigserial PRIMARY KEY, score integer NOT NULL DEFAULT 0, note text,
                       done integer NOT NULL DEFAULT 0);
"""


@pytest.fixture
def migrations(tmp_path) -> Path:
    (tmp_path / "postgres").mkdir()
    (tmp_path / "postgres" / "041_baseline.sql").write_text(BASELINE, encoding="utf-8")
    return tmp_path


@pytest.fixture
async def pg(pg_url, migrations):
    db = await Database.open(pg_url, migrations_dir=migrations)
    yield db
    await db.close()


@pytest.mark.parametrize("sql, converted", [
    ("SELECT * FROM t WHERE a = ? AND b IN (?, ?)", "SELECT * FROM t WHERE a = %s AND b IN (%s, %s)"),
    ("SELECT '?', \"a?b\", x FROM t WHERE w LIKE 'a%' AND v = ?", "SELECT '?', \"a?b\", x FROM t WHERE w LIKE 'a%%' AND v = %s"),
    ("SELECT 'it''s ?' || ? -- why? 5%\n, 10 % ?", "SELECT 'it''s ?' || %s -- why? 5%%\n, 10 %% %s"),
    ("SELECT ?", "SELECT %s"),
    ("SELECT :a, ':b', :c_2 FROM t WHERE x = ?", "SELECT %(a)s, ':b', %(c_2)s FROM t WHERE x = %s"),
])
def test_placeholders_become_psycopgs_outside_literals(sql, converted):
    assert placeholders(sql) == converted


async def test_an_empty_database_gets_the_baseline_then_the_migrations_after_it(pg_url, migrations):
    (migrations / "postgres" / "042_notes.sql").write_text("ALTER TABLE attempts ADD COLUMN seen integer;",
                                                           encoding="utf-8")
    db = await Database.open(pg_url, migrations_dir=migrations)
    try:
        assert (db.engine, await db.user_version()) == (Engine.postgres, 42)
        assert await db.scalar("SELECT count(*) FROM attempts WHERE seen IS NULL") == 0
        assert await db.migrate(migrations) == []  # nothing pending the second time
    finally:
        await db.close()


async def test_a_failed_migration_leaves_nothing_and_stays_pending(pg_url, migrations):
    (migrations / "postgres" / "042_bad.sql").write_text("ALTER TABLE attempts ADD COLUMN seen integer; SELEC 1;",
                                                         encoding="utf-8")
    with pytest.raises(MigrationFailed, match="postgres/042_bad.sql failed: syntax error"):
        await Database.open(pg_url, migrations_dir=migrations)
    (migrations / "postgres" / "042_bad.sql").unlink()
    db = await Database.open(pg_url, migrations_dir=migrations)
    try:
        assert await db.user_version() == 41
        assert await db.scalar("SELECT count(*) FROM information_schema.columns WHERE column_name = 'seen'") == 0
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_or_of_something_else_is_refused(pg_url, migrations):
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("CREATE TABLE someone_elses (x integer)")
    with pytest.raises(DatabaseUnusable, match="not an Exam Proctor database"):
        await Database.open(pg_url, migrations_dir=migrations)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("DROP TABLE someone_elses")
    (await Database.open(pg_url, migrations_dir=migrations)).conn  # noqa: B018
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(DatabaseTooNew, match="at schema version 99, but this code knows only up to 41"):
        await Database.open(pg_url, migrations_dir=migrations)


async def test_transaction_functions_get_what_they_use_of_sqlite3(pg):
    def write(conn: sqlite3.Connection) -> list[int]:
        conn.executemany("INSERT INTO attempts (score, note, done) VALUES (?, ?, ?)",
                         [(1, "50% right?", True), (2, None, False)])
        cur = conn.execute("INSERT INTO attempts (score) VALUES (?) RETURNING id", (3,))
        last = cur.fetchone()[0]
        changed = conn.execute("UPDATE attempts SET score = score + 10 WHERE id <= ?", (last,)).rowcount
        return [last, changed]

    assert await pg.run_write(write) == [3, 3]
    row = await pg.fetchone("SELECT id, score AS Score, note, done, avg(score) OVER () AS mean, "
                            "sum(id) OVER () AS ids FROM attempts WHERE note LIKE '50%' ORDER BY id")
    assert (row[0], row["score"], row["SCORE"], row["note"], row["done"]) == (1, 11, 11, "50% right?", 1)
    assert (row["mean"], type(row["mean"]), row["ids"]) == (11.0, float, 1) and dict(row)["score"] == 11 and row.keys()[:2] == ["id", "score"]
    assert [tuple(r) for r in await pg.run(lambda c: list(c.execute("SELECT id FROM attempts ORDER BY id")))] == \
        [(1,), (2,), (3,)]
    assert await pg.scalar("SELECT count(*) FROM attempts WHERE done = ?", (False,)) == 2


async def test_a_write_commits_when_it_returns_and_leaves_nothing_when_it_raises(pg):
    def half(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO attempts (score) VALUES (5)")
        raise ValueError("refused")

    with pytest.raises(ValueError):
        await pg.run_write(half)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO attempts (id, score) VALUES (1, 1)")
        conn.execute("INSERT INTO attempts (id, score) VALUES (1, 2)")

    with pytest.raises(sqlite3.IntegrityError, match="duplicate key value violates unique constraint"):
        await pg.run_write(broken)
    with pytest.raises(sqlite3.OperationalError, match="syntax error"):
        await pg.fetchall("SELEC 1")
    assert await pg.scalar("SELECT count(*) FROM attempts") == 0
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (score) VALUES (7)"))
    assert await pg.scalar("SELECT score FROM attempts") == 7


def _end_session(pg_url: str, pid: int) -> None:
    """What an administrator, a server restart or a timeout does to the bot's session."""
    with psycopg.connect(pg_url, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]


async def test_a_session_postgresql_ended_while_idle_is_opened_again_for_the_next_read_and_write(pg, pg_url):
    _end_session(pg_url, await pg.scalar("SELECT pg_backend_pid()"))
    assert await pg.scalar("SELECT count(*) FROM attempts") == 0  # sent again on a new session
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (score) VALUES (3)"))
    _end_session(pg_url, await pg.scalar("SELECT pg_backend_pid()"))
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (score) VALUES (4)"))  # its BEGIN, again
    assert [r[0] for r in await pg.fetchall("SELECT score FROM attempts ORDER BY id")] == [3, 4]


async def test_a_write_left_idle_past_the_session_timeout_fails_and_the_next_one_commits(pg):
    """A write transaction idle inside longer than the session's timeout (a frozen process's locks are
    freed so): PostgreSQL ends the session; that write fails whole, and the bot's next one commits."""
    def slow(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO attempts (score) VALUES (5)")
        time.sleep(WRITE_IDLE_TIMEOUT_MS / 1000 + 0.5)  # say, a first import of a heavy grader
        conn.execute("INSERT INTO attempts (score) VALUES (6)")

    with pytest.raises(sqlite3.OperationalError):
        await pg.run_write(slow)
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (score) VALUES (7)"))
    assert [r[0] for r in await pg.fetchall("SELECT score FROM attempts ORDER BY id")] == [7]


async def test_concurrent_writes_of_one_process_do_not_interleave(pg):
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (id, score) VALUES (1, 0)"))

    def add_one(conn: sqlite3.Connection) -> None:
        score = conn.execute("SELECT score FROM attempts WHERE id = 1").fetchone()[0]
        conn.execute("UPDATE attempts SET score = ? WHERE id = 1", (score + 1,))

    await asyncio.gather(*(pg.run_write(add_one) for _ in range(20)))
    assert await pg.scalar("SELECT score FROM attempts WHERE id = 1") == 20


# the other process: a CLI-style write through a Database of its own, read-modify-write on the attempt
_OTHER = textwrap.dedent("""
    import asyncio, sys
    from proctor.storage.db import Database

    def add_one(conn):
        score = conn.execute("SELECT score FROM attempts WHERE id = 1").fetchone()[0]
        conn.execute("UPDATE attempts SET score = ?, note = 'cli' WHERE id = 1", (score + 1,))
        return score

    async def main():
        db = await Database.open(sys.argv[1], migrate=False)
        try:
            print(await db.run_write(add_one))
        finally:
            await db.close()

    asyncio.run(main())
""")


def _lock_waiters(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as watcher:
        row = watcher.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                              "AND objid = %s", (WRITE_LOCK,)).fetchone()
        return int(row[0]) if row else 0


async def test_a_write_from_another_process_waits_for_the_bots_on_one_attempt(pg, pg_url):
    """The bot's write reads the attempt, the CLI's write starts meanwhile and must wait (it is seen
    waiting on the write lock); both add one: no update is lost, and the CLI's read saw the bot's."""
    await pg.run_write(lambda c: c.execute("INSERT INTO attempts (id, score) VALUES (1, 0)"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    other: list[subprocess.Popen[str]] = []

    def bots_write(conn: sqlite3.Connection) -> bool:
        score = conn.execute("SELECT score FROM attempts WHERE id = 1").fetchone()[0]
        other.append(subprocess.Popen([sys.executable, "-c", _OTHER, pg_url], env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        deadline = time.monotonic() + 30
        while not (waited := _lock_waiters(pg_url)) and time.monotonic() < deadline and other[0].poll() is None:
            time.sleep(0.02)
        conn.execute("UPDATE attempts SET score = ?, note = 'bot' WHERE id = 1", (score + 1,))
        return bool(waited)

    waited = await pg.run_write(bots_write)
    out, err = other[0].communicate(timeout=60)
    assert other[0].returncode == 0, err
    assert waited  # the CLI's transaction waited on the write lock while the bot's was open
    assert out.strip() == "1"  # it read the bot's committed score
    row = await pg.fetchone("SELECT score, note FROM attempts WHERE id = 1")
    assert (row["score"], row["note"]) == (2, "cli")


def test_the_bundled_postgres_migrations_follow_sqlites():
    """Every SQLite migration after the PostgreSQL baseline has its PostgreSQL twin, same number."""
    folder = REPO / "migrations" / "postgres"
    if not folder.is_dir():
        pytest.fail("migrations/postgres/ is missing (the baseline comes with it)")
    pg_numbers = sorted(int(p.name.split("_")[0]) for p in folder.glob("[0-9]*_*.sql"))
    sqlite_numbers = sorted(int(p.name.split("_")[0]) for p in (REPO / "migrations").glob("[0-9]*_*.sql"))
    assert pg_numbers and [n for n in sqlite_numbers if n >= pg_numbers[0]] == pg_numbers


def test_a_url_is_parsed_not_opened_as_a_file(tmp_path):
    assert not isinstance(parse_location("postgresql://u@h/db"), Path)
