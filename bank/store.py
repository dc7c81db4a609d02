"""What bank/ needs from the database.

The bank sits below the proctoring domain and never imports it. `Store` is the part of
`proctor.storage.db.Database` the bank uses; `Database` satisfies it structurally (no inheritance,
no import either way). The bank writes only its own tables: a lead's change to the bank (retire or
restore a question, paper settings, confirm a key, add a question, import an upload) is the bank's
`..._in(conn, ...)` function and its audit row in one transaction, in proctor/teams/curation.py.

The record is SQLite or PostgreSQL (`Engine`). SQL is written in the form both take; where there is
none, the one form per engine lives here (`ids_in`, `json_rows`, `least`, ...), chosen by `store.engine`
(`Database.engine`) or, inside a transaction function, `engine_of(conn)`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

# a statement's parameters: positional (`?`) or named (`:name`); values are whatever sqlite3 binds
Params = Iterable[Any] | Mapping[str, Any]


MAX_INTEGER = 2**63 - 1  # SQLite's INTEGER; a larger Python int raises OverflowError when bound


def as_row_id(text: str) -> int | None:
    """The positive integer `text` spells in ASCII digits, if SQLite can hold it; None otherwise
    (a slug, a sign, a space, another script's digits, a number beyond 64 bits)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    value = int(text)
    return value if 0 < value <= MAX_INTEGER else None


def one_row(row: sqlite3.Row | None) -> sqlite3.Row:
    """The row of a statement that always yields one (`RETURNING`, `COUNT(*)`, a row just written)."""
    if row is None:
        raise LookupError("the statement returned no row")
    return row


class Engine(StrEnum):
    """The engine that holds the record."""

    sqlite = "sqlite"
    postgres = "postgres"


def engine_of(conn: object) -> Engine:
    """The engine behind a transaction function's connection (PostgreSQL's says so: its `engine`)."""
    return getattr(conn, "engine", Engine.sqlite)


def json_rows(engine: Engine, values: Sequence[str], source: str) -> str:
    """A scalar subquery: the JSON text of an array holding, for each row of `source` (its `FROM ...
    WHERE ...`), the array of `values`; '[]' when there is none."""
    if engine is Engine.postgres:
        return f"(SELECT CAST(COALESCE(json_agg(json_build_array({', '.join(values)})), '[]') AS TEXT) {source})"
    return f"(SELECT json_group_array(json_array({', '.join(values)})) {source})"


def json_list(engine: Engine, value: str, source: str) -> str:
    """A scalar subquery: the JSON text of the array of `value` over the rows of `source` (its `FROM
    ... WHERE ...`), in their order; '[]' when there is none."""
    if engine is Engine.postgres:
        return f"(SELECT CAST(COALESCE(json_agg({value}), '[]') AS TEXT) {source})"
    return f"(SELECT json_group_array({value}) {source})"


def exact_real(engine: Engine, column: str) -> str:
    """A REAL among `json_rows`' values so that it reads back exactly (`float(...)`): SQLite's JSON keeps
    15 digits, so as its text with 17; PostgreSQL's writes a float's shortest exact form itself."""
    return column if engine is Engine.postgres else f"printf('%!.17g', {column})"


def least(engine: Engine, a: str, b: str) -> str:
    """The smaller of two values, neither NULL (SQLite's two-argument MIN is PostgreSQL's LEAST)."""
    return f"LEAST({a}, {b})" if engine is Engine.postgres else f"MIN({a}, {b})"


def json_length(engine: Engine, column: str) -> str:
    """How many elements the JSON array in text `column` holds."""
    return f"json_array_length(CAST({column} AS JSON))" if engine is Engine.postgres else f"json_array_length({column})"


def text_agg(engine: Engine, expr: str, sep: str = ",", order_by: str = "") -> str:
    """The aggregate of `expr`'s values as text joined by `sep`, in `order_by`'s order on PostgreSQL;
    SQLite (before 3.44) takes no order in an aggregate: it joins them in the order it reads the rows
    (a table's rowid order, when it scans the table)."""
    if engine is Engine.postgres:
        order = f" ORDER BY {order_by}" if order_by else ""
        return f"string_agg(CAST({expr} AS TEXT), '{sep}'{order})"
    return f"group_concat({expr}, '{sep}')"


def json_holds_id(engine: Engine, column: str, param: str = "?") -> str:
    """A condition: the JSON text in `column` holds, at any depth, an object whose integer `id` is
    `param` (SQLite walks it with json_tree, PostgreSQL with a JSON path; a NULL holds nothing)."""
    if engine is Engine.postgres:
        return (f"({column} IS NOT NULL AND jsonb_path_exists(CAST({column} AS JSONB), 'lax $.**.id ? (@ == $id)', "
                f"jsonb_build_object('id', CAST({param} AS BIGINT))))")
    return (f"(json_valid({column}) AND EXISTS (SELECT 1 FROM json_tree({column}) AS t "
            f"WHERE t.key = 'id' AND t.type = 'integer' AND t.atom = {param}))")


def indexed_by(engine: Engine, table: str, index: str) -> str:
    """`table` (with its alias, if any) read through `index`: SQLite's hint, where its planner would pick
    worse; PostgreSQL takes no hint and picks by its statistics."""
    return table if engine is Engine.postgres else f"{table} INDEXED BY {index}"


def ids_in(engine: Engine, param: str = "?") -> str:
    """A SELECT of the integers in `param`, a JSON array (`json.dumps(ids)`): `x IN ({ids_in(...)})`."""
    if engine is Engine.postgres:
        return f"SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST({param} AS JSON))"
    return f"SELECT value FROM json_each({param})"


def texts_in(engine: Engine, param: str = "?") -> str:
    """A SELECT of the strings in `param`, a JSON array (`json.dumps(texts)`): `x IN ({texts_in(...)})`."""
    if engine is Engine.postgres:
        return f"SELECT value FROM json_array_elements_text(CAST({param} AS JSON))"
    return f"SELECT value FROM json_each({param})"


class Store(Protocol):
    """The database as the bank sees it: reads, and one write transaction at a time (a plain function
    of the sqlite3 connection, run on the database thread: `run_write`)."""

    @property
    def engine(self) -> Engine: ...

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

    async def run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T: ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None: ...

    async def scalar(self, sql: str, params: Params = ()) -> Any: ...
