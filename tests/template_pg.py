"""The bundled bank on a PostgreSQL record for the tests: what the bot's first start leaves, made once per
test process by the real code and restored into each record that holds nothing yet (a SQLite record gets
tests/template_db.py's copy of a file instead; `with_bundled_bank` takes either).

The rows are made in a scratch database, at the `now` the bot would have used: migrated by
Database.open, the bank imported by ensure_default_bank, then read back through `proctor db copy`'s
PostgreSQL side (proctor/storage/copy_engines.py) and kept in this process (a few hundred rows). A
restore is that copy's write: one transaction, no trigger firing (the replica
role: the summary tables come as rows, nothing counts them twice), the rows by COPY; then each identity
is set where the import left it, not past the largest id as the copy sets it (question_checks' ids are
its questions', given, so its identity stays unused). It goes only into a record at the newest schema
that holds no row (the `db_location` fixture's, emptied before each test; a database with no schema is
migrated first), else it writes nothing. tests/bot/test_bundled_record.py checks it against a real
first start.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import psycopg

from proctor.storage.bootstrap import ensure_default_bank
from proctor.storage.copy_engines import NOT_RECORD, PostgresSide, Row, Table, name
from proctor.storage.db import Database
from proctor.storage.location import DbLocation, PostgresUrl
from tests.postgres_fixtures import fresh_database
from tests.template_db import copy_with_bundled_bank


@dataclass(frozen=True)
class BankRows:
    """What importing the bundled bank wrote into a new record."""

    tables: list[Table]  # those it wrote rows to or took an id from
    rows: dict[str, list[Row]]
    high: dict[str, int]  # the largest id each identity gave


class Record(Enum):
    """What a PostgreSQL database holds, as a restore finds it."""

    no_schema = "no schema"
    empty = "empty"
    holding = "holding rows"


_kept: dict[float, BankRows] = {}


async def with_bundled_bank(location: DbLocation, now: float) -> bool:
    """What the bot's first start at `now` leaves, at `location` if no record is there yet (no SQLite
    file; a PostgreSQL database holding no row); returns whether it made one."""
    if isinstance(location, Path):
        return await copy_with_bundled_bank(location, now)
    return await fill_with_bundled_bank(location, now)


async def fill_with_bundled_bank(url: PostgresUrl, now: float) -> bool:
    """The bundled bank imported at `now` restored into the PostgreSQL record `url` if it holds no row
    (migrated first if it has no schema); returns whether it did."""
    bank = _kept.get(now)
    if bank is None:  # made once, and only for a record that takes it
        if await asyncio.to_thread(_record_at, url) is Record.holding:
            return False
        bank = _kept[now] = await _made(url, now)
    found = await asyncio.to_thread(_restore, url, bank)
    if found is Record.no_schema:
        await (await Database.open(url)).close()
        found = await asyncio.to_thread(_restore, url, bank)
    return found is Record.empty


async def _made(url: PostgresUrl, now: float) -> BankRows:
    """The bundled bank's rows as the real code writes them at `now`, in a scratch database on `url`'s
    server (dropped after)."""
    with fresh_database(url.conninfo(), prefix="bank") as scratch:
        db = await Database.open(scratch)
        try:
            await ensure_default_bank(db, now)
        finally:
            await db.close()
        return await asyncio.to_thread(_read, scratch)


def _read(conninfo: str) -> BankRows:
    side = PostgresSide.connect(conninfo, source=True)
    try:
        tables = side.tables()
        high = side.high_water()
        rows = {t: list(side.rows(tables[t])) for t in sorted(tables)}
    finally:
        side.close()
    written = [tables[t] for t in sorted(tables) if rows[t] or high.get(t, 0)]
    return BankRows(written, {t.name: rows[t.name] for t in written}, {t.name: high.get(t.name, 0) for t in written})


def _record_names(con: psycopg.Connection[Row]) -> list[str]:
    return [t for (t,) in con.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                      "ORDER BY tablename") if t not in NOT_RECORD]


def _holds_a_row(con: psycopg.Connection[Row]) -> bool:
    names = _record_names(con)
    if not names:
        return False
    row = con.execute("SELECT " + " OR ".join(f"EXISTS (SELECT 1 FROM {name(t)})" for t in names)).fetchone()
    return row is not None and row[0] is True


def _record_at(url: PostgresUrl) -> Record:
    with psycopg.connect(url.conninfo(), autocommit=True) as con:
        return _found(con)


def _found(con: psycopg.Connection[Row]) -> Record:
    row = con.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if row is None or row[0] is not True:
        return Record.no_schema
    return Record.holding if _holds_a_row(con) else Record.empty


def _restore(url: PostgresUrl, bank: BankRows) -> Record:
    """`bank` restored into `url` if it holds no record row, in one transaction; returns what it found
    (Record.empty: it was filled)."""
    side = PostgresSide.connect(url.conninfo(), source=False)
    try:
        found = _found(side.con)
        if found is not Record.empty:
            side.rollback()
            return found
        side.con.execute("SET LOCAL session_replication_role = replica")  # as the copy's `begin`
        for table in bank.tables:
            side.insert(table, bank.rows[table.name])
            if bank.high[table.name]:
                side.con.execute("SELECT setval(pg_get_serial_sequence(%s, %s), %s)",
                                 (name(table.name), table.numbered, bank.high[table.name]))
        side.commit()
        return found
    finally:
        side.close()
