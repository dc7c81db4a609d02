"""Jobs for tests/bank/test_read_in_child.py, in a module of their own: the child process imports
the module a job comes from, and this one imports nothing heavy (the test module imports pytest)."""

from __future__ import annotations

import os
import threading
import time


def wait_forever() -> None:
    """A reader that never finishes (a stuck parser)."""
    threading.Event().wait()


def niceness() -> int:
    return os.nice(0)


def wait_for(path: str) -> str:
    """A reader that works until `path` exists (the test has seen it at work)."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return "done"


def crash() -> None:
    os._exit(3)  # a reader that dies (out of memory, a segfault in a C parser)


def my_pid() -> int:
    return os.getpid()


def chatty() -> str:
    print("a library talking on stdout")
    return "the result"
