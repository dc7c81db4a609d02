"""`proctor backup` and `proctor restore` on a PostgreSQL record, through the machine's `pg_dump` and
`pg_restore` of the server's major version (/usr/lib/postgresql/<major>/bin).

A backup is a custom-format dump (`pg_dump -Fc`) taken from one snapshot of the record, exported by a
read-only REPEATABLE READ transaction that also reads the schema version: the dump and its version are
the record as it was at one commit, while the bot writes on. It is written to a temporary file next to
the target, created 0600 before pg_dump writes a byte (pg_dump writes to that file's descriptor, never
opening a file of its own, so the umask and the folder cannot make it readable by others for a moment),
checked to be readable (`pg_restore --list`) and only then renamed into place. An existing target is
replaced only when it is an Exam Proctor dump, as SQLite's backups replace only a backup.

A restore goes into an empty database (a PostgreSQL record is never overwritten: restore into a new
database and point PROCTOR_DB at it, which keeps the old record as it was). The dump is read first
(`pg_restore --list`, and its `schema_version` row): one that is damaged, of another program, or newer
than this code is refused before the database is touched. `pg_restore` runs in one transaction, with
every object owned by the URL's role (`--no-owner --no-privileges`); the schema it made is then
compared with the one the migrations make at the dump's version (proctor/storage/pg_schema.py), and the
restore undone when it differs; the migrations then take the record to this code's version.

The URL's password never reaches a command line, a message or the children's environment: pg_dump and
pg_restore get the URL without it and the password in a 0600 password file (PGPASSFILE) removed after,
and an environment that is the allow-list bank/child_process.py gives its children plus libpq's own
`PG...` settings.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from bank.child_process import ENV_NAMES, ENV_PREFIXES
from bank.errors import DatabaseTooNew, DatabaseUnusable
from proctor.storage import postgres
from proctor.storage.backups import Copy, Restored
from proctor.storage.db import Database, migration_files
from proctor.storage.location import PostgresUrl
from proctor.storage.pg_schema import POSTGRES_MIGRATIONS, difference
from proctor.storage.postgres import VERSION_TABLE, PgConnection
from proctor.storage.stamp import FileKind, kind_of

PG_ROOT = Path("/usr/lib/postgresql")  # Debian's: one <major>/bin per installed version
DUMP_MAGIC = b"PGDMP"  # a custom-format archive's first bytes
_PRIVATE = 0o600
_RECORD_TABLES = ("schema_version", "papers", "questions")  # every Exam Proctor record's (the baseline's)
_TOC_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE (\S+) (\S+) ", re.M)  # `pg_restore --list`: "…; 0 0 TABLE public papers owner"
_LIBPQ_PREFIX = "PG"  # libpq's settings: PGSSLMODE, PGSSLROOTCERT, PGCONNECT_TIMEOUT, ...
# whether the schema can be checked here: it takes a scratch schema, which a standby (read-only) or a
# role without CREATE on the database (a backup role with pg_read_all_data) cannot make
_CAN_CHECK = "SELECT NOT pg_is_in_recovery() AND has_database_privilege(current_database(), 'CREATE')"
_PASSWORD_NAMES = frozenset({"PGPASSWORD", "PGPASSFILE"})  # dropped when the URL has a password of its own


def known_version() -> int:
    """The newest PostgreSQL schema version this code can open."""
    files = migration_files(POSTGRES_MIGRATIONS)
    return files[-1][0] if files else 0


def backup(url: PostgresUrl, target: Path, *, root: Path = PG_ROOT) -> Copy:
    """Dump the record at `url` to `target` (replaced only by a complete dump, and only when it holds an
    Exam Proctor dump already). Raises DatabaseUnusable (no record there, no pg_dump for the server's
    version, a target that cannot be written or is another file, pg_dump's failure, an error of the
    server: one line each) and DatabaseTooNew."""
    with _naming(url):
        return _backup(url, target, root)


def restore(source: Path, url: PostgresUrl, *, root: Path = PG_ROOT) -> Restored:
    """Restore the dump `source` into the empty database at `url`, check its schema and migrate it to
    this code's version. Raises DatabaseUnusable (a damaged or foreign dump, a database that is not empty,
    no pg_restore for the server's version, a schema that is not its version's: then the database is
    empty again; an error of the server: one line each), DatabaseTooNew and MigrationFailed (the
    restored record then stays at the dump's version)."""
    with _naming(url):
        return _restore(source, url, root)


@contextmanager
def _naming(url: PostgresUrl) -> Iterator[None]:
    """The server's errors inside the block (PgConnection raises them as sqlite3's) as one line naming
    `url`, its password masked."""
    try:
        yield
    except sqlite3.Error as e:
        text = url.masked(" ".join(str(e).split()))
        raise DatabaseUnusable(f"{url}: {text}") from None


def _backup(url: PostgresUrl, target: Path, root: Path) -> Copy:
    if target.is_dir():
        raise DatabaseUnusable(f"{target} is a directory; give the backup a file name, such as {target / 'proctor.dump'}")
    if not target.parent.is_dir():
        raise DatabaseUnusable(f"{target}: its folder {target.parent} does not exist")
    _replaceable(target, root)
    started = time.monotonic()
    conn = postgres.connect(url)
    try:
        pg_dump = _tool("pg_dump", conn, url, root)
        version = _record_version(conn, url)
        if _value(conn, _CAN_CHECK):  # else (a standby, a read-only role) the restore's check is the one
            schema = _current_schema(conn)
            if (odd := difference(conn, schema, version)) is not None:
                raise DatabaseUnusable(f"{url} does not have the schema of its version {version}: {odd}")
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        snapshot = str(_value(conn, "SELECT pg_export_snapshot()"))
        if (at := int(_value(conn, f"SELECT max(version) FROM {VERSION_TABLE}"))) != version:
            raise DatabaseUnusable(f"{url} was migrated from version {version} to {at} meanwhile; back it up again")
        tmp = target.with_name(f".{target.name}.partial-{os.getpid()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _PRIVATE)
            try:
                os.fchmod(fd, _PRIVATE)  # a folder's default ACL may have granted more than the mode asked
                _run(url, [str(pg_dump), "--format=custom", "--no-password", f"--snapshot={snapshot}"],
                     what="pg_dump", stdout=fd)
                os.fsync(fd)
            finally:
                os.close(fd)
            conn.execute("ROLLBACK")  # the snapshot is needed no longer
            _toc(tmp, root, conn, url, name=target)  # readable, whole
            _replaceable(target, root)  # again: the dump took a while, and a file may have been put there meanwhile
            os.replace(tmp, target)
            _fsync_dir(target.parent)
        except OSError as e:
            raise DatabaseUnusable(f"{target}: cannot be written: {e.strerror or e}") from None
        finally:
            tmp.unlink(missing_ok=True)
    finally:
        conn.close()
    return Copy(target, target.stat().st_size, version, time.monotonic() - started)


def _restore(source: Path, url: PostgresUrl, root: Path) -> Restored:
    if source.is_dir():
        raise DatabaseUnusable(f"{source} is a directory, not a backup file")
    if not source.is_file():
        raise DatabaseUnusable(f"{source}: no such file")
    _is_dump(source)
    conn = postgres.connect(url)
    try:
        tables = _toc(source, root, conn, url, name=source)
        if not all(t in tables for t in _RECORD_TABLES):
            raise DatabaseUnusable(f"{source} is a PostgreSQL dump but not of an Exam Proctor record")
        from_version = _dumped_version(source, root, conn, url)
        if from_version > (known := known_version()):
            raise DatabaseTooNew(f"{source} is at schema version {from_version}, but this code knows only up to "
                                 f"{known}; upgrade Exam Proctor first")
        if (there := postgres.version_in(conn)) != 0:
            held = "an Exam Proctor record" if there else "tables of something else"
            raise DatabaseUnusable(f"{url} is not empty (it holds {held}); restore into an empty database "
                                   f"(createdb a new one) and point PROCTOR_DB at it")
        pg_restore = _tool("pg_restore", conn, url, root)
        _run(url, [str(pg_restore), "--no-password", "--no-owner", "--no-privileges", "--single-transaction",
                   "--exit-on-error", str(source)], what="pg_restore")
        schema = _current_schema(conn)
        try:
            if (odd := difference(conn, schema, from_version)) is not None:
                raise DatabaseUnusable(f"{source} does not have the schema of its version {from_version}: {odd}")
        except BaseException as e:  # a schema that differs, or a check that could not finish: undone
            try:
                _empty(conn, schema)
            except Exception as left:  # the first error is the one to tell; this one is told with it
                e.add_note(f"and emptying {url} again failed: {url.masked(' '.join(str(left).split()))}")
            raise
    finally:
        conn.close()
    version = asyncio.run(_migrated(url))
    return Restored(from_version, version, None)


async def _migrated(url: PostgresUrl) -> int:
    db = await Database.open(url)
    try:
        return await db.user_version()
    finally:
        await db.close()


def _tool(name: str, conn: PgConnection, url: PostgresUrl, root: Path) -> Path:
    """The path of `name` (pg_dump, pg_restore) of the server's major version under `root`."""
    number = int(_value(conn, "SELECT current_setting('server_version_num')::int"))
    major = number // 10000
    path = root / str(major) / "bin" / name
    if not os.access(path, os.X_OK):
        raise DatabaseUnusable(f"{url} runs PostgreSQL {major}, and this machine has no {name} {major} ({path}); "
                               f"install postgresql-client-{major}")
    return path


def _record_version(conn: PgConnection, url: PostgresUrl) -> int:
    version = postgres.version_in(conn)
    if version is None:
        raise DatabaseUnusable(f"{url} is not an Exam Proctor database: it holds tables but no {VERSION_TABLE}")
    if version == 0:
        raise DatabaseUnusable(f"{url} is empty: there is no record to back up")
    if version > (known := known_version()):
        raise DatabaseTooNew(f"{url} is at schema version {version}, but this code knows only up to {known}; "
                             f"upgrade Exam Proctor first")
    return version


def _current_schema(conn: PgConnection) -> str:
    return str(_value(conn, "SELECT current_schema()"))


def _value(conn: PgConnection, sql: str) -> Any:
    row = conn.execute(sql).fetchone()
    assert row is not None  # a function's one row
    return row[0]


def _replaceable(target: Path, root: Path) -> None:
    """Raises DatabaseUnusable unless `target` is absent or an Exam Proctor dump."""
    try:
        if not target.exists():
            return
        with target.open("rb") as f:
            head = f.read(len(DUMP_MAGIC))
        kind = kind_of(target)
    except OSError as e:
        raise DatabaseUnusable(f"{target}: cannot be written: {e.strerror or e}") from None
    if head == DUMP_MAGIC and _lists(target, root):
        return
    if kind is FileKind.live:
        raise DatabaseUnusable(f"{target} is a bot's own database, not a backup; give the backup another name")
    raise DatabaseUnusable(f"{target} exists and is not an Exam Proctor PostgreSQL backup; give the backup "
                           f"another name, or remove that file first")


def _lists(path: Path, root: Path) -> bool:
    """Whether `path` is an archive of an Exam Proctor record, read by any pg_restore under `root`."""
    for found in sorted(root.glob("*/bin/pg_restore"), key=lambda p: p.parent.parent.name, reverse=True):
        done = subprocess.run([str(found), "--list", str(path)], capture_output=True, env=_env(None), check=False)
        if done.returncode == 0:
            tables = {m.group(2) for m in _TOC_TABLE.finditer(done.stdout.decode("utf-8", "replace"))}
            return all(t in tables for t in _RECORD_TABLES)
    return False


def _is_dump(source: Path) -> None:
    """Raises DatabaseUnusable unless `source` starts as a custom-format archive does."""
    try:
        with source.open("rb") as f:
            head = f.read(len(DUMP_MAGIC))
        kind = kind_of(source)
    except OSError as e:
        raise DatabaseUnusable(f"{source}: cannot be read: {e.strerror or e}") from None
    if head == DUMP_MAGIC:
        return
    if kind in (FileKind.backup, FileKind.live):
        raise DatabaseUnusable(f"{source} is a SQLite database: restore it onto a SQLite file (--db FILE), then "
                               f"`proctor db copy` it to PostgreSQL")
    raise DatabaseUnusable(f"{source} is not a PostgreSQL backup (a custom-format dump, as proctor backup writes)")


def _toc(path: Path, root: Path, conn: PgConnection, url: PostgresUrl, *, name: Path) -> set[str]:
    """The tables `pg_restore --list` finds in the archive `path` (reported as `name`)."""
    listed = _run(url, [str(_tool("pg_restore", conn, url, root)), "--list", str(path)], what="pg_restore",
                  about=name, connect=False)
    return {m.group(2) for m in _TOC_TABLE.finditer(listed)}


def _dumped_version(source: Path, root: Path, conn: PgConnection, url: PostgresUrl) -> int:
    """The schema version in the archive's `schema_version` row (its data as COPY text)."""
    data = _run(url, [str(_tool("pg_restore", conn, url, root)), "--data-only", f"--table={VERSION_TABLE}",
                      "--file=-", str(source)], what="pg_restore", about=source, connect=False)
    rows = data.split(f"COPY public.{VERSION_TABLE} (version) FROM stdin;\n", 1)
    value = rows[1].split("\n", 1)[0] if len(rows) == 2 else ""
    if not value.isdigit():
        raise DatabaseUnusable(f"{source} is a PostgreSQL dump but not of an Exam Proctor record (no schema version)")
    return int(value)


def _empty(conn: PgConnection, schema: str) -> None:
    """Drop every table, view, sequence, function, type and collation of `schema`, in one transaction."""
    kinds = {"TABLE": "SELECT format('%I', relname) FROM pg_class WHERE relnamespace = :s::regnamespace "
                      "AND relkind IN ('r', 'p', 'f')",
             "VIEW": "SELECT format('%I', relname) FROM pg_class WHERE relnamespace = :s::regnamespace AND relkind = 'v'",
             "SEQUENCE": "SELECT format('%I', relname) FROM pg_class WHERE relnamespace = :s::regnamespace "
                         "AND relkind = 'S'",
             "FUNCTION": "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE pronamespace = :s::regnamespace",
             "TYPE": "SELECT format('%I', typname) FROM pg_type WHERE typnamespace = :s::regnamespace "
                     "AND typtype IN ('e', 'd', 'r', 'm')",
             "COLLATION": "SELECT format('%I', collname) FROM pg_collation WHERE collnamespace = :s::regnamespace"}
    conn.execute("BEGIN")
    try:
        conn.execute(f"SET LOCAL search_path = {schema}")
        for kind, sql in kinds.items():
            for (name,) in conn.execute(sql, {"s": schema}).fetchall():
                conn.execute(f"DROP {kind} IF EXISTS {name} CASCADE")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _run(url: PostgresUrl, argv: list[str], *, what: str, stdout: int | None = None, about: Path | None = None,
         connect: bool = True) -> str:
    """Run `argv` (pg_dump or pg_restore) connecting to `url` without its password on the command line;
    its output as text when `stdout` is not given. Raises DatabaseUnusable with the tool's first error
    line (about the file `about`, else the URL), the password masked."""
    plain, password = _split_password(url)
    with _passfile(password) as passfile:
        if connect:
            argv = [*argv[:1], f"--dbname={plain}", *argv[1:]]
        done = subprocess.run(argv, stdout=subprocess.PIPE if stdout is None else stdout, stderr=subprocess.PIPE,
                              env=_env(passfile), check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        first = next((line for line in lines if ": error: " in line), lines[0] if lines else f"exit {done.returncode}")
        first = url.masked(first.split(": error: ", 1)[-1])
        subject = about if about is not None else url
        if about is not None:
            raise DatabaseUnusable(f"{subject} is damaged or not a backup {what} can read ({first})")
        raise DatabaseUnusable(f"{what} failed on {subject}: {first}")
    return "" if stdout is not None else done.stdout.decode("utf-8", "replace")


def _split_password(url: PostgresUrl) -> tuple[str, str | None]:
    """The URL without its password (in the user info or `?password=`), and the password."""
    parts = urlsplit(url.conninfo())
    password = unquote(parts.password) if parts.password is not None else None
    netloc = parts.netloc
    if parts.password is not None:
        user_info, _, host = netloc.rpartition("@")
        netloc = f"{user_info.partition(':')[0]}@{host}"
    query = parse_qsl(parts.query, keep_blank_values=True)
    password = next((v for k, v in query if k == "password"), password)
    plain = urlunsplit(parts._replace(netloc=netloc, query=urlencode([(k, v) for k, v in query if k != "password"])))
    return plain, password


@contextmanager
def _passfile(password: str | None) -> Iterator[Path | None]:
    """A password file (created 0600) matching every server, holding `password`, removed after."""
    if password is None:
        yield None
        return
    fd, name = tempfile.mkstemp(prefix="proctor-pgpass-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("*:*:*:*:" + password.replace("\\", "\\\\").replace(":", "\\:") + "\n")
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)


def _env(passfile: Path | None) -> dict[str, str]:
    """The children's environment: bank/child_process.py's allow-list and libpq's settings; with a
    password file, it in PGPASSFILE and no PGPASSWORD (which would win over the file)."""
    env = {k: v for k, v in os.environ.items()
           if k in ENV_NAMES or k.startswith(ENV_PREFIXES) or k.startswith(_LIBPQ_PREFIX)}
    if passfile is not None:
        for name in _PASSWORD_NAMES:
            env.pop(name, None)
        env["PGPASSFILE"] = str(passfile)
    return env


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
