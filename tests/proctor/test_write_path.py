"""The one write path (proctor/storage/db.py): a transaction is a plain function run on the
database thread by `Database.run_write`, and aiosqlite's private API is used in one function only,
`Database._on_thread`, pinned to the aiosqlite versions it was tested with."""

from __future__ import annotations

import ast
import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from proctor.storage.db import TESTED_AIOSQLITE, Database

# SQLite only: aiosqlite's private API (Database._on_thread) and SQLite's transactions
REPO = Path(__file__).resolve().parents[2]
PRIVATE = {"_execute", "_conn", "_connection", "_tx", "_thread"}  # aiosqlite.Connection's private parts


@pytest.fixture
async def db(tmp_path):
    d = await Database.open(tmp_path / "w.db", migrate=False)
    await d.run_write(lambda c: c.execute("CREATE TABLE log (n INTEGER PRIMARY KEY, what TEXT)"))
    yield d
    await d.close()


def test_the_installed_aiosqlite_is_one_the_write_path_was_tested_with():
    assert aiosqlite.__version__ in TESTED_AIOSQLITE, (
        f"aiosqlite {aiosqlite.__version__}: check Database._on_thread against it, then add it to TESTED_AIOSQLITE")


async def test_on_thread_runs_a_function_with_the_plain_connection_on_aiosqlites_thread(db):
    seen = await db._on_thread(lambda conn: (type(conn), threading.get_ident(), conn.in_transaction))
    assert seen[0] is sqlite3.Connection
    assert seen[1] != threading.get_ident()  # not the event loop's thread
    assert seen[2] is False


async def test_a_write_commits_when_it_returns_and_leaves_nothing_when_it_raises(db):
    assert await db.run_write(lambda c: c.execute("INSERT INTO log (what) VALUES ('kept')").rowcount) == 1

    def half(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO log (what) VALUES ('half')")
        raise ValueError("refused")

    with pytest.raises(ValueError):
        await db.run_write(half)
    assert [r[0] for r in await db.fetchall("SELECT what FROM log")] == ["kept"]
    assert not await db.run(lambda c: c.in_transaction)


def _private_uses(path: Path) -> list[str]:
    """The functions of `path` that touch an aiosqlite.Connection's private attributes."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            direct = [n for n in ast.walk(fn) if isinstance(n, ast.Attribute) and n.attr in PRIVATE]
            inner = {id(n) for f in ast.walk(fn) if f is not fn and isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                     for n in ast.walk(f)}
            if [n for n in direct if id(n) not in inner]:
                found.append(f"{path.relative_to(REPO)}:{fn.name}")
    return found


def test_aiosqlites_private_api_is_used_in_one_function():
    uses = [u for package in ("bank", "proctor", "bot", "desk", "sandbox")
            for path in sorted((REPO / package).rglob("*.py")) for u in _private_uses(path)]
    assert uses == ["proctor/storage/db.py:_on_thread"]
