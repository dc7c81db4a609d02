"""`proctor backup` and `proctor restore` as real processes against a PostgreSQL server that requires a
password (scram-sha-256 for its role on 127.0.0.1, a server of this test's own): the password given in
the URL works, and it is never on a process's command line or in its environment (every process's
/proc/<pid>/cmdline and environ looked at while they run), never in the output, and its password file
is gone after."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

from bot.cli import main
from tests.copy_world import SEEDS
from tests.postgres_server import NoPostgres, PostgresServer
from tests.process_helpers import child_env

ROLE = "proctor_owner"
PASSWORD = f"s3:cr\\et@/{secrets.token_hex(8)}"  # a colon and a backslash: the password file's escapes


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    """A server of its own whose pg_hba.conf asks ROLE for its password over TCP."""
    try:
        started = PostgresServer.start()
    except NoPostgres as e:
        pytest.skip(str(e))
    try:
        hba = started.directory / "data" / "pg_hba.conf"
        hba.write_text(f"host all {ROLE} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        with psycopg.connect(started.url, autocommit=True) as admin:
            admin.execute("SELECT pg_reload_conf()")
            admin.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD.replace(chr(39), chr(39) * 2)}'")
            for name in ("record", "restored"):
                admin.execute(f"CREATE DATABASE {name} OWNER {ROLE}")
        yield started
    finally:
        started.stop()


def url(server: PostgresServer, database: str, *, password: bool = True) -> str:
    secret = f":{quote(PASSWORD, safe='')}" if password else ""
    return f"postgresql://{ROLE}{secret}@127.0.0.1:{server.port}/{database}"


class ProcWatcher:
    """Every process's command line and environment, read from /proc as often as the machine lets
    while the block runs: which of them held the password, and which pg_dump/pg_restore were seen. The
    `proctor` process itself (and a child of it between its fork and its exec, a copy of it) is given
    the URL in PROCTOR_DB and is not looked at."""

    def __init__(self) -> None:
        self.leaks: list[str] = []
        self.tools: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._secrets = [PASSWORD.encode(), quote(PASSWORD, safe="").encode()]

    def __enter__(self) -> ProcWatcher:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        me = str(os.getpid())
        while not self._stop.is_set():
            for pid in os.listdir("/proc"):
                if not pid.isdigit() or pid == me:
                    continue
                try:
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes()
                    environ = Path(f"/proc/{pid}/environ").read_bytes()
                except OSError:
                    continue
                if b"bot.cli" in argv:
                    continue
                for tool in (b"pg_dump", b"pg_restore"):
                    if tool in argv:
                        self.tools.add(tool.decode())
                for what, data in (("argv", argv), ("environ", environ)):
                    if any(s in data for s in self._secrets):
                        self.leaks.append(f"{pid} {what}: {argv[:200]!r}")


def proctor(tmp_path: Path, db: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`proctor ARGS` on the record `db`, given in PROCTOR_DB as a deployment gives it."""
    env = child_env(tmp_path, TMPDIR=str(tmp_path / "tmp"), PROCTOR_DB=db)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)


def test_the_password_reaches_pg_dump_and_pg_restore_and_nothing_else(server, tmp_path):
    (tmp_path / "tmp").mkdir()
    seeds = sorted(str(p) for p in SEEDS.glob("*.txt"))  # as the role: `proctor db copy` needs a superuser
    assert main(["--db", url(server, "record"), "import", *seeds]) == 0
    dump = tmp_path / "proctor.dump"

    refused = proctor(tmp_path, url(server, "record", password=False), "backup", str(dump))
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1  # the server does ask for it
    assert "password" in refused.stderr and not dump.exists()

    with ProcWatcher() as watcher:
        backed = proctor(tmp_path, url(server, "record"), "backup", str(dump))
        restored = proctor(tmp_path, url(server, "restored"), "restore", str(dump))
    assert backed.returncode == 0, backed.stderr
    assert restored.returncode == 0, restored.stderr
    assert watcher.tools == {"pg_dump", "pg_restore"}, "the watcher looked too seldom to see the tools"
    assert watcher.leaks == []
    for done in (backed, restored):
        out = done.stdout + done.stderr
        assert PASSWORD not in out and quote(PASSWORD, safe="") not in out and f"{ROLE}:***@" in out
    assert backed.stdout.startswith(f"backed up postgresql://{ROLE}:***@127.0.0.1:{server.port}/record to {dump}: ")
    assert list((tmp_path / "tmp").iterdir()) == []  # the password file removed
    assert (dump.stat().st_mode & 0o777) == 0o600
