"""`proctor db copy SRC DST`: a whole record copied from one database to another, SQLite or PostgreSQL
either way, and checked row by row before it is committed.

The source must be at the schema version this code knows; the destination is made at it (a new SQLite
file by `Database.open`'s migrations, an empty PostgreSQL database by its baseline, in the copy's
transaction) or must already be at it and hold no record row (`force`: emptied first, in the same
transaction). Every table is copied with its ids, parents before children, with the destination's
triggers off: the summary tables their triggers keep (daily_scores, daily_topics, exam_topics) come as
rows, so nothing is counted twice. Each numbered table then numbers on from its largest id (or from the
source's high-water mark, when that is larger). Then every table is read again on both sides in one
order and compared row by row, values normalised by type; the first difference names the table and
the row's key, and the destination is rolled back to what it was (a file the copy made is removed).
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from proctor.errors import ProctorError
from proctor.storage.copy_engines import Kind, PostgresSide, Row, Side, SqliteSide, Table
from proctor.storage.db import migration_files
from proctor.storage.location import DbLocation, PostgresUrl
from proctor.storage.stamp import APP_ID, FileKind, kind_of


class CopyFailed(ProctorError):
    """The copy was refused or failed; the destination is as it was."""


@dataclass(frozen=True)
class Copied:
    tables: list[tuple[str, int]]  # each table and its rows, in the order copied
    seconds: float

    @property
    def rows(self) -> int:
        return sum(n for _, n in self.tables)


def known_version() -> int:
    """The schema version this code makes and reads: its newest migration."""
    return migration_files()[-1][0]


def copy_record(src: DbLocation, dst: DbLocation, *, force: bool = False) -> Copied:
    """Copy the record at `src` to `dst` and check it row by row. Raises CopyFailed (one line; the
    destination is then as it was)."""
    start = time.monotonic()
    if _same_place(src, dst):
        raise CopyFailed(f"{src} is both the source and the destination")
    version = known_version()
    source = _open_source(src, version)
    try:
        destination = _open_destination(dst, version)
    except BaseException:
        source.close()
        raise
    failed = True
    try:
        copied = _copy(source, destination, src, dst, force=force)
        failed = False
    except CopyFailed:
        destination.rollback()
        raise
    except (*source.errors, *destination.errors) as e:
        destination.rollback()
        raise CopyFailed(f"copying {src} to {dst} failed: {_line(e, src, dst)}; {dst} is as it was") from None
    finally:
        source.close()
        destination.close(failed=failed)
    return Copied(copied, time.monotonic() - start)


def _same_place(a: DbLocation, b: DbLocation) -> bool:
    if isinstance(a, PostgresUrl) or isinstance(b, PostgresUrl):
        return isinstance(a, PostgresUrl) and isinstance(b, PostgresUrl) and a.conninfo() == b.conninfo()
    return a.resolve() == b.resolve()


def _line(error: Exception, *locations: DbLocation) -> str:
    """An engine's error as one line, with no URL's password in it."""
    text = (str(error).strip().splitlines() or [type(error).__name__])[0]
    for where in locations:
        if isinstance(where, PostgresUrl):
            text = where.masked(text)
    return text


def _open_source(src: DbLocation, version: int) -> Side:
    if isinstance(src, PostgresUrl):
        side: Side = _connect(src, source=True)
    else:
        match kind_of(src):
            case FileKind.absent:
                raise CopyFailed(f"{src} does not exist")
            case FileKind.other:
                raise CopyFailed(f"{src} is not an Exam Proctor record")
        try:
            side = SqliteSide.source(src)
        except sqlite3.Error as e:
            raise CopyFailed(f"{src} cannot be read: {e}") from None
    with _closed_on_error(side, src, "cannot be read"):
        if not side.has_schema():
            raise CopyFailed(f"{src} holds no Exam Proctor record")
        _at_version(side, src, version, "the source")
    return side


def _open_destination(dst: DbLocation, version: int) -> Side:
    if isinstance(dst, PostgresUrl):
        pg = _connect(dst, source=False)
        with _closed_on_error(pg, dst, "cannot be written"):
            if pg.has_schema():
                _at_version(pg, dst, version, "the destination")
            elif pg.holds_tables():
                raise CopyFailed(f"{dst} holds tables but no Exam Proctor record; give an empty database")
            else:
                pg.create(version)
        return pg
    match kind_of(dst):
        case FileKind.absent:
            return SqliteSide.destination(dst, create=True)
        case FileKind.other:
            raise CopyFailed(f"{dst} is not an Exam Proctor record; give a new file's path or a record's")
    try:
        side = SqliteSide.destination(dst, create=False)
    except sqlite3.Error as e:
        raise CopyFailed(f"{dst} cannot be opened: {e}") from None
    with _closed_on_error(side, dst, "cannot be opened"):
        _at_version(side, dst, version, "the destination")
    return side


@contextmanager
def _closed_on_error(side: Side, where: DbLocation, what: str) -> Iterator[None]:
    """The side closed when what the block does with it fails; an engine's error as one line."""
    try:
        yield
    except side.errors as e:
        side.close()
        raise CopyFailed(f"{where} {what}: {_line(e, where)}") from None
    except BaseException:
        side.close()
        raise


def _connect(url: PostgresUrl, *, source: bool) -> PostgresSide:
    try:
        return PostgresSide.connect(url.conninfo(), source=source)
    except Exception as e:  # psycopg.OperationalError: the server refused or is not there
        raise CopyFailed(f"cannot connect to {url}: {_line(e, url)}") from None


def _at_version(side: Side, where: DbLocation, version: int, role: str) -> None:
    """Refuse a database at another version than the code's, or without the stamp of a record."""
    found = side.version()
    if found != version:
        how = ("migrate it first by opening it with this version of Exam Proctor (any `proctor` command "
               "with --db naming it)") if found < version else "upgrade Exam Proctor first"
        raise CopyFailed(f"{where} ({role}) is at schema version {found}, this code's is {version}: {how}")
    if side.application_id() != APP_ID:
        raise CopyFailed(f"{where} is not an Exam Proctor record (it lacks the record's stamp)")


def _copy(src: Side, dst: Side, src_at: DbLocation, dst_at: DbLocation, *, force: bool) -> list[tuple[str, int]]:
    dst.begin()
    tables = _matched(src.tables(), dst.tables(), src_at, dst_at)
    order = _parents_first(tables)
    held = dst.holding(order)
    if held and not force:
        raise CopyFailed(f"{dst_at} already holds a record ({', '.join(held[:3])}{', ...' if len(held) > 3 else ''} "
                         "have rows); give --force to replace it")
    dst.triggers_off()
    if held:
        dst.empty(order[::-1])
    for table in order:
        rows = src.rows(table)
        try:
            dst.insert(table, rows)
        finally:  # a failed insert leaves the source's cursor half read: closed now, before the source is
            rows.close()
    dst.triggers_on()
    dst.number_from(order, src.high_water())
    counts = [(t.name, _check(t, src.rows(t), dst.rows(t), dst_at)) for t in order]
    dst.commit()
    return counts


def _matched(src: dict[str, Table], dst: dict[str, Table], src_at: DbLocation, dst_at: DbLocation) -> dict[str, Table]:
    """The tables, the same on both sides (same version, two engines: a difference is a bug to report)."""
    for name in sorted(set(src) ^ set(dst)):
        has, lacks = (src_at, dst_at) if name in src else (dst_at, src_at)
        raise CopyFailed(f"table {name} is in {has} but not in {lacks}")
    for name, table in src.items():
        if table.columns != dst[name].columns:
            raise CopyFailed(f"table {name} has columns {', '.join(table.columns)} in {src_at} but "
                             f"{', '.join(dst[name].columns)} in {dst_at}")
    return dst


def _parents_first(tables: dict[str, Table]) -> list[Table]:
    """The tables in an order their foreign keys allow, a table after those it refers to, by name where
    the keys leave it free. Where keys go round in a circle (an attempt names its invite, an invite its
    attempt), the table waiting on the fewest others goes first: the destination checks keys only at
    the commit (SQLite's deferred keys; PostgreSQL's replica role checks none), when every row is in."""
    done: list[Table] = []
    placed: set[str] = set()
    while len(done) < len(tables):
        waiting = sorted((len(t.parents - {n} - placed), n) for n, t in tables.items() if n not in placed)
        table = tables[waiting[0][1]]
        done.append(table)
        placed.add(table.name)
    return done


_NAN = "NaN"  # a NaN compares equal to a NaN (PostgreSQL stores it; SQLite stores NULL instead)


def _normal(kind: Kind | None, value: Any) -> Any:
    """A value as both engines' drivers return it, compared alike: an integral REAL of an INTEGER
    column as an int, an int of a REAL column as a float, bytes for a blob, NaN equal to NaN."""
    if isinstance(value, memoryview):
        return bytes(value)
    if isinstance(value, float) and math.isnan(value):
        return _NAN
    if kind is Kind.real and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind is Kind.int and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _check(table: Table, src: Generator[Row, None, None], dst: Generator[Row, None, None], dst_at: DbLocation) -> int:
    """The rows counted, after comparing the two sides' rows in one order. Raises CopyFailed at the
    first difference, naming the table and the row's key."""
    try:
        return _compared(table, src, dst, dst_at)
    finally:  # a difference leaves both half read: their cursors closed now, inside the transaction
        src.close()
        dst.close()


def _compared(table: Table, src: Iterator[Row], dst: Iterator[Row], dst_at: DbLocation) -> int:
    count = 0
    for a, b in zip_longest(src, dst):
        if a is not None and b is not None:
            a = tuple(_normal(k, v) for k, v in zip(table.kinds, a, strict=True))
            b = tuple(_normal(k, v) for k, v in zip(table.kinds, b, strict=True))
            if a == b:
                count += 1
                continue
        row = a if a is not None else b
        assert row is not None
        at = ", ".join(f"{c}={row[table.columns.index(c)]!r}" for c in table.order())
        if a is None or b is None:
            what = "is missing from the copy" if b is None else "is in the copy but not in the source"
        else:
            column = next(c for c, x, y in zip(table.columns, a, b, strict=True) if x != y)
            what = f"differs in {column}: {_shown(a[table.columns.index(column)])} in the source, " \
                   f"{_shown(b[table.columns.index(column)])} in the copy"
        raise CopyFailed(f"the copy is not the source: table {table.name}, row {at} {what}; {dst_at} is as it was")
    return count


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
