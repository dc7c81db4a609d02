"""PostgreSQL for the tests: one server per session (PROCTOR_TEST_POSTGRES, else a throwaway one from
the machine's binaries, tests/postgres_server.py), a fresh database for each test that asks."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from bank.store import Engine
from tests.postgres_server import NoPostgres, PostgresServer


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server's URL (its maintenance database). PROCTOR_TEST_POSTGRES when set; else one
    started for this session (this worker) and stopped at its end. No PostgreSQL fails the test
    loudly: it never skips."""
    given = os.environ.get("PROCTOR_TEST_POSTGRES")
    if given:
        yield given
        return
    try:
        server = PostgresServer.start()
    except NoPostgres as e:
        pytest.fail(f"{e}; or set PROCTOR_TEST_POSTGRES to a server's URL", pytrace=False)
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
