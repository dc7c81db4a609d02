"""One SQLite file, one connection, one write path.

Writes go through `Database.write()`: one `BEGIN IMMEDIATE` transaction, serialised by a lock so
statements of concurrent coroutines never interleave inside somebody else's transaction.

Two kinds of statements ride on somebody else's round trip instead of costing one of their own
(each trip is a hand-over to aiosqlite's thread and back, and a wake-up of the event loop):
- `carry(fn)`: what a task must run before anything else it does with the database (an update's
  claim, bot.core): it runs first in the task's next round trip, or on its own when the task next
  reads or talks to Telegram (`run_carried`);
- `later(fn)`: bookkeeping that may wait (an update's done mark, a screen's message id): it runs
  at the start of the next round trip that holds the write lock, whoever makes it, or at
  `flush_later()`. A process killed in between loses it; its callers say why that is harmless.
Both run inside the trip's transaction and commit with it (one commit for all; a rollback leaves
them waiting for the next trip), or each on its own in a trip without one (`run_each`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bank.errors import DatabaseTooNew, DatabaseUnusable, MigrationFailed
from bank.store import Params

T = TypeVar("T")
log = logging.getLogger(__name__)

# proctor/storage/migrations links to the top-level migrations/, so a wheel carries them as package data
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
DEFAULT_DB = Path("data") / "proctor.db"
_MIGRATION_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")


def default_db_path() -> Path:
    return Path(os.environ.get("PROCTOR_DB") or DEFAULT_DB)


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


def unusable(path: Path, error: sqlite3.Error) -> DatabaseUnusable:
    """A SQLite error about the file itself as one line naming the file."""
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


Step = Callable[[sqlite3.Connection], object]


class Carried:
    """`fn`, to run first in its task's next round trip: `result` is what it returned; an exception
    it raised stops that trip and is raised again by every later trip of the task."""

    def __init__(self, db: Database, fn: Step):
        self.db, self.fn = db, fn
        self.task = asyncio.current_task()
        self.ran = False
        self.result: object = None
        self.error: BaseException | None = None

    def detach(self) -> None:
        """Its task is done with it: its later trips (a flush, say) carry nothing and raise nothing."""
        self.task = None

    def run_in(self, conn: sqlite3.Connection) -> None:
        """On the database thread, before the trip's own statements."""
        self.ran = True
        try:
            self.result = self.fn(conn)
        except Exception as e:
            self.error = e
            raise


_CARRIED: ContextVar[Carried | None] = ContextVar("carried", default=None)


def carried() -> Carried | None:
    """The running task's carried statements, if it set some (ran or not)."""
    c = _CARRIED.get()
    return c if c is not None and c.task is asyncio.current_task() else None


async def run_carried() -> None:
    """Run the task's carried statements now if they have not run (before talking to Telegram, say).
    Raises what they raised, now or in an earlier trip."""
    c = carried()
    if c is not None:
        if not c.ran:
            await c.db.run_each(lambda conn: None)
        if c.error is not None:
            raise c.error


class _Ride:
    """The statements one round trip carries for others (see `Database._riders`)."""

    def __init__(self, db: Database, waiting: list[Step], mine: Carried | None):
        self.db, self.waiting, self.mine = db, waiting, mine

    def run(self, conn: sqlite3.Connection) -> None:
        for fn in self.waiting:
            try:
                fn(conn)
            except Exception:  # bookkeeping (see `later`): it must not fail somebody else's trip
                log.warning("a deferred write failed", exc_info=True)
        if self.mine is not None:
            self.mine.run_in(conn)

    def rolled_back(self) -> None:
        """The transaction they ran in was rolled back: they wait for the next trip again."""
        self.db._later[:0] = self.waiting
        if self.mine is not None and self.mine.error is None:
            self.mine.ran = False


class Database:
    """An open SQLite database: reads anywhere, writes through `write()`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path):
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()
        self._later: list[Step] = []

    # ---- statements that ride on another round trip (see the module's docstring) ----

    def carry(self, fn: Step) -> Carried:
        """Run `fn(conn)` first in this task's next round trip (and in no other task's)."""
        c = Carried(self, fn)
        _CARRIED.set(c)
        return c

    def later(self, fn: Step) -> None:
        """Run `fn(conn)` at the start of the next round trip that holds the write lock."""
        self._later.append(fn)

    async def flush_later(self) -> None:
        """Run what waits for a trip now (when no trip is coming: nothing else in flight)."""
        if self._later:
            await self.run_each(lambda conn: None)

    def _riders(self) -> _Ride:
        """What this trip carries (under the write lock): whatever waits for a trip, then the task's
        carried statements. Call it on the event loop's thread; run it on the database thread
        before the trip's own statements (inside its transaction, if it has one)."""
        c = carried()
        if c is not None and c.error is not None:
            raise c.error
        waiting, self._later = self._later, []
        return _Ride(self, waiting, c if c is not None and not c.ran else None)

    @classmethod
    async def open(cls, path: Path | str | None = None, *, migrate: bool = True,
                   migrations_dir: Path = MIGRATIONS_DIR, create: bool = True) -> Database:
        """Open (creating the file if needed and `create`) and migrate.

        Raises DatabaseUnusable (one line naming the file), DatabaseTooNew, MigrationFailed.
        """
        path = Path(path) if path is not None else default_db_path()
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

    async def quick_check(self) -> None:
        """SQLite's quick_check over every page (a bot start, not every open). Raises DatabaseUnusable."""
        try:
            rows = await self.fetchall("PRAGMA quick_check")
        except sqlite3.Error as e:
            raise unusable(self.path, e) from None
        if [r[0] for r in rows] != ["ok"]:
            raise DatabaseUnusable(f"{self.path} is damaged ({rows[0][0]}); restore it from a backup")

    async def close(self) -> None:
        await self.conn.close()

    async def user_version(self) -> int:
        return int(await self.scalar("PRAGMA user_version"))

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply pending migrations, each in its own transaction with its version bump.

        Raises DatabaseTooNew if the file is newer than the code, MigrationFailed if one fails
        (that one and the ones after it stay pending; the database is as it was before it).
        """
        files = migration_files(directory)
        known = files[-1][0] if files else 0
        current = await self.user_version()
        if current > known:
            raise DatabaseTooNew(
                f"{self.path} is at schema version {current}, but this code knows only up to "
                f"{known}. Upgrade Exam Proctor, or point PROCTOR_DB at another file."
            )
        applied = []
        async with self._write_lock:
            for version, path in files:
                if version <= current:
                    continue
                sql = path.read_text(encoding="utf-8")
                script = f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {version};\nCOMMIT;"
                try:
                    await self.conn.executescript(script)
                except sqlite3.Error as e:
                    if self.conn.in_transaction:
                        await self.conn.execute("ROLLBACK")
                    raise MigrationFailed(f"migration {path.name} failed: {e}") from e
                applied.append(version)
        return applied

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. Commits on success, rolls back on any exception."""
        async with self._write_lock:
            ride = self._riders()

            def begin(conn: sqlite3.Connection) -> None:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    ride.run(conn)
                except BaseException:
                    conn.execute("ROLLBACK")
                    ride.rolled_back()
                    raise

            await self.conn._execute(begin, self.conn._conn)  # type: ignore[no-untyped-call]
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                ride.rolled_back()
                raise
            else:
                await self.conn.execute("COMMIT")

    # ---- batched: several statements for the cost of one round trip to the connection's thread ----

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on the database thread: reads that need several queries cost one hop.

        `fn` gets the plain sqlite3 connection; it must only read (writes go through `run_write`).
        """
        await run_carried()  # a read trip does not hold the lock: the task's claim goes first, alone
        # aiosqlite's (private) `_execute` carries no annotations; it returns what `fn` returns
        out: T = await self.conn._execute(fn, self.conn._conn)  # type: ignore[no-untyped-call]
        return out

    async def run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on the database thread inside one `BEGIN IMMEDIATE` transaction, under the
        write lock like `write()`: commits if it returns, rolls back if it raises. One hop in all."""

        async with self._write_lock:
            ride = self._riders()

            def transaction(conn: sqlite3.Connection) -> T:
                conn.execute("BEGIN IMMEDIATE")  # what the trip carries commits with it: one commit
                try:
                    ride.run(conn)
                    out = fn(conn)
                except BaseException:
                    conn.execute("ROLLBACK")
                    ride.rolled_back()
                    raise
                conn.execute("COMMIT")
                return out

            out: T = await self.conn._execute(transaction, self.conn._conn)  # type: ignore[no-untyped-call]
            return out

    async def run_each(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on the database thread under the write lock with no transaction around it:
        each statement commits on its own (SQLite's autocommit). For writes of one statement, or of
        statements that need not stand or fall together."""
        async with self._write_lock:
            ride = self._riders()

            def each(conn: sqlite3.Connection) -> T:
                ride.run(conn)
                return fn(conn)

            out: T = await self.conn._execute(each, self.conn._conn)  # type: ignore[no-untyped-call]
            return out

    # one round trip to the connection's thread per read (execute + fetch + close would be three)
    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        await run_carried()
        return list(await self.conn.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row; meant for queries that return at most a few rows."""
        await run_carried()
        rows = list(await self.conn.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, None when there is no row. Any: what SQLite stored;
        a caller that knows the column's type says so (`n: int = await db.scalar(...)`)."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]
