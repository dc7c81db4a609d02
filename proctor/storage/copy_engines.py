"""Each engine's side of a record's copy (proctor/storage/copy.py): the same few operations on a plain
sqlite3 connection and on a psycopg 3 connection.

A source reads in one snapshot (SQLite's read transaction, PostgreSQL's REPEATABLE READ), so a bot that
keeps writing to it changes nothing the copy sees. A destination works in one transaction that the copy
commits only after its check: SQLite's `BEGIN IMMEDIATE`, PostgreSQL's with every table locked. Rows are
streamed (a cursor in, `executemany` or COPY out), never a table held whole.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files

if TYPE_CHECKING:
    import psycopg

POSTGRES_MIGRATIONS = MIGRATIONS_DIR / "postgres"
POSTGRES_BASELINE = 41  # PostgreSQL's schema starts here (migrations/postgres/041_baseline.sql)
# tables that are not the record: each engine's own bookkeeping (SQLite's PRAGMAs are PostgreSQL's
# one-row tables) and the leadership lease, a running process's state
NOT_RECORD = frozenset({"sqlite_sequence", "schema_version", "app_stamp", "leader_lease", "leader_standby"})
BATCH = 2000  # rows a PostgreSQL cursor fetches at a time

Row = tuple[Any, ...]


class Kind(StrEnum):
    """What a column holds, named alike for both engines."""

    int = "int"
    real = "real"
    text = "text"
    blob = "blob"


_SQLITE_KINDS = {"INTEGER": Kind.int, "REAL": Kind.real, "TEXT": Kind.text, "BLOB": Kind.blob}
_POSTGRES_KINDS = {"bigint": Kind.int, "integer": Kind.int, "smallint": Kind.int, "double precision": Kind.real,
                   "real": Kind.real, "text": Kind.text, "bytea": Kind.blob}


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    kinds: tuple[Kind | None, ...]  # None: a type the copy does not know (compared as it comes)
    key: tuple[str, ...]  # the primary key; () for none (rows are then ordered by every column)
    parents: frozenset[str]  # the tables its foreign keys refer to
    numbered: str | None  # the column the engine numbers (SQLite's rowid alias, PostgreSQL's identity)

    def order(self) -> tuple[str, ...]:
        return self.key or self.columns


def name(identifier: str) -> str:
    """An identifier quoted for either engine."""
    return '"' + identifier.replace('"', '""') + '"'


def _columns(table: Table) -> str:
    return ", ".join(map(name, table.columns))


def _order_by(table: Table, text_collation: str) -> str:
    """The ORDER BY both engines sort alike by: text by code point (SQLite's BINARY, PostgreSQL's "C").
    A key's columns hold no NULL (its index serves the order); a table without a key is sorted by every
    column, NULLs first."""
    nulls = "" if table.key else " NULLS FIRST"
    return ", ".join(f"{name(c)}{text_collation if k is Kind.text else ''}{nulls}"
                     for c in table.order() for k in [table.kinds[table.columns.index(c)]])


class SqliteSide:
    """A SQLite file: a source read in one read transaction, or a destination written in one
    `BEGIN IMMEDIATE` with its foreign keys checked at the commit."""

    errors: tuple[type[Exception], ...] = (sqlite3.Error,)

    def __init__(self, path: Path, con: sqlite3.Connection, *, created: bool = False):
        self.path = path
        self.con = con
        self.created = created  # made by this copy: removed when the copy fails
        self._triggers: list[str] = []

    @classmethod
    def source(cls, path: Path) -> SqliteSide:
        """Open `path` (never created) in a read transaction: one snapshot; nothing is written to it."""
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)  # never made
        con.execute("BEGIN")
        return cls(path, con)

    @classmethod
    def destination(cls, path: Path, *, create: bool) -> SqliteSide:
        """Open `path`; when `create`, a new record is made at the newest version by Database.open's
        migrations first."""
        if create:
            asyncio.run(_created(path))
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA busy_timeout=5000")
        con.execute("PRAGMA foreign_keys=ON")
        return cls(path, con, created=create)

    def has_schema(self) -> bool:
        return self.version() > 0

    def version(self) -> int:
        return int(self.con.execute("PRAGMA user_version").fetchone()[0])

    def application_id(self) -> int:
        return int(self.con.execute("PRAGMA application_id").fetchone()[0])

    def tables(self) -> dict[str, Table]:
        found = {}
        for (table,) in self.con.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"):
            if table in NOT_RECORD or table.startswith("sqlite_"):
                continue
            info = self.con.execute(f"PRAGMA table_info({name(table)})").fetchall()
            key = tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
            without_rowid = self.con.execute("SELECT wr FROM pragma_table_list WHERE name = ?", (table,)).fetchone()[0]
            numbered = key[0] if len(key) == 1 and not without_rowid and \
                next(r[2] for r in info if r[1] == key[0]).upper() == "INTEGER" else None
            parents = frozenset(r[2] for r in self.con.execute(f"PRAGMA foreign_key_list({name(table)})"))
            found[table] = Table(table, tuple(r[1] for r in info), tuple(_SQLITE_KINDS.get(r[2].upper()) for r in info),
                                 key, parents, numbered)
        return found

    def rows(self, table: Table) -> Generator[Row, None, None]:
        yield from self.con.execute(f"SELECT {_columns(table)} FROM {name(table.name)} "
                                    f"ORDER BY {_order_by(table, ' COLLATE BINARY')}")

    def high_water(self) -> dict[str, int]:
        """The largest id each AUTOINCREMENT table ever gave (it never gives one again)."""
        return {t: int(seq) for t, seq in self.con.execute("SELECT name, seq FROM sqlite_sequence")}

    # the destination's side ------------------------------------------------------------------------

    def begin(self) -> None:
        self.con.execute("BEGIN IMMEDIATE")
        self.con.execute("PRAGMA defer_foreign_keys=ON")  # checked at the commit: the copy's order is free

    def holding(self, tables: Iterable[Table]) -> list[str]:
        return [t.name for t in tables if self.con.execute(f"SELECT 1 FROM {name(t.name)} LIMIT 1").fetchone()]

    def triggers_off(self) -> None:
        """The triggers dropped for the copy (the summary tables come as rows, and a code or a seq the
        source holds is kept as it is), to be made again by `triggers_on` in the same transaction."""
        self._triggers = []
        for trigger, sql in self.con.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' "
                                             "ORDER BY name").fetchall():
            self._triggers.append(sql)
            self.con.execute(f"DROP TRIGGER {name(trigger)}")

    def triggers_on(self) -> None:
        for sql in self._triggers:
            self.con.execute(sql)
        self._triggers = []

    def empty(self, tables: list[Table]) -> None:
        for t in tables:
            self.con.execute(f"DELETE FROM {name(t.name)}")

    def insert(self, table: Table, rows: Iterable[Row]) -> int:
        marks = ", ".join("?" * len(table.columns))
        cur = self.con.executemany(f"INSERT INTO {name(table.name)} ({_columns(table)}) VALUES ({marks})", rows)
        return max(cur.rowcount, 0)

    def number_from(self, tables: list[Table], high: dict[str, int]) -> None:
        """Each AUTOINCREMENT table's counter at its largest id, or the source's own high-water mark when
        that is larger (an id given once is not given again)."""
        counted = {t for (t,) in self.con.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'")}
        self.con.execute("DELETE FROM sqlite_sequence")
        for t in tables:
            if t.name in counted and t.numbered:
                top = self.con.execute(f"SELECT MAX({name(t.numbered)}) FROM {name(t.name)}").fetchone()[0] or 0
                if (seq := max(top, high.get(t.name, 0))) > 0:
                    self.con.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (t.name, seq))

    def commit(self) -> None:
        self.con.execute("COMMIT")

    def rollback(self) -> None:
        if self.con.in_transaction:
            self.con.execute("ROLLBACK")

    def close(self, *, failed: bool = False) -> None:
        self.con.close()
        if failed and self.created:
            for extra in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{extra}").unlink(missing_ok=True)


async def _created(path: Path) -> None:
    db = await Database.open(path)
    await db.close()


class PostgresSide:
    """A PostgreSQL database: a source read in one REPEATABLE READ, READ ONLY transaction, or a
    destination written in one transaction with its tables locked and its triggers off
    (`session_replication_role = replica`: the summaries come as rows, and nothing recounts them)."""

    def __init__(self, con: psycopg.Connection[Row], errors: tuple[type[Exception], ...]):
        self.con = con
        self.errors = errors
        self.created = False
        self._cursors = 0

    @classmethod
    def connect(cls, conninfo: str, *, source: bool) -> PostgresSide:
        import psycopg  # heavy: PostgreSQL's driver, only when a copy names a postgresql:// URL

        con = psycopg.connect(conninfo, autocommit=False)
        if source:
            con.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            con.read_only = True
        return cls(con, (psycopg.Error,))

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        row = self.con.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def has_schema(self) -> bool:
        return self._one("SELECT to_regclass('schema_version') IS NOT NULL") is True

    def holds_tables(self) -> bool:
        return self._one("SELECT EXISTS (SELECT 1 FROM pg_class WHERE relkind = 'r' "
                         "AND relnamespace = current_schema()::regnamespace)") is True

    def version(self) -> int:
        return int(self._one("SELECT version FROM schema_version"))

    def application_id(self) -> int:
        return int(self._one("SELECT application_id FROM app_stamp") or 0)

    def tables(self) -> dict[str, Table]:
        columns: dict[str, list[tuple[str, Kind | None, bool]]] = {}
        for table, column, kind, identity in self.con.execute(
                """SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attidentity <> ''
                   FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                   WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
                   ORDER BY c.relname, a.attnum"""):
            if table not in NOT_RECORD:
                columns.setdefault(table, []).append((column, _POSTGRES_KINDS.get(kind), identity))
        keys: dict[str, list[str]] = dict(self.con.execute(
            """SELECT c.relname, array_agg(a.attname ORDER BY k.n)
               FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
               CROSS JOIN unnest(i.indkey) WITH ORDINALITY k(attnum, n)
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
               WHERE i.indisprimary AND c.relnamespace = current_schema()::regnamespace GROUP BY c.relname"""))
        parents: dict[str, set[str]] = {}
        for child, parent in self.con.execute(
                """SELECT c.relname, p.relname FROM pg_constraint f
                   JOIN pg_class c ON c.oid = f.conrelid JOIN pg_class p ON p.oid = f.confrelid
                   WHERE f.contype = 'f' AND c.relnamespace = current_schema()::regnamespace"""):
            parents.setdefault(child, set()).add(parent)
        return {t: Table(t, tuple(c[0] for c in cols), tuple(c[1] for c in cols), tuple(keys.get(t, ())),
                         frozenset(parents.get(t, ())), next((c[0] for c in cols if c[2]), None))
                for t, cols in columns.items()}

    def rows(self, table: Table) -> Generator[Row, None, None]:
        self._cursors += 1
        with self.con.cursor(name=f"copy_rows_{self._cursors}") as cur:
            cur.itersize = BATCH
            order = _order_by(table, ' COLLATE "C"')
            cur.execute(f"SELECT {_columns(table)} FROM {name(table.name)} ORDER BY {order}")
            yield from cur

    def high_water(self) -> dict[str, int]:
        """The largest id each table's identity gave (an id given once is not given again)."""
        found = {}
        for t in self.tables().values():
            if t.numbered:
                sequence = self._one("SELECT pg_get_serial_sequence(%s, %s)", (name(t.name), t.numbered))
                last, called = self.con.execute(f"SELECT last_value, is_called FROM {sequence}").fetchone() or (0, True)
                found[t.name] = int(last) if called else int(last) - 1
        return found

    # the destination's side ------------------------------------------------------------------------

    def create(self, version: int) -> None:
        """The schema at `version` made in this transaction: the baseline, then each later migration."""
        for number, path in migration_files(POSTGRES_MIGRATIONS):
            if number <= version:
                self.con.execute(path.read_text(encoding="utf-8"))
                if number > POSTGRES_BASELINE:
                    self.con.execute("UPDATE schema_version SET version = %s", (number,))
        self.created = True

    def begin(self) -> None:
        """The transaction the copy runs in (begun by the first statement): every table locked first,
        then the triggers off until it ends."""
        tables = ", ".join(name(t) for t in self.tables())
        self.con.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
        self.con.execute("SET LOCAL session_replication_role = replica")

    def holding(self, tables: Iterable[Table]) -> list[str]:
        return [t.name for t in tables if self._one(f"SELECT EXISTS (SELECT 1 FROM {name(t.name)})")]

    def triggers_off(self) -> None:
        """Nothing to do: `begin` set the replica role, under which no user trigger fires."""

    def triggers_on(self) -> None:
        """Nothing to do: the replica role ends with the transaction."""

    def empty(self, tables: list[Table]) -> None:
        self.con.execute(f"TRUNCATE {', '.join(name(t.name) for t in tables)}")

    def insert(self, table: Table, rows: Iterable[Row]) -> int:
        count = 0
        with self.con.cursor() as cur, cur.copy(f"COPY {name(table.name)} ({_columns(table)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
        return count

    def number_from(self, tables: list[Table], high: dict[str, int]) -> None:
        """Each identity's sequence set past the table's largest id, or past the source's own
        high-water mark when that is larger."""
        for t in tables:
            if t.numbered:
                top = self._one(f"SELECT COALESCE(MAX({name(t.numbered)}), 0) FROM {name(t.name)}")
                last = max(int(top), high.get(t.name, 0))
                self.con.execute("SELECT setval(pg_get_serial_sequence(%s, %s), %s, %s)",
                                 (name(t.name), t.numbered, max(last, 1), last > 0))

    def commit(self) -> None:
        self.con.commit()

    def rollback(self) -> None:
        self.con.rollback()

    def close(self, *, failed: bool = False) -> None:
        self.con.close()


Side = SqliteSide | PostgresSide
