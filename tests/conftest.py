"""Shared fixtures: a real SQLite file per test, migrated (a copy of one migrated in this process)."""

import sys

# Compiled modules are cached (__pycache__, git-ignored) even where PYTHONDONTWRITEBYTECODE is set, as
# it is on this project's machines: else each of the suite's workers, and each `proctor` process a test
# starts, compiles every module from source again (about 5 s of a worker's collection, 0.25 s a process).
sys.dont_write_bytecode = False

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from bank.store import Engine  # noqa: E402
from bot.settings import use_ptb_timedeltas  # noqa: E402
from proctor.storage.db import Database  # noqa: E402

SEEDS_DIR = Path(__file__).resolve().parents[1] / "bank" / "seeds"
# PTB's durations as timedelta, as `proctor` opts in (bot.cli.main), before a test builds any PTB object;
# pyproject's pytest options make a PTB deprecation warning an error
use_ptb_timedeltas()


@pytest.fixture
def db(engine_db: Database) -> Database:  # noqa: F811 (the fixture imported below)
    """An open record at the newest schema, on SQLite and on PostgreSQL in turn (tests/postgres_fixtures.py)."""
    return engine_db


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS_DIR.glob("*.txt"))


POSTGRES_FIXTURES = frozenset({"postgres_url", "pg_url", "pg_record_url"})


def runs_on_postgres(item: pytest.Item) -> bool:
    """Whether a test item runs on PostgreSQL: its `engine` parameter is postgres, or it uses a PostgreSQL
    fixture. Marked `postgres`, so `-m postgres` is the PostgreSQL half and `-m "not postgres"` SQLite's."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("engine") == Engine.postgres:
        return True
    return not POSTGRES_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))


def pytest_collection_modifyitems(items):
    """Tests that start a real `proctor` child process (tests/process_helpers.py) are `slow`, and run
    first: they wait on real clocks (a poll open 10 s, a process starting), so the workers fill that
    waiting with the short tests instead of ending the run on it (issue 22: the suite's time)."""
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and hasattr(module, "ProctorProcess"):
            item.add_marker(pytest.mark.slow)
        if runs_on_postgres(item):
            item.add_marker(pytest.mark.postgres)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the order is otherwise kept


# PostgreSQL: `postgres_url` (one server a session) and `pg_url` (a fresh database a test); the fake Bot
# API a real `proctor` child process talks to (the process tests' `api`; a module may define its own)
from tests.postgres_fixtures import (  # noqa: E402,F401
    db_location,
    engine,
    engine_db,
    pg_record_url,
    pg_url,
    pg_worker_record,
    postgres_url,
)
from tests.process_helpers import api  # noqa: E402,F401
