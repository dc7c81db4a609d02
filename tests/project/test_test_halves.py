"""The suite's two halves: every test item that runs on PostgreSQL is marked `postgres` (tests/conftest.py),
so `-m postgres` runs the PostgreSQL half and `-m "not postgres"` the SQLite half."""

from __future__ import annotations

import pytest

from bank.store import Engine


def test_an_item_is_marked_postgres_on_postgresql_only(request: pytest.FixtureRequest, engine: Engine):
    assert (request.node.get_closest_marker("postgres") is not None) == (engine is Engine.postgres)


def test_an_item_without_the_engine_or_a_postgresql_fixture_is_not_marked(request: pytest.FixtureRequest):
    assert request.node.get_closest_marker("postgres") is None
