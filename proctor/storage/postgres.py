"""PostgreSQL under the one write path: psycopg 3's synchronous connection on a thread of its own.

`PgConnection` is what a transaction function gets on PostgreSQL in place of a `sqlite3.Connection`,
offering the part of it the code uses: `execute(sql, params)` returning a cursor (`fetchone`,
`fetchall`, iteration, `rowcount`), `executemany`, and rows read by index or by column name like
`sqlite3.Row` (`Row`). The SQL keeps SQLite's `?` placeholders (`placeholders` turns them into
psycopg's `%s`, once per statement). A failed statement raises the `sqlite3` exception of its kind
(`IntegrityError` for a broken constraint, `OperationalError` otherwise, the psycopg error as its
cause), so callers catch one family on both engines. The connection is in autocommit mode: a read is
its own transaction, and `Database.run_write` opens each write transaction with `BEGIN` and takes
`WRITE_LOCK` (`pg_advisory_xact_lock`) first, so write transactions run one at a time across every
process on the record, as SQLite's `BEGIN IMMEDIATE` makes them.

psycopg is imported only when a location is a URL (`connect`): a bot on SQLite never loads it.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bank.errors import DatabaseUnusable
from bank.store import Engine
from proctor.storage.lease import WRITE_SESSION_OPTIONS
from proctor.storage.location import PostgresUrl

if TYPE_CHECKING:
    import psycopg  # heavy: only a postgresql:// PROCTOR_DB needs it

log = logging.getLogger(__name__)

# the advisory lock every write transaction takes first: one writer at a time on the record
WRITE_LOCK = 0x50524354  # 'PRCT', as the SQLite file's application id
BEGIN_WRITE = f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"  # one round trip
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a named parameter's name, after its colon
VERSION_TABLE = "schema_version"  # the baseline's: the schema version, one row


@lru_cache(maxsize=4096)
def placeholders(sql: str) -> str:
    """`sql` with SQLite's placeholders as psycopg's (`?` as `%s`, `:name` as `%(name)s`) and a literal
    `%` as `%%`; a `?` or `:` inside a string literal ('...'), a quoted name ("...") or a comment
    (-- ...) is left as it is."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            end = sql.find(ch, i + 1)
            while end != -1 and sql.startswith(ch, end + 1):  # '' inside a literal
                end = sql.find(ch, end + 2)
            end = n if end == -1 else end + 1
            out.append(sql[i:end].replace("%", "%%"))
            i = end
            continue
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end == -1 else end
            out.append(sql[i:end].replace("%", "%%"))
            i = end
            continue
        if ch == ":" and (name := _NAME.match(sql, i + 1)) and (i == 0 or sql[i - 1] != ":"):
            out.append(f"%({name.group()})s")
            i = name.end()
            continue
        out.append("%s" if ch == "?" else "%%" if ch == "%" else ch)
        i += 1
    return "".join(out)


class Row(tuple[Any, ...]):
    """A row read by index or by column name (in any case), as `sqlite3.Row` is; `keys()` its names."""

    _names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            try:
                key = self._names[key.lower()]
            except KeyError:
                raise IndexError("No item with that key") from None  # sqlite3.Row's error
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self._names)


def _row_factory(cursor: psycopg.Cursor[Any]) -> Any:
    names = {c.name.lower(): i for i, c in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> Row:
        return Row(values, names)
    return make


class PgConnection:
    """The part of `sqlite3.Connection` the code's transaction functions use, over psycopg's.

    A session PostgreSQL ended (a write transaction left idle past `WRITE_SESSION_OPTIONS`' timeout, an
    administrator's pg_terminate_backend, a server restart) is opened again by `reopen` before the next
    statement outside a transaction, and a statement outside one that found the session gone is sent
    once more on the new session (a read, or the BEGIN of a write: nothing of it ran). A transaction
    the session ended in fails (its statement raises); its ROLLBACK has nothing left to undo."""

    engine = Engine.postgres

    def __init__(self, conn: psycopg.Connection[Any], errors: tuple[type[Exception], type[Exception]],
                 reopen: Callable[[], psycopg.Connection[Any]] | None = None):
        self.pg = conn
        self._error, self._integrity = errors
        self._reopen = reopen
        self._in_transaction = False

    def execute(self, sql: str, params: Any = ()) -> psycopg.Cursor[Any]:
        if not isinstance(params, Sequence | Mapping):
            params = tuple(params)
        head = sql.lstrip()[:8].upper()
        ends = head.startswith(("COMMIT", "ROLLBACK"))
        outside = not self._in_transaction or head.startswith("ROLLBACK")
        if self.pg.closed and outside:
            log.warning("the PostgreSQL session had ended: opened again")
            self._reopened()
        self._in_transaction = head.startswith("BEGIN") or (self._in_transaction and not ends)
        try:
            return self._send(sql, params)
        except self._error as e:
            if not (self.pg.closed and outside and self._reopen is not None):
                raise _as_sqlite(e, self._integrity, sql) from e
            log.warning("the PostgreSQL session was ended (%s): opened again", " ".join(str(e).split())[:200])
        self._reopened()
        try:
            return self._send(sql, params)
        except self._error as e:
            raise _as_sqlite(e, self._integrity, sql) from e

    def _send(self, sql: str, params: Any) -> psycopg.Cursor[Any]:
        if not params:  # sent as it is (psycopg reads no placeholder, nor `%`, in it), never prepared
            return self.pg.execute(sql, prepare=False)
        return self.pg.execute(placeholders(sql), params)

    def _reopened(self) -> None:
        if self._reopen is None:
            return
        self.pg = self._reopen()

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> psycopg.Cursor[Any]:
        cur = self.pg.cursor()
        try:
            cur.executemany(placeholders(sql), seq)
        except self._error as e:
            raise _as_sqlite(e, self._integrity, sql) from e
        return cur

    def close(self) -> None:
        self.pg.close()


def _as_sqlite(e: Exception, integrity: type[Exception], sql: str) -> sqlite3.Error:
    """The sqlite3 exception a psycopg error stands for: a broken constraint, or any other failure;
    its traceback shows the statement (never its parameters)."""
    kind = sqlite3.IntegrityError if isinstance(e, integrity) else sqlite3.OperationalError
    said = [line.strip() for line in str(e).splitlines() if line.strip() and not line.startswith(("LINE ", " "))]
    error = kind("; ".join(said))  # one line: the message and its DETAIL, without the statement's excerpt
    error.add_note(f"in: {' '.join(sql.split())}")
    return error


def connect(url: PostgresUrl) -> PgConnection:
    """A connection to `url` (autocommit; rows as `Row`; numbers and flags as SQLite hands them over;
    a session left idle inside a transaction, by a frozen or cut-off process, ended by PostgreSQL
    (`WRITE_SESSION_OPTIONS`), so it holds the write lock and the lease row no longer than that).

    Raises DatabaseUnusable naming the URL (its password masked) when it cannot connect."""
    import psycopg  # heavy: only a postgresql:// PROCTOR_DB needs it
    from psycopg.adapt import Dumper, Loader  # heavy: psycopg's, as above
    from psycopg.conninfo import conninfo_to_dict  # heavy: psycopg's, as above
    from psycopg.pq import Format  # heavy: psycopg's, as above

    class NumericLoader(Loader):
        """numeric (what SUM of bigint and AVG give) as SQLite gives it: an int when whole, else a float."""

        def load(self, data: Any) -> Any:
            text = bytes(data).decode()
            return float(text) if any(c in text for c in ".eEN") else int(text)

    class FlagDumper(Dumper):
        """A Python bool as SQLite binds it, 1 or 0, of no declared type: the server reads it as the
        integer a flag column holds, or as the boolean a condition (`WHERE ? OR ...`) wants."""

        oid = 0  # unknown: typed by where it stands
        format = Format.TEXT

        def dump(self, obj: Any) -> bytes:
            return b"1" if obj else b"0"

    def opened() -> psycopg.Connection[Any]:
        try:
            given = conninfo_to_dict(url.conninfo()).get("options")  # the URL's own ?options= are kept
            options = f"{given} {WRITE_SESSION_OPTIONS}" if given else WRITE_SESSION_OPTIONS
            conn = psycopg.connect(url.conninfo(), autocommit=True, row_factory=_row_factory, options=options)
        except psycopg.Error as e:
            raise DatabaseUnusable(f"{url} cannot be opened: {url.masked(' '.join(str(e).split()))}") from None
        conn.adapters.register_loader("numeric", NumericLoader)
        conn.adapters.register_dumper(bool, FlagDumper)
        return conn

    return PgConnection(opened(), (psycopg.Error, psycopg.IntegrityError), reopen=opened)


def version_in(conn: PgConnection) -> int | None:
    """The schema version the database is at: 0 when it is empty, None when it holds tables of
    something else (no schema_version)."""
    if _value(conn, "SELECT to_regclass(?)", (VERSION_TABLE,)) is not None:
        return int(_value(conn, f"SELECT max(version) FROM {VERSION_TABLE}") or 0)
    tables = _value(conn, "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")
    return None if tables else 0


def _value(conn: PgConnection, sql: str, params: Sequence[Any] = ()) -> Any:
    row = conn.execute(sql, params).fetchone()
    assert row is not None  # an aggregate's or a function's one row
    return row[0]


def apply_in(conn: PgConnection, version: int, sql: str) -> bool:
    """Migration `version` in one write transaction with its version bump; False when another process
    applied it meanwhile (the version is read under the write lock). Raises sqlite3.Error when it fails
    (then nothing of it stays)."""
    conn.execute(BEGIN_WRITE)
    try:
        current = version_in(conn)
        if current is not None and current >= version:
            conn.execute("ROLLBACK")
            return False
        conn.execute(sql)
        if not conn.execute(f"UPDATE {VERSION_TABLE} SET version = ?", (version,)).rowcount:
            conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (?)", (version,))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return True
