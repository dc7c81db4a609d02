"""The record: one SQLite file (or one PostgreSQL database), one connection, one write path.

Every transaction is a plain function of a `sqlite3.Connection`, run on the database's thread inside
one `BEGIN IMMEDIATE` by `Database.run_write` (Datasette's `execute_write_fn`): commits if it
returns, rolls back if it raises. A lock serialises writers, so statements of concurrent coroutines
never interleave inside somebody else's transaction, and nothing rides on another caller's trip.

Reads run anywhere (`fetchall`, `fetchone`, `scalar`), or as one function on the thread (`run`).
aiosqlite offers no public way to run a function on its thread; `_on_thread` is the one place that
uses its private API, pinned to the versions it was tested with (`TESTED_AIOSQLITE`).

On a PostgreSQL URL the same functions run on a thread of the database's own, over psycopg 3's
synchronous connection, which offers them what they use of sqlite3's (proctor/storage/postgres.py);
each write transaction takes an advisory lock first, so writers are one at a time across processes
as with `BEGIN IMMEDIATE`. Its schema starts from the baseline in migrations/postgres/. While the
process leads (`proctor run` next to a standby, docs/leadership.md), `fencing` is its campaign, and each
write transaction ends with its fence: a process whose lease was taken over cannot commit.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

from bank.errors import DatabaseTooNew, DatabaseUnusable, MigrationFailed
from bank.store import Engine, Params
from proctor.storage import postgres
from proctor.storage.location import DbLocation, PostgresUrl, parse_location
from proctor.storage.postgres import BEGIN_WRITE, PgConnection

T = TypeVar("T")

# proctor/storage/migrations links to the top-level migrations/, so a wheel carries them as package data
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
POSTGRES_MIGRATIONS = "postgres"  # MIGRATIONS_DIR's folder of PostgreSQL's: the baseline and those after it
DEFAULT_DB = Path("data") / "proctor.db"  # PROCTOR_DB's default (bot/settings.py)
_MIGRATION_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in directory.iterdir():
        m = _MIGRATION_NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), path))
    found.sort()
    versions = [v for v, _ in found]
    if len(set(versions)) != len(versions):
        raise MigrationFailed(f"two migrations share a number in {directory}")
    return found


def _check_usable(path: Path, *, create: bool) -> None:
    """What SQLite would report obscurely, or not at all when running as root: say it plainly. A missing
    file is created only if `create`; a missing folder only if it is the default one (./data): a
    mistyped path is refused, never made."""
    if path.is_dir():
        raise DatabaseUnusable(f"{path} is a directory, not a database file; give a file path with --db or PROCTOR_DB")
    if not path.exists():
        if not create:
            raise DatabaseUnusable(f"{path} does not exist; check --db or PROCTOR_DB "
                                   "(`proctor run` and `proctor import` create one)")
        if not path.parent.is_dir():
            if path.parent != DEFAULT_DB.parent or path.parent.exists():
                raise DatabaseUnusable(f"{path}: its folder {path.parent} does not exist; create it first, "
                                       "or check --db or PROCTOR_DB")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise DatabaseUnusable(f"{path}: cannot create its folder: {e.strerror or e}") from None
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnusable(f"{path} is read-only; Exam Proctor writes to its database (check the file's permissions)")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise DatabaseUnusable(f"{path}: its folder is read-only; SQLite needs to create its journal files next to it")


def unusable(path: DbLocation, error: sqlite3.Error) -> DatabaseUnusable:
    """A database error about the record itself as one line naming it (a URL without its password)."""
    text = str(error)
    if "file is not a database" in text:
        why = "is not an SQLite database (or is encrypted)"
    elif "malformed" in text or "corrupt" in text:
        why = "is damaged (truncated or corrupted); restore it from a backup"
    elif "readonly" in text or "read-only" in text:
        why = "is read-only; Exam Proctor writes to its database"
    elif "unable to open" in text:
        why = "cannot be opened (check the path and its permissions)"
    else:
        why = f"cannot be used: {text}"
    return DatabaseUnusable(f"{path} {why}")


class Fencing(Protocol):
    """Who may write on PostgreSQL: the campaign of a leading process (proctor.storage.campaign)."""

    def fence(self, conn: Any) -> None:
        """Called on the write connection (psycopg's) as a write transaction's last statement; raises
        StaleEpoch (the transaction rolls back) unless this process still leads."""


# aiosqlite versions `Database._on_thread` was tested with (tests/proctor/test_write_path.py)
TESTED_AIOSQLITE = ("0.20.0", "0.21.0", "0.22.0", "0.22.1")


class Database:
    """An open record (a SQLite file, or a PostgreSQL database): reads anywhere, writes through `run_write()`."""

    def __init__(self, conn: aiosqlite.Connection | None, path: DbLocation, *,
                 pg: PgConnection | None = None, thread: ThreadPoolExecutor | None = None):
        self.conn = conn  # SQLite's (None on PostgreSQL)
        self.location = path
        self._pg, self._pg_thread = pg, thread
        self._write_lock = asyncio.Lock()
        # the leading process's campaign (PostgreSQL only): every write transaction ends with its fence;
        # None for the CLI, a SQLite record and a bot that runs alone
        self.fencing: Fencing | None = None

    @property
    def engine(self) -> Engine:
        return Engine.sqlite if self._pg is None else Engine.postgres

    @classmethod
    async def open(cls, path: DbLocation | str, *, migrate: bool = True,
                   migrations_dir: Path = MIGRATIONS_DIR, create: bool = True) -> Database:
        """Open (creating the file if needed and `create`) and migrate; a PostgreSQL URL opens that database.

        Raises DatabaseUnusable (one line naming the file), DatabaseTooNew, MigrationFailed.
        """
        location = parse_location(path)
        if isinstance(location, PostgresUrl):
            return await cls._open_postgres(location, migrate=migrate, migrations_dir=migrations_dir)
        path = location
        if str(path) != ":memory:":
            _check_usable(path, create=create)
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as e:
            raise unusable(path, e) from None
        conn.row_factory = sqlite3.Row
        db = cls(conn, path)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA busy_timeout=5000")
            if migrate:
                await db.migrate(migrations_dir)
        except sqlite3.Error as e:
            await conn.close()
            raise unusable(path, e) from None
        except BaseException:
            await conn.close()
            raise
        return db

    @classmethod
    async def _open_postgres(cls, url: PostgresUrl, *, migrate: bool, migrations_dir: Path) -> Database:
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="proctor-postgres")
        try:
            pg = await asyncio.get_running_loop().run_in_executor(thread, postgres.connect, url)
        except BaseException:
            thread.shutdown(wait=False)
            raise
        db = cls(None, url, pg=pg, thread=thread)
        try:
            if migrate:
                await db.migrate(migrations_dir)
        except sqlite3.Error as e:
            await db.close()
            raise unusable(url, e) from None
        except BaseException:
            await db.close()
            raise
        return db

    async def quick_check(self) -> None:
        """SQLite's quick_check over every page (a bot start, not every open); PostgreSQL checks its own
        pages as it reads them. Raises DatabaseUnusable."""
        if self._pg is not None:
            return
        try:
            rows = await self.fetchall("PRAGMA quick_check")
        except sqlite3.Error as e:
            raise unusable(self.location, e) from None
        if [r[0] for r in rows] != ["ok"]:
            raise DatabaseUnusable(f"{self.location} is damaged ({rows[0][0]}); restore it from a backup")

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            return
        assert self._pg_thread is not None
        try:
            await self._on_pg_thread(PgConnection.close)
        finally:
            self._pg_thread.shutdown(wait=False)

    async def user_version(self) -> int:
        """The schema version: SQLite's `user_version`, PostgreSQL's `schema_version` table (0: empty)."""
        if self._pg is not None:
            version = await self._on_pg_thread(postgres.version_in)
            if version is None:
                raise DatabaseUnusable(f"{self.location} is not an Exam Proctor database: it holds tables but no "
                                       f"{postgres.VERSION_TABLE}; point PROCTOR_DB at an empty database")
            return version
        return int(await self.scalar("PRAGMA user_version"))

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply pending migrations, each in its own transaction with its version bump.

        Raises DatabaseTooNew if the file is newer than the code, MigrationFailed if one fails
        (that one and the ones after it stay pending; the database is as it was before it).
        """
        if self._pg is not None:
            directory = directory / POSTGRES_MIGRATIONS
        files = migration_files(directory)
        known = files[-1][0] if files else 0
        current = await self.user_version()
        if current > known:
            raise DatabaseTooNew(
                f"{self.location} is at schema version {current}, but this code knows only up to "
                f"{known}. Upgrade Exam Proctor, or point PROCTOR_DB at another file."
            )
        applied = []
        async with self._write_lock:
            for version, path in files:
                if version <= current:
                    continue
                sql = path.read_text(encoding="utf-8")
                if await self._apply(version, path.name, sql):
                    applied.append(version)
        return applied

    async def _apply(self, version: int, name: str, sql: str) -> bool:
        """One migration in its own transaction with its version bump; False when another process (on
        PostgreSQL) applied it first. Raises MigrationFailed."""
        if self._pg is not None:
            try:
                return await self._on_pg_thread(partial(postgres.apply_in, version=version, sql=sql))
            except sqlite3.Error as e:
                raise MigrationFailed(f"migration {POSTGRES_MIGRATIONS}/{name} failed: {e}") from e
        assert self.conn is not None
        script = f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {version};\nCOMMIT;"
        try:
            await self.conn.executescript(script)
        except sqlite3.Error as e:
            if self.conn.in_transaction:
                await self.conn.execute("ROLLBACK")
            raise MigrationFailed(f"migration {name} failed: {e}") from e
        return True

    async def _on_thread(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on aiosqlite's thread with its plain sqlite3 connection: one hop.

        The only use of aiosqlite's private API (`_execute`, `_conn`): it has no public way to run a
        function on its thread. Tested with TESTED_AIOSQLITE (tests/proctor/test_write_path.py fails
        when the installed version is another, or the two are gone)."""
        if self._pg is not None:
            # PgConnection offers what the code uses of sqlite3.Connection (proctor/storage/postgres.py)
            return await self._on_pg_thread(cast(Callable[[PgConnection], T], fn))
        assert self.conn is not None
        out: T = await self.conn._execute(fn, self.conn._conn)  # type: ignore[no-untyped-call]
        return out

    async def _on_pg_thread(self, fn: Callable[[PgConnection], T]) -> T:
        """Run `fn(conn)` on the PostgreSQL connection's own thread: one hop."""
        assert self._pg is not None and self._pg_thread is not None
        return await asyncio.get_running_loop().run_in_executor(self._pg_thread, fn, self._pg)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on the database thread: reads that need several queries cost one hop.

        `fn` gets the plain sqlite3 connection; it must only read (writes go through `run_write`).
        """
        return await self._on_thread(fn)

    async def run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """The write path: `fn(conn)` on the database thread inside one `BEGIN IMMEDIATE` transaction
        (on PostgreSQL `BEGIN` and the write lock, `postgres.WRITE_LOCK`), under the write lock:
        commits if it returns, rolls back if it raises. One hop in all. With `fencing` set (a leading
        process on PostgreSQL), the fence is the transaction's last statement: StaleEpoch rolls it back."""
        begin = "BEGIN IMMEDIATE" if self._pg is None else BEGIN_WRITE
        fencing = self.fencing if self._pg is not None else None

        def transaction(conn: sqlite3.Connection) -> T:
            conn.execute(begin)
            try:
                out = fn(conn)
                if fencing is not None:
                    fencing.fence(cast(PgConnection, conn).pg)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return out

        async with self._write_lock:
            return await self._on_thread(transaction)

    # one round trip to the connection's thread per read (execute + fetch + close would be three)
    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        if self.conn is None:
            return await self._on_pg_thread(lambda conn: list(conn.execute(sql, params).fetchall()))
        return list(await self.conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row; meant for queries that return at most a few rows."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, None when there is no row. Any: what SQLite stored;
        a caller that knows the column's type says so (`n: int = await db.scalar(...)`)."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]
