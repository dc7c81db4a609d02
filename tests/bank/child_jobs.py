"""Jobs for tests/bank/test_read_in_child.py, in a module of their own: the reader process imports
the module a job comes from, and this one imports nothing heavy (the test module imports pytest)."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def wait_forever() -> None:
    """A reader that never finishes (a stuck parser)."""
    threading.Event().wait()


def what_the_child_sees() -> tuple[int, list[str], bool]:
    environ = Path("/proc/self/environ").read_bytes()
    return (os.nice(0), sorted(k for k in os.environ if k.startswith("PROCTOR_") or k == "TELEGRAM_BOT_TOKEN"),
            b"1:secret" in environ or b"PROCTOR_WEBHOOK_SECRET" in environ)


def crash() -> None:
    os._exit(3)  # a reader that dies (out of memory, a segfault in a C parser)


def my_pid() -> int:
    return os.getpid()


def chatty() -> str:
    print("a library talking on stdout")
    return "the result"
