"""`proctor` with every SQLite statement written to a file, for bench_update_cpu.py --engines --count (bench/_engines.py).

    python bench/_traced_bot.py TRACE_FILE run

sqlite3.connect is wrapped before the bot imports aiosqlite, so each connection the bot opens gets a
trace callback (sqlite3's `set_trace_callback`: each statement as SQLite runs it, BEGIN and COMMIT
included) writing one line per statement, newlines folded, tagged with the connection. The bot's
code is unchanged; the callback costs a little CPU, so the CPU figures come from untraced runs.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_connect = sqlite3.connect
_lock = threading.Lock()
_out = open(sys.argv.pop(1), "a", buffering=1, encoding="utf-8")  # noqa: SIM115  # open for the process's life
_serial = iter(range(1, 1_000_000))


def _traced_connect(*args, **kwargs):  # type: ignore[no-untyped-def]
    conn = _connect(*args, **kwargs)
    tag = next(_serial)

    def trace(statement: str) -> None:
        with _lock:
            _out.write(f"{tag}\t{' '.join(statement.split())}\n")

    conn.set_trace_callback(trace)
    return conn


sqlite3.connect = _traced_connect

from bot.cli import main  # noqa: E402  # after the wrap: aiosqlite connects through it

if __name__ == "__main__":
    sys.exit(main())
