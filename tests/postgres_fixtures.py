"""PostgreSQL for the tests: one server per session (PROCTOR_TEST_POSTGRES, else a throwaway one from
the machine's binaries, tests/postgres_server.py), a fresh database for each test that asks."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
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


@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:
    """The URL of a fresh, empty database on the session's server, dropped after the test."""
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(postgres_url, name)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=[Engine.sqlite, Engine.postgres])
def engine(request: pytest.FixtureRequest) -> Engine:
    """Each engine in turn: a test that takes it (or `db_location`) runs on SQLite and on PostgreSQL."""
    return Engine(request.param)


@pytest.fixture
def db_location(engine: Engine, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a test's record is, as PROCTOR_DB or --db says it: a SQLite file (not yet made) or the URL
    of a fresh PostgreSQL database (the server starts only for the PostgreSQL half)."""
    if engine is Engine.sqlite:
        return str(tmp_path / "record.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(scope="session")
def pg_template(postgres_url: str) -> Iterator[str]:
    """A database migrated by the real code (Database.open) once per session (per worker), copied by
    `pg_record_url`: PostgreSQL copies a template database in a few milliseconds, migrating costs more."""
    name = f"proctor_template_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = with_database(postgres_url, name)

    async def migrate() -> None:
        await (await Database.open(url)).close()

    with ThreadPoolExecutor(1) as thread:  # its own event loop: the first asker may be inside the tests' loop
        thread.submit(asyncio.run, migrate()).result()
    try:
        yield name
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_record_url(postgres_url: str, pg_template: str) -> Iterator[str]:
    """The URL of a fresh database at the newest schema (a copy of `pg_template`), dropped after the test."""
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{pg_template}"')
    try:
        yield with_database(postgres_url, name)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
