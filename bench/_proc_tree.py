"""A process and every descendant, read from /proc: CPU as the kernel accounts it and memory as PSS.

- `cpu_ticks(root)`: utime + stime + cutime + cstime of every live process of the tree, in clock
  ticks. A child that has exited and been waited for lands in its parent's cutime/cstime, so work
  moved into a child (a file reader, jieba's segmenter) is counted whether or not it is still alive.
- `pss_kib(root)`: the sum of Pss over the tree (`/proc/PID/smaps_rollup`): each shared page counted
  once across the processes that map it, so a child forked from the bot adds only what it does not share.
- `PssSampler`: samples `pss_kib` while a run lasts; the peak is the largest sample.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields after the command name (field 3, the state, is [0])."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def tree(root: int) -> list[int]:
    """`root` and its live descendants (Linux has no per-process list of children here: scan /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_ticks(root: int) -> int:
    """CPU clock ticks of the whole tree so far, children that have exited and been waited for included."""
    total = 0
    for pid in tree(root):
        with contextlib.suppress(OSError):
            fields = _stat(pid)
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total


def pss_kib(root: int) -> int:
    """Proportional set size of the whole tree, KiB."""
    return _pss_of(tree(root))


def _pss_of(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
    return total


class PssSampler:
    """`async with PssSampler(pid) as pss:` samples the tree's PSS every `every` s; `pss.peak` in KiB."""

    def __init__(self, root: int, every: float = 0.25) -> None:
        self.root, self.every = root, every
        self.peak = 0
        self.children_seen: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    def sample(self) -> int:
        pids = tree(self.root)
        pss = _pss_of(pids)
        self.peak = max(self.peak, pss)
        self.children_seen.update(pid for pid in pids if pid != self.root)
        return pss

    async def _run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(self.every)

    async def __aenter__(self) -> PssSampler:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        with contextlib.suppress(OSError):
            self.sample()


async def settle(root: int, quiet_ticks: int = 1, window: float = 0.5, timeout: float = 60.0) -> None:
    """Waits until the tree spends at most `quiet_ticks` of CPU in `window` s (start-up or a warm-up
    thread finished), or `timeout` s have passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    before = cpu_ticks(root)
    while loop.time() < deadline:
        await asyncio.sleep(window)
        now = cpu_ticks(root)
        if now - before <= quiet_ticks:
            return
        before = now
