"""A harness record that starts with the bundled bank (a copy of a SQLite file, rows restored into
PostgreSQL: tests/template_pg.py) is what the bot's own first start leaves, table by table: every row,
each table's numbering, the schema version and the stamp."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bank.store import Engine
from proctor.storage.copy_engines import PostgresSide, SqliteSide
from proctor.storage.location import DbLocation, PostgresUrl, parse_location
from tests.harness import BotEnv
from tests.template_pg import with_bundled_bank


def _record(location: DbLocation) -> dict[str, Any]:
    """Every table's rows in one order, each table's largest id given, the version and the stamp."""
    side = (PostgresSide.connect(location.conninfo(), source=True) if isinstance(location, PostgresUrl)
            else SqliteSide.source(location))
    try:
        tables = side.tables()
        held: dict[str, Any] = {t: list(side.rows(tables[t])) for t in sorted(tables)}
        held["(numbering)"] = {t: n for t, n in side.high_water().items() if n}
        held["(version, stamp)"] = (side.version(), side.application_id())
        return held
    finally:
        side.close()


async def _started_and_stopped(env: BotEnv) -> DbLocation:
    await env.start()
    await env.close()
    return env.db_path


@pytest.fixture
def first_location(engine: Engine, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A second place for a record: a new SQLite file, or a new PostgreSQL database with no schema."""
    if engine is Engine.sqlite:
        return str(tmp_path / "first.db")
    url: str = request.getfixturevalue("pg_url")
    return url


async def test_a_harness_record_is_what_the_first_start_leaves(tmp_path, db_location, first_location):
    made = await _started_and_stopped(BotEnv(tmp_path / "made", location=db_location))
    first = await _started_and_stopped(BotEnv(tmp_path / "first", location=first_location, first_start=True))
    made_record, first_record = _record(made), _record(first)
    assert made_record["papers"] and made_record["questions"]
    assert sorted(made_record) == sorted(first_record)
    for table, rows in first_record.items():
        assert made_record[table] == rows, table


async def test_the_bank_goes_only_where_no_record_row_is(tmp_path, db_location):
    location = parse_location(db_location)
    assert await with_bundled_bank(location, 1.0)
    held = _record(location)
    assert not await with_bundled_bank(location, 1.0)  # a second time: nothing written
    assert not await with_bundled_bank(location, 2.0)
    assert _record(location) == held
