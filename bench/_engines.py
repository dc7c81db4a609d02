"""The record's engine for bench_update_cpu.py's `--engines`: a PostgreSQL server on this machine, a
fresh database per run, the CPU of the backends serving it, and statements and write transactions
per update counted on both engines.

The server is tests/postgres_server.py's throwaway one, set as a real server runs (fsync, full-page
writes and synchronous commit on: the throwaway default, all off, is for the tests). A bot's backends
are the postmaster's children whose process title names the run's database (`postgres: postgres
DB 127.0.0.1(port) ...`); their CPU is read from /proc like the bot's. A backend that exits during
the measured stretch would take its CPU with it: the bot holds its connections for its whole life.

Counting statements: on SQLite the bot runs through `_traced_bot.py` (sqlite3's trace callback: every
statement as SQLite runs it); on PostgreSQL the server logs every statement (`log_statement = all`)
with the backend's pid, database, virtual transaction id and transaction id. The lease's own
connection (renewals every second, bot/leadership.py) is left out: it is the process's, not an
update's. A write transaction is one that took the write lock (`BEGIN IMMEDIATE`; PostgreSQL's
advisory lock, `proctor.storage.postgres.BEGIN_WRITE`) or changed a row (INSERT, UPDATE, DELETE, or,
on PostgreSQL, was given a transaction id); statements are those that are not transaction control.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.postgres_server import PostgresServer

PREFIX = "BENCH|"
CONTROL = re.compile(r"^(BEGIN|COMMIT|ROLLBACK|END|SAVEPOINT|RELEASE)\b", re.I)
CHANGES = re.compile(r"^(INSERT|UPDATE|DELETE|REPLACE)\b|\)\s*(INSERT|UPDATE|DELETE)\b", re.I)
WRITE_LOCK = re.compile(r"^BEGIN IMMEDIATE|pg_advisory_xact_lock", re.I)
LEASE = re.compile(r"(INSERT INTO|UPDATE) leader_lease|leader_standby", re.I)
_LOGGED = re.compile(r"LOG:  (?:statement|execute [^:]*): (.*)$")


def _sql(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]  # the bench's own SQL


class PgServer:
    """One server for the whole bench; a database per run."""

    def __init__(self) -> None:
        self.server = PostgresServer.start()
        _sql(self.server.url, *(f"ALTER SYSTEM SET {s} = on" for s in ("fsync", "full_page_writes", "synchronous_commit")),
             "SELECT pg_reload_conf()")

    @property
    def log(self) -> Path:
        return self.server.directory / "log"

    def logging(self, on: bool) -> None:
        """Every statement into the server's log (`on`), or none."""
        if on:
            _sql(self.server.url, "ALTER SYSTEM SET log_statement = 'all'",
                 f"ALTER SYSTEM SET log_line_prefix = '{PREFIX}%p|%d|%v|%x| '", "SELECT pg_reload_conf()")
        else:
            _sql(self.server.url, "ALTER SYSTEM RESET log_statement", "ALTER SYSTEM RESET log_line_prefix",
                 "SELECT pg_reload_conf()")

    def new_database(self) -> tuple[str, str]:
        name = f"bench_{uuid.uuid4().hex[:10]}"
        _sql(self.server.url, f"CREATE DATABASE {name}")
        return name, self.server.url.rsplit("/", 1)[0] + "/" + name

    def drop(self, name: str) -> None:
        _sql(self.server.url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def postmaster(self) -> int:
        """The server's first process, whose children are its backends."""
        return int((self.server.directory / "data" / "postmaster.pid").read_text().split()[0])

    def backend_ticks(self, name: str) -> dict[int, int]:
        """CPU ticks (utime + stime) of each backend serving database `name`."""
        postmaster = str(self.postmaster())
        found: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if fields[1] == postmaster and title.startswith(f"postgres: postgres {name} "):
                found[int(entry.name)] = int(fields[11]) + int(fields[12])
        return found

    def stop(self) -> None:
        self.server.stop()


def spent(before: dict[int, int], after: dict[int, int]) -> int:
    """Ticks spent between two readings of `backend_ticks` (a backend new since counts whole)."""
    return sum(ticks - before.get(pid, 0) for pid, ticks in after.items())


@dataclass
class Tally:
    statements: int = 0
    write_transactions: int = 0
    transactions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # the first word of each statement
    writes: list[str] = field(default_factory=list)  # each write transaction's first statements, shortened


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(";") if part.strip()]


def _tally(transactions: list[list[str]], wrote_xid: set[int] | None = None) -> Tally:
    out = Tally()
    for k, statements in enumerate(transactions):
        out.transactions += 1
        body = [s for s in statements if not CONTROL.match(s)]
        out.statements += len(body)
        out.kinds.update(s.split(None, 1)[0].upper() for s in body)
        if any(WRITE_LOCK.search(s) or CHANGES.search(s) for s in statements) or (wrote_xid and k in wrote_xid):
            out.write_transactions += 1
            out.writes.append(" / ".join(s[:48] for s in body if not WRITE_LOCK.search(s))[:160])
    return out


def sqlite_tally(lines: list[str]) -> Tally:
    """A stretch of `_traced_bot.py`'s trace: transactions per connection, from BEGIN to COMMIT or
    ROLLBACK (a statement outside one is a transaction of its own)."""
    open_txn: dict[str, list[str]] = {}
    done: list[list[str]] = []
    for line in lines:
        tag, _, statement = line.rstrip("\n").partition("\t")
        for part in _split(statement):
            if re.match(r"^BEGIN\b", part, re.I):
                open_txn[tag] = [part]
            elif re.match(r"^(COMMIT|END|ROLLBACK)\b", part, re.I) and not re.match(r"^ROLLBACK TO", part, re.I):
                done.append([*open_txn.pop(tag, []), part])
            elif tag in open_txn:
                open_txn[tag].append(part)
            else:
                done.append([part])
    return _tally(done + list(open_txn.values()))


def postgres_tally(lines: list[str], database: str) -> Tally:
    """A stretch of the server's log: the statements of `database`'s backends but the lease's,
    grouped by (backend, virtual transaction id)."""
    by_txn: dict[tuple[str, str], list[str]] = {}
    xids: dict[tuple[str, str], bool] = {}
    lease: set[str] = set()
    for line in lines:
        if not line.startswith(PREFIX):
            continue
        _, pid, db, vxid, xid, rest = line.split("|", 5)
        found = _LOGGED.search(rest)
        if db != database or found is None:
            continue
        if LEASE.search(found.group(1)):
            lease.add(pid)
        key = (pid, vxid)
        by_txn.setdefault(key, []).extend(_split(found.group(1)))
        xids[key] = xids.get(key, False) or xid.strip() not in ("0", "")
    keys = [k for k in by_txn if k[0] not in lease]
    return _tally([by_txn[k] for k in keys], {i for i, k in enumerate(keys) if xids[k]})
