"""A throwaway PostgreSQL from the machine's own binaries, for the tests and the benchmarks.

`initdb` runs as the `postgres` user into a temporary directory, `pg_ctl` starts it on a free local
port (TCP on 127.0.0.1 and a socket in the same directory), trust authentication for local
connections only. `PostgresServer.url` is what `PROCTOR_DB` / `PROCTOR_TEST_POSTGRES` take.

    python -m tests.postgres_server start     # prints the URL and the directory; leaves it running
    python -m tests.postgres_server stop DIR  # stops it and removes DIR
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

POSTGRES_USER = "postgres"


class NoPostgres(RuntimeError):
    """PostgreSQL's server binaries are not on this machine (or cannot be run)."""


def bin_dir() -> Path:
    """The newest /usr/lib/postgresql/<major>/bin with initdb and pg_ctl in it."""
    root = Path("/usr/lib/postgresql")
    found = sorted((p for p in root.glob("*/bin") if (p / "initdb").exists() and (p / "pg_ctl").exists()),
                   key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if not found:
        raise NoPostgres("no PostgreSQL server binaries under /usr/lib/postgresql "
                         "(apt-get install postgresql)")
    return found[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_postgres(argv: list[str]) -> list[str]:
    """`argv` run as the postgres user when we are root (initdb refuses root); as ourselves otherwise."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", POSTGRES_USER, "--", *argv]


@dataclass(frozen=True)
class PostgresServer:
    directory: Path  # holds data/ and the socket
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/postgres"

    @classmethod
    def start(cls, *, parent: str | None = None) -> PostgresServer:
        binaries = bin_dir()
        directory = Path(tempfile.mkdtemp(prefix="proctor-pg-", dir=parent))
        if os.geteuid() == 0:
            pw = pwd.getpwnam(POSTGRES_USER)
            os.chown(directory, pw.pw_uid, pw.pw_gid)
        data = directory / "data"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        run = dict(env=env, cwd=directory, check=True, capture_output=True, text=True)
        try:
            subprocess.run(_as_postgres([str(binaries / "initdb"), "-D", str(data), "-U", POSTGRES_USER,
                                         "--auth=trust", "--encoding=UTF8", "--no-sync"]), **run)  # type: ignore[call-overload]
            port = _free_port()
            options = (f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
            subprocess.run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                                         "-l", str(directory / "log"), "-w", "-t", "30", "start"]), **run)  # type: ignore[call-overload]
        except subprocess.CalledProcessError as e:
            shutil.rmtree(directory, ignore_errors=True)
            raise NoPostgres(f"could not start PostgreSQL: {e.stderr or e.stdout}") from None
        return cls(directory, port)

    def stop(self) -> None:
        binaries = bin_dir()
        subprocess.run(_as_postgres([str(binaries / "pg_ctl"), "-D", str(self.directory / "data"),
                                     "-m", "immediate", "-w", "stop"]), capture_output=True, cwd=self.directory)
        shutil.rmtree(self.directory, ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["start"]:
        server = PostgresServer.start()
        print(server.url)
        print(f"# stop it with: python -m tests.postgres_server stop {server.directory} {server.port}", file=sys.stderr)
        return 0
    if argv[:1] == ["stop"] and len(argv) == 3:
        PostgresServer(Path(argv[1]), int(argv[2])).stop()
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
