"""Scratch databases of both engines at the newest schema, and one way to run SQL on either: SQLite from
migrations/*.sql, PostgreSQL from migrations/postgres/ (the baseline at 041, then the twins after it)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import psycopg

from proctor.storage.db import MIGRATIONS_DIR, migration_files

POSTGRES_DIR = MIGRATIONS_DIR / "postgres"
BASELINE = 41  # PostgreSQL's schema starts here: migrations/postgres/041_baseline.sql


def sqlite_migrated() -> sqlite3.Connection:
    """A scratch SQLite database in memory, migrated to the newest version as Database.migrate does,
    in autocommit mode with foreign keys on (as Database.open sets it)."""
    con = sqlite3.connect(":memory:", isolation_level=None)
    con.execute("PRAGMA foreign_keys=ON")
    for number, path in migration_files():
        con.executescript(f"BEGIN IMMEDIATE;\n{path.read_text(encoding='utf-8')}\n;"
                          f"PRAGMA user_version = {number};\nCOMMIT;")
    return con


def postgres_migrated(url: str, baseline: str | None = None) -> psycopg.Connection:
    """The database at `url` migrated to the newest version, in autocommit mode: the baseline
    (`baseline` in place of its text when given), then each later migration in its own transaction
    with its version."""
    con = psycopg.connect(url, autocommit=True)
    for number, path in migration_files(POSTGRES_DIR):
        sql = baseline if baseline is not None and number == BASELINE else path.read_text(encoding="utf-8")
        with con.transaction():
            con.execute(sql)  # type: ignore[arg-type]  # a file's text, not a literal
            if number > BASELINE:
                con.execute("UPDATE schema_version SET version = %s", (number,))
    return con


class Engine:
    """A scratch database of one engine; statements written with SQLite's `?` placeholders run on both."""

    def __init__(self, con: sqlite3.Connection | psycopg.Connection):
        self.con = con
        self.name = "sqlite" if isinstance(con, sqlite3.Connection) else "postgres"

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement; the rows it returns (none for a statement without)."""
        if isinstance(self.con, sqlite3.Connection):
            return [tuple(r) for r in self.con.execute(sql, params).fetchall()]
        cur = self.con.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]  # tests' own SQL
        return [tuple(r) for r in cur.fetchall()] if cur.description else []

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The one value the statement returns."""
        [(value,)] = self.rows(sql, params)
        return value

    def close(self) -> None:
        self.con.close()
