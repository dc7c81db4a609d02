"""PostgreSQL for the tests: one server per session (PROCTOR_TEST_POSTGRES, else a throwaway one from
the machine's binaries, tests/postgres_server.py), a fresh database for each test that asks."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from bank.store import Engine
from proctor.storage.db import Database
from tests.postgres_server import NoPostgres, PostgresServer
from tests.template_db import copy_migrated


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server's URL (its maintenance database). PROCTOR_TEST_POSTGRES when set (.ci/run
    starts one for the whole run); else one started from the machine's binaries for this session (this
    worker) and stopped at its end. With neither, the PostgreSQL half skips saying how to start one,
    except where PROCTOR_TEST_POSTGRES_REQUIRED is set (CI): there it fails, never skips."""
    given = os.environ.get("PROCTOR_TEST_POSTGRES")
    if given:
        yield given
        return
    try:
        server = PostgresServer.start()
    except NoPostgres as e:
        how = (f"{e}: the PostgreSQL half needs a server; start one with `python -m tests.postgres_server start` "
               "and set PROCTOR_TEST_POSTGRES to the URL it prints")
        if os.environ.get("PROCTOR_TEST_POSTGRES_REQUIRED"):
            pytest.fail(how, pytrace=False)
        pytest.skip(how)
    try:
        yield server.url
    finally:
        server.stop()


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def pg_rows(url: str, sql: str, *params) -> list[tuple]:
    """The rows of `sql` in the PostgreSQL database `url`, read as an operator would (psycopg's `%s`):
    the twin of tests/process_helpers.db_rows."""
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(sql, params).fetchall()]  # type: ignore[arg-type]  # the tests' own SQL


@contextmanager
def fresh_database(postgres_url: str, prefix: str = "t") -> Iterator[str]:
    """The URL of a new, empty database on the server `postgres_url` names, dropped at the end."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(postgres_url, name)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:
    """The URL of a fresh, empty database on the session's server, dropped after the test."""
    with fresh_database(postgres_url) as url:
        yield url


# A test about SQLite itself (its query plans, PRAGMAs, the aiosqlite connection) in a module whose other
# tests run on both engines: `@sqlite_only` before it, with a `# SQLite only: why` comment
sqlite_only = pytest.mark.parametrize("engine", [Engine.sqlite], indirect=True)


@pytest.fixture(params=[Engine.sqlite, Engine.postgres])
def engine(request: pytest.FixtureRequest) -> Engine:
    """Each engine in turn: a test that takes it (or `db_location`) runs on SQLite and on PostgreSQL."""
    return Engine(request.param)




# What a record's schema is, as one digest: a test that changed it (a table, a column, an index, a trigger,
# a function, a collation, a schema) leaves a database the next test must not get
SCHEMA_DIGEST = """
SELECT md5(string_agg(x, '|' ORDER BY x)) FROM (
  SELECT c.relname || ' ' || c.relkind::text || ' ' || COALESCE(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || ' ' || a.attnotnull::text || ' ' || COALESCE(pg_get_expr(d.adbin, d.adrelid), ''), '') AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE n.nspname = 'public'
  UNION ALL SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
   WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT proname || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  UNION ALL SELECT collname FROM pg_collation WHERE collnamespace = 'public'::regnamespace
  UNION ALL SELECT nspname FROM pg_namespace
) parts"""


# each sequence the last test took a number from set back to its start, as a new one is (setval: ALTER
# SEQUENCE RESTART on every sequence cost 15-25 ms a test)
RESTART_USED = ("SELECT setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) "
                "FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL;")


class WorkerRecord:
    """One database at the newest schema for a test process (an xdist worker), emptied to what the
    migrations left before each test that asks: emptying it costs ~25 ms where copying a template
    database (CREATE DATABASE ... TEMPLATE) cost 0.6–0.9 s on the 2-core machine. Each test still starts
    from a fresh record: every row deleted, every identity sequence restarted, the migrations' own rows
    (schema_version, app_stamp) put back, the previous test's connections ended; a test that changed the
    schema gets the database dropped and migrated again for the next one."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.name = f"t_{secrets.token_hex(6)}"
        self.url = with_database(server_url, self.name)
        self.digest = ""
        self.reset_sql = ""
        self._create()

    def _create(self) -> None:
        with psycopg.connect(self.server_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')

        async def migrate() -> None:
            await (await Database.open(self.url)).close()

        with ThreadPoolExecutor(1) as thread:  # its own event loop: the first asker may be inside the tests' loop
            thread.submit(asyncio.run, migrate()).result()
        with psycopg.connect(self.url, autocommit=True) as conn:
            self.digest = self._digest(conn)
            tables = [t for (t,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
            kept = []  # the rows the migrations wrote themselves
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{table}"').fetchall():
                    values = ", ".join(conn.execute("SELECT quote_nullable(%s::text)", (v,)).fetchone()[0]
                                       for v in row)
                    kept.append(f'INSERT INTO "{table}" VALUES ({values});')
        # session_replication_role = replica: no foreign key check and no summary trigger while emptying
        self.reset_sql = ("SET LOCAL session_replication_role = replica;"
                          + "".join(f'DELETE FROM "{t}";' for t in tables)
                          + RESTART_USED
                          + "".join(kept))

    @staticmethod
    def _digest(conn: psycopg.Connection) -> str:
        row = conn.execute(SCHEMA_DIGEST).fetchone()
        return str(row[0]) if row else ""

    def drop(self) -> None:
        with psycopg.connect(self.server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def fresh(self) -> str:
        """The database's URL, emptied for a new test (made again if the last test changed its schema)."""
        with psycopg.connect(self.server_url, autocommit=True) as admin:  # the last test's connections
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE datname = %s AND pid <> pg_backend_pid()", (self.name,))
        with psycopg.connect(self.url, autocommit=True) as conn:
            same = self._digest(conn) == self.digest
            if same:
                with conn.transaction():
                    conn.execute(self.reset_sql)
        if not same:
            self.drop()
            self._create()
        return self.url


def drop_own_table(url: str, table: str) -> None:
    """A table a test made for itself in its record, dropped at its end (its other connections ended
    first): the next test gets the record emptied, not made again (~0.7 s)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        conn.execute(f'DROP TABLE IF EXISTS "{table}"')


@pytest.fixture(scope="session")
def pg_worker_record(postgres_url: str) -> Iterator[WorkerRecord]:
    """This test process's record database on the session's server (`pg_record_url` empties it per test)."""
    record = WorkerRecord(postgres_url)
    try:
        yield record
    finally:
        record.drop()


@pytest.fixture
def pg_record_url(pg_worker_record: WorkerRecord) -> str:
    """The URL of a database at the newest schema holding nothing but what the migrations write, its own
    for the test (this process's record, emptied: `WorkerRecord`)."""
    return pg_worker_record.fresh()


@pytest.fixture
def db_location(engine: Engine, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a test's record is, as PROCTOR_DB or --db says it: a SQLite file (not yet made) or the URL
    of a PostgreSQL database holding no record row yet (this process's record, emptied: `WorkerRecord`;
    the server starts only for the PostgreSQL half)."""
    if engine is Engine.sqlite:
        return str(tmp_path / "record.db")
    url: str = request.getfixturevalue("pg_record_url")
    return url


@pytest.fixture
async def engine_db(engine: Engine, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """An open record at the newest schema, on each engine in turn (the `db` fixture's, on PostgreSQL
    too). A module whose tests all run on both engines overrides `db` with it:
    `@pytest.fixture` `def db(engine_db): return engine_db`."""
    if engine is Engine.sqlite:
        await copy_migrated(tmp_path / "proctor.db")
        database = await Database.open(tmp_path / "proctor.db")
    else:
        database = await Database.open(request.getfixturevalue("pg_record_url"))
    yield database
    await database.close()
