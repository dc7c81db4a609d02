"""A consistent copy of the live database while the bot runs (`proctor backup`), and putting one
back on a stopped bot (`proctor restore`).

The copy uses SQLite's online backup API in steps, with a short pause between steps so its reads do
not crowd the bot's disk. It first opens a read transaction on the source: the bot's file is in WAL
mode (`Database.open`), so that snapshot blocks no writer, every step copies from the same snapshot,
and the copy is the database as it was at one commit. Without it, each commit of the bot would
restart the copy from its first page (SQLite restarts a backup whose source another connection
changed), and a busy round would never finish. The bot's commits meanwhile go to the WAL; a
checkpoint cannot fold in pages past the snapshot until the copy ends, so the WAL grows by what the
bot writes during the copy, no more.

The copy is written to a temporary file next to the target, stamped as an Exam Proctor database
(proctor/storage/stamp.py), checked (`PRAGMA integrity_check`, an Exam Proctor database, a schema
version this code knows, and exactly the schema the migrations make at that version) and only then
renamed into place: the target is either the previous backup or a complete, checked one. A target
that exists is replaced only when it is a backup (stamped, in rollback-journal mode as backups are
written): any other file there, a bot's own database included, is refused and left as it was. Neither command writes over one of the live database's own files (the file,
its `-wal`, `-shm` or `-journal`, however the path is spelled). Every file they create (the copy, the
file kept before a restore and its `-wal`) is created with its permissions before SQLite opens it:
the live file's when they give others nothing, else 0600 (SQLite would create it 0644 under the
usual umask, and a backup folder is often readable by more people than the data folder).

Whether the bot runs is asked of SQLite itself, not of a lock file that a killed process would leave
behind: every open connection to a WAL database holds a shared lock on the file (the bot's from
start to stop), so an exclusive lock (`locking_mode=EXCLUSIVE` + `BEGIN EXCLUSIVE`, no busy wait)
is granted only when no process has the file open; `kill -9` releases a process's locks. The
restore keeps that lock until the restored database is in place, so a bot started meanwhile waits.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from bank.errors import DatabaseTooNew, DatabaseUnusable
from proctor.errors import ProctorError
from proctor.storage.bootstrap import open_database
from proctor.storage.db import migration_files, unusable
from proctor.storage.schema import difference, schema_of
from proctor.storage.stamp import APP_ID, FileKind, kind_of

STEP_PAGES = 1024  # 4 MiB a step at SQLite's default page size
PAUSE = 0.005  # seconds between steps
_PROCTOR_TABLES = {"papers", "questions"}  # migration 001's: every Exam Proctor database has them
_COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database, named after it
_PRIVATE = 0o600  # a copy's permissions when the live file's give others access (or there is none)
_MALFORMED = sqlite3.DatabaseError("database disk image is malformed")  # what SQLite says of a damaged file


class BotRunning(ProctorError):
    """The database is open in another process (the bot): a restore waits until it is stopped."""


@dataclass(frozen=True, slots=True)
class Copy:
    """A finished backup: the file written, its size and schema version, how long it took."""

    path: Path
    size: int
    version: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Restored:
    """A finished restore: the backup's schema version, the version it was migrated to, and where
    the database it replaced was kept (None when there was none)."""

    from_version: int
    version: int
    kept: Path | None


def known_version() -> int:
    """The newest schema version this code can open."""
    files = migration_files()
    return files[-1][0] if files else 0


def backup(source: Path, target: Path, *, step_pages: int = STEP_PAGES, pause: float = PAUSE) -> Copy:
    """Copy the database at `source` to `target` (replaced only by a complete, checked copy).

    Raises DatabaseUnusable (no database there, damaged, a target that is one of the source's own files,
    an existing file that is not a backup, or one that cannot be written) and DatabaseTooNew (written
    by newer code than this).
    """
    if not source.is_file():
        raise DatabaseUnusable(f"{source}: no database there (give it with --db or PROCTOR_DB)")
    if (part := _live_part(target, source)) is not None:
        raise DatabaseUnusable(f"{target} is {part}; give the backup another name")
    if not target.parent.is_dir():
        raise DatabaseUnusable(f"{target}: its folder {target.parent} does not exist")
    _replaceable(target)
    started = time.monotonic()
    tmp = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        with _naming(source):
            _copy(source, tmp, _copy_mode(source), step_pages=step_pages, pause=pause, snapshot=True)
            with _connect(tmp) as con:  # a copy of a database older than migration 038 is stamped too
                con.execute(f"PRAGMA application_id = {APP_ID}")
        version = check(tmp, name=source)
        _fsync(tmp)
        _replaceable(target)  # again: the copy took a while, and a file may have been put there meanwhile
        os.replace(tmp, target)
        _fsync(target.parent)
    except OSError as e:
        raise DatabaseUnusable(f"{target}: cannot be written: {e.strerror or e}") from None
    finally:
        _remove(tmp)
    return Copy(target, target.stat().st_size, version, time.monotonic() - started)


def _replaceable(target: Path) -> None:
    """Raises DatabaseUnusable unless `target` is absent or a backup (stamp.FileKind.backup)."""
    if target.is_dir():
        raise DatabaseUnusable(f"{target} is a directory; give the backup a file name, such as {target / 'proctor.db'}")
    try:
        kind = kind_of(target)
    except OSError as e:
        raise DatabaseUnusable(f"{target}: cannot be written: {e.strerror or e}") from None
    match kind:
        case FileKind.absent | FileKind.backup:
            return
        case FileKind.live:
            raise DatabaseUnusable(f"{target} is a bot's own database, not a backup; give the backup another name")
        case FileKind.other:
            raise DatabaseUnusable(f"{target} exists and is not an Exam Proctor backup; give the backup another "
                                   f"name, or remove that file first")


def _live_part(path: Path, live: Path) -> str | None:
    """Which of the live database's own files `path` is ("the live database itself", "the live
    database's -wal file", ...), with links, `..` and hard links resolved; None when it is none."""
    real = path.resolve()
    for base in (live, live.resolve()):  # the companions beside the link and beside the file it names
        for suffix in ("", *_COMPANIONS):
            own = base.with_name(base.name + suffix)
            if real == own.resolve() or _same_file(path, own):
                return f"the live database's {suffix} file" if suffix else "the live database itself"
    return None


def _copy_mode(live: Path) -> int:
    """The permissions of a file holding a copy of the database at `live`: the live file's when they
    give others nothing and its owner can read and write (0600, 0640, 0660), else 0600."""
    try:
        mode = stat.S_IMODE(live.stat().st_mode)
    except OSError:
        return _PRIVATE
    return mode if mode & ~0o660 == 0 and mode & _PRIVATE == _PRIVATE else _PRIVATE


def check(path: Path, *, name: Path) -> int:
    """The schema version of the database file `path` (reported as `name`) after checking that it is
    whole (`PRAGMA integrity_check`), an Exam Proctor database, not newer than this code, and that
    its schema is the one the migrations make at its version: no table, index, view or trigger more
    or less, none with other SQL (`schema_of`).

    Raises DatabaseUnusable, DatabaseTooNew."""
    with _naming(name), _connect(path) as con:
        con.text_factory = lambda b: b.decode("utf-8", "replace")  # damaged text: a schema that differs
        problems = [r[0] for r in con.execute("PRAGMA integrity_check")]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
        version = int(con.execute("PRAGMA user_version").fetchone()[0])
        schema = schema_of(con)
    if problems != ["ok"]:  # the first problem's last line: "*** in database main ***\nPage 96: ..."
        raise DatabaseUnusable(f"{name} is damaged ({(problems[0].splitlines() or ['?'])[-1]})")
    if version < 1 or not tables >= _PROCTOR_TABLES:
        raise DatabaseUnusable(f"{name} is an SQLite database but not an Exam Proctor one")
    if version > (known := known_version()):
        raise DatabaseTooNew(f"{name} is at schema version {version}, but this code knows only up to {known}; "
                             f"upgrade Exam Proctor first")
    if (odd := difference(schema, version)) is not None:
        raise DatabaseUnusable(f"{name} does not have the schema of its version {version}: {odd}")
    return version


async def restore(source: Path, live: Path, now: float) -> Restored:
    """Put the backup `source` in place of the database at `live`, on a stopped bot: checked first,
    migrated when older than this code; the database it replaces is kept as
    `<live>.before-restore-<UTC time>` (with its `-wal`, if it had one).

    Raises BotRunning, DatabaseUnusable, DatabaseTooNew, MigrationFailed; on any of them `live` is
    as it was. Every SQLite error is one of them: a damaged file is one line, never a traceback."""
    if (part := _live_part(source, live)) is not None:
        raise DatabaseUnusable(f"{source} is {part}" + (", not a backup" if part.endswith("file") else ""))
    if source.is_dir():
        raise DatabaseUnusable(f"{source} is a directory, not a backup file")
    if not source.is_file():
        raise DatabaseUnusable(f"{source}: no such file")
    live.parent.mkdir(parents=True, exist_ok=True)
    mode = _copy_mode(live)
    tmp = live.with_name(f".{live.name}.restoring-{os.getpid()}")
    try:
        with _naming(source):
            _copy(source, tmp, mode, snapshot=False)
            from_version = check(tmp, name=source)
            # the migrations and start-up fills run on the copy: a failure leaves the live file untouched
            try:
                db = await open_database(tmp)
            except DatabaseUnusable as e:  # said of the temporary copy: say it of the backup
                raise DatabaseUnusable(str(e).replace(str(tmp), str(source))) from None
            try:
                version = await db.user_version()
            finally:
                await db.close()
        had_data = live.is_file() and live.stat().st_size > 0
        os.close(os.open(live, os.O_WRONLY | os.O_CREAT, mode))  # with `mode` if it is not there
        with _naming(live), _stopped(live) as conn:
            kept = _keep(live, now, mode) if had_data else None
            if conn is None:  # the live file is not a database any more: no connection can write it
                os.replace(tmp, live)
                for stale in ("-wal", "-shm"):  # the old file's: SQLite would replay them onto the new one
                    live.with_name(live.name + stale).unlink(missing_ok=True)
            else:
                with _connect(tmp) as src:
                    src.backup(conn)
    except OSError as e:
        raise DatabaseUnusable(f"{live}: cannot be replaced: {e.strerror or e}") from None
    finally:
        _remove(tmp)
    return Restored(from_version, version, kept)


def _copy(source: Path, target: Path, mode: int, *, snapshot: bool, step_pages: int = STEP_PAGES,
          pause: float = PAUSE) -> None:
    """SQLite's backup of `source` into a new file `target` (created with `mode`), a single file
    (rollback journal, which SQLite creates with the file's mode)."""
    _remove(target)
    _create(target, mode)
    with _connect(source) as src, _connect(target) as dst:
        if snapshot:  # one read transaction for every step (see the module's docstring)
            src.execute("BEGIN")
            src.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        src.backup(dst, pages=step_pages, progress=lambda *_: time.sleep(pause))
        dst.execute("PRAGMA journal_mode=DELETE")


@contextmanager
def _connect(path: Path, timeout: float = 5.0) -> Iterator[sqlite3.Connection]:
    con = sqlite3.connect(path, isolation_level=None, timeout=timeout)
    try:
        yield con
    finally:
        con.close()


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """SQLite's errors inside the block as one line, DatabaseUnusable naming `path`. A damaged file's
    text may not be UTF-8: Python's sqlite3 then raises UnicodeDecodeError making an error message
    that quotes it, or an error quoting the text (lines of SQL) it could not decode."""
    try:
        yield
    except sqlite3.Error as e:
        if "Could not decode to UTF-8" in str(e):
            raise unusable(path, _MALFORMED) from None
        raise DatabaseUnusable(" ".join(str(unusable(path, e)).splitlines())) from None
    except UnicodeDecodeError:
        raise unusable(path, _MALFORMED) from None


@contextmanager
def _stopped(live: Path) -> Iterator[sqlite3.Connection | None]:
    """An exclusive hold on `live` for as long as the block runs: a connection no other process can
    share (raises BotRunning when one has the file open), or None when the file is not a database
    (nothing can have it open as one)."""
    with _connect(live, timeout=0) as con:
        try:
            con.execute("PRAGMA locking_mode=EXCLUSIVE")
            con.execute("BEGIN EXCLUSIVE")
            con.execute("COMMIT")  # in exclusive locking mode the lock stays after the commit
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise BotRunning(f"{live} is open in another process: stop the bot first, then restore") from None
            raise unusable(live, e) from None
        except sqlite3.DatabaseError:
            yield None
            return
        with suppress(sqlite3.Error):  # fold the WAL in, so the kept copy is one file (a damaged one may not)
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        yield con


def _keep(live: Path, now: float, mode: int) -> Path:
    """Copy the database about to be replaced (and its WAL, if not folded in) beside it, created with
    `mode`."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    kept = live.with_name(f"{live.name}.before-restore-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = live.with_name(f"{live.name}.before-restore-{stamp}-{n}")
    _copy_file(live, kept, mode)
    wal = live.with_name(live.name + "-wal")
    if wal.is_file() and wal.stat().st_size > 0:
        _copy_file(wal, kept.with_name(kept.name + "-wal"), mode)
    return kept


def _create(path: Path, mode: int) -> None:
    """A new empty file at `path` with permissions `mode` (less what the umask takes away)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))


def _copy_file(source: Path, target: Path, mode: int) -> None:
    """`source`'s bytes in a new file `target` created with `mode`."""
    with source.open("rb") as src, os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), "wb") as dst:
        shutil.copyfileobj(src, dst)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is not there
        return False


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
              path.with_name(path.name + "-journal")):
        p.unlink(missing_ok=True)
