"""Reading a user's file in a child process, with a time limit.

A parser holds the GIL while it works, so in the bot's process a file that is slow to read stalls
every other user (issue 21: a 300 KB upload held everyone for 34 s). Every file a user hands in, a
chat upload or `proctor import`, is therefore read by `run`: the work is pickled (through a
temporary file) to a fresh `python -m bank.formats.child`, which lowers its priority and sends back
the pickled result; past the time limit the child is killed and the file refused. The parent only
waits (the GIL free).

The child starts with the first file, not with the bot; each file gets a fresh one, so nothing a
file did (memory, a stuck parser) outlives it.
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bank.errors import BankError, ImportFailed

log = logging.getLogger(__name__)

READ_SECONDS = 20.0  # a 20 MB file of any format reads in a few seconds; beyond this, it is not one
NICENESS = 10  # the child yields the CPU to the bot's process
FORMAT_NAMES = {".gift": "a GIFT", ".xml": "a Moodle XML", ".xlsx": "an XLSX", ".xlsm": "an XLSX",
                ".csv": "a CSV", ".aiken": "an Aiken", ".json": "a JSON export", ".txt": "a question"}

T = TypeVar("T")


class TooSlow(ImportFailed):
    """The file was not read within the time limit: the child reading it was killed."""

    def __init__(self, file: str, limit: float):
        kind = FORMAT_NAMES.get(Path(file).suffix.lower(), "a question")
        super().__init__(file, "file", f"took too long to read (over {limit:g} s); is it really {kind} file?")


def run(job: Callable[..., T], *args: Any, file: str, limit: float | None = None) -> T:
    """`job(*args)` in a child process: its result, or the BankError it raised.

    `job` must be importable (a module-level function); `file` names the file in errors. Raises
    TooSlow after `limit` seconds (READ_SECONDS by default), ImportFailed if the child dies. Blocks: from async code, call it
    with asyncio.to_thread (the waiting thread holds no GIL).
    """
    limit = READ_SECONDS if limit is None else limit
    # the work goes through a file, not a pipe: a pipe is fed 4 KB at a time by a Python loop that
    # takes the GIL 5,000 times for a 20 MB file
    with tempfile.TemporaryFile() as payload:
        pickle.dump((job, args), payload, protocol=pickle.HIGHEST_PROTOCOL)
        payload.seek(0)
        child = subprocess.Popen([sys.executable, "-m", "bank.formats.child"], stdin=payload,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_child_env())
        try:
            out, err = child.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            raise TooSlow(file, limit) from None
    if child.returncode != 0 or not out:
        log.error("reading %s failed in its child process (exit %s): %s", file, child.returncode,
                  err.decode(errors="replace").strip()[-2000:])
        raise ImportFailed(file, "file", "could not be read (the reader failed; see the log)")
    ok, value = pickle.loads(out)  # our own child's output, not the user's bytes
    if not ok:
        raise value
    result: T = value
    return result


def _child_env() -> dict[str, str]:
    """The parent's environment without its secrets, and its import path (so `job` imports the same)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_") and k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


def _main() -> None:
    """Child mode: a pickled (job, args) on stdin; a pickled (True, result) or (False, BankError) on stdout."""
    os.nice(NICENESS)
    result = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever a library prints must not mix with the result
    job, args = pickle.loads(sys.stdin.buffer.read())
    try:
        answer: tuple[bool, object] = (True, job(*args))
    except BankError as e:
        answer = (False, e)
    result.write(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


if __name__ == "__main__":
    _main()
