"""PostgreSQL for the tests: one server per session (PROCTOR_TEST_POSTGRES, else a throwaway one from
the machine's binaries, tests/postgres_server.py), a fresh database for each test that asks."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.postgres_server import NoPostgres, PostgresServer


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
