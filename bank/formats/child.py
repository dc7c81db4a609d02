"""A user's file read in a child process (bank.child_process) within a time limit.

Every file a user hands in, a chat upload or `proctor import`, is read this way, so a file that is
slow to read never stalls the bot's other users: past READ_SECONDS its reader is killed and the
file refused, naming the format it claims to be; a reader that dies refuses the file in one line
(the detail is in the log).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bank import child_process
from bank.errors import ImportFailed

READ_SECONDS = 20.0  # a 20 MB file of any format reads in a few seconds; beyond this, it is not one
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
    TooSlow after `limit` seconds (READ_SECONDS by default), ImportFailed if the child dies. Blocks:
    from async code, call it with asyncio.to_thread. Safe from several threads at once.
    """
    limit = READ_SECONDS if limit is None else limit
    try:
        return child_process.run(job, *args, limit=limit, what=f"reading {file}")
    except child_process.TimedOut:
        raise TooSlow(file, limit) from None
    except child_process.ChildDied:
        raise ImportFailed(file, "file", "could not be read (the reader failed; see the log)") from None
