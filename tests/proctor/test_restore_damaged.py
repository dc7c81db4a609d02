"""`proctor restore` of a damaged or foreign file says so in one line, never a traceback, and leaves
the live database as it was: hand-picked damage, then random damage to a real backup."""

from __future__ import annotations

import asyncio
import functools
import io
import re
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from proctor.storage import backups
from tests.proctor.test_backups import _db

# SQLite only: damaged SQLite backup files (test_pg_backups.py has PostgreSQL's)
PAGE = 4096


def _restore(live: Path, source: Path) -> tuple[int, str]:
    """`proctor --db LIVE restore SOURCE` in this process: its exit status and stderr."""
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        status = main(["--db", str(live), "restore", str(source)])
    return status, err.getvalue()


def _assert_one_line_or_restored(live: Path, before: bytes, status: int, err: str) -> None:
    assert "Traceback" not in err
    if status == 0:  # the damage hit bytes no page reads (free space, the end of the last page)
        assert err == ""
        return
    assert status == 1 and err.startswith("proctor: ") and err.count("\n") == 1, err
    assert live.read_bytes() == before, "a refused restore leaves the live database as it was"


@functools.cache
def _backup_bytes() -> bytes:
    """A real backup of a database with some rows."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        live = asyncio.run(_db(folder / "p.db", "a paper"))
        con = sqlite3.connect(live)
        con.executemany("INSERT INTO papers (slug, title, imported_at) VALUES (?, ?, 0)",
                        [(f"p{i}", f"paper {i} " + "x" * 200) for i in range(200)])
        con.commit()
        con.close()
        return backups.backup(live, folder / "b.db").path.read_bytes()


@functools.cache
def _live_bytes() -> bytes:
    with tempfile.TemporaryDirectory() as name:
        return asyncio.run(_db(Path(name) / "p.db", "live")).read_bytes()


def _live(folder: Path) -> Path:
    """A live database (migrated, one paper) in `folder`."""
    live = folder / "p.db"
    live.write_bytes(_live_bytes())
    return live


def _zeroed(page: int) -> Callable[[bytes], bytes]:
    return lambda data: data[:page * PAGE] + bytes(PAGE) + data[(page + 1) * PAGE:]


def _wal_header(data: bytes) -> bytes:
    """The header says WAL mode (file format versions 2), and there is no -wal beside it."""
    return data[:18] + b"\x02\x02" + data[20:]


def _garbage_after_header(data: bytes) -> bytes:
    return data[:100] + bytes((i * 131 + 7) % 256 for i in range(len(data) - 100))


def _names_not_utf8(data: bytes) -> bytes:
    """An index's name is not UTF-8 and its SQL does not parse: SQLite's error quotes the name."""
    return data.replace(b"questions_by_paper", b"\xdd\xc9estions by paper")


DAMAGE = {
    "empty": lambda data: b"",
    "truncated in the header": lambda data: data[:50],
    "just the header": lambda data: data[:100],
    "one page": lambda data: data[:PAGE],
    "truncated mid-page": lambda data: data[:len(data) // 2 + 123],
    "missing the last page": lambda data: data[:-PAGE],
    "first page zeroed": _zeroed(0),
    "second page zeroed": _zeroed(1),
    "a middle page zeroed": lambda data: _zeroed(len(data) // PAGE // 2)(data),
    "random bytes": lambda data: bytes((i * 7919 + 13) % 251 for i in range(len(data))),
    "a valid header, garbage after": _garbage_after_header,
    "WAL mode without its -wal": _wal_header,
    "names that are not UTF-8": _names_not_utf8,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_backup_is_one_line(tmp_path, damage):
    live = _live(tmp_path)
    before = live.read_bytes()
    bad = tmp_path / "bad.db"
    bad.write_bytes(DAMAGE[damage](_backup_bytes()))
    status, err = _restore(live, bad)
    _assert_one_line_or_restored(live, before, status, err)
    if damage in ("empty", "truncated in the header", "random bytes", "names that are not UTF-8"):
        assert status == 1


def _foreign_app(path: Path) -> None:
    """Another program's SQLite file, even one with tables named like ours and a schema version."""
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE papers (id INTEGER PRIMARY KEY, body BLOB);"
                      "CREATE TABLE questions (id INTEGER PRIMARY KEY);"
                      "CREATE TABLE moz_places (url TEXT); PRAGMA user_version = 5;")
    con.close()


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: p.mkdir(), "is a directory"),
    (_foreign_app, "schema"),
    (lambda p: p.symlink_to(p.with_name("nowhere.db")), "no such file"),
])
def test_what_is_not_a_backup_is_one_line(tmp_path, make, says):
    live = _live(tmp_path)
    before = live.read_bytes()
    make(tmp_path / "bad.db")
    status, err = _restore(live, tmp_path / "bad.db")
    _assert_one_line_or_restored(live, before, status, err)
    assert status == 1 and says in err


_DAMAGE_KINDS = st.one_of(
    st.tuples(st.just("truncate"), st.integers(0, 10**9)),
    st.tuples(st.just("zero page"), st.integers(0, 10**9)),
    st.tuples(st.sampled_from(["flip bytes", "flip schema bytes"]),
              st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)), min_size=1, max_size=64)),
    st.tuples(st.just("overwrite"), st.tuples(st.integers(0, 10**9), st.binary(min_size=1, max_size=2 * PAGE))),
)


def _apply(data: bytes, damage: tuple) -> bytes:
    kind, how = damage
    if len(data) < PAGE:
        return data
    if kind == "truncate":
        return data[:how % len(data)]
    if kind == "zero page":
        return _zeroed(how % (len(data) // PAGE))(data)
    out = bytearray(data)
    if kind == "flip bytes":
        for at, value in how:
            out[at % len(out)] = value
    elif kind == "flip schema bytes":  # near the SQL text of sqlite_schema's rows, where damage is subtle
        statements = [m.start() for m in re.finditer(b"CREATE ", out)] or [0]
        for at, value in how:
            out[min(statements[at % len(statements)] + at % 300, len(out) - 1)] = value
    else:
        at, chunk = how
        at %= len(out)
        out[at:at + len(chunk)] = chunk
    return bytes(out)


@settings(max_examples=60, deadline=None)
@given(damage=st.lists(_DAMAGE_KINDS, min_size=1, max_size=3))
def test_random_damage_to_a_real_backup_is_one_line_or_a_restore(damage):
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        live = _live(tmp)
        before = live.read_bytes()
        data = _backup_bytes()
        for one in damage:
            data = _apply(data, one)
        (tmp / "bad.db").write_bytes(data)
        status, err = _restore(live, tmp / "bad.db")
        _assert_one_line_or_restored(live, before, status, err)
