"""Reading a user's file in a child process, with a time limit.

A parser holds the GIL while it works, so in the bot's process a file that is slow to read stalls
every other user (issue 21: a 300 KB upload held everyone for 34 s). Every file a user hands in, a
chat upload or `proctor import`, is therefore read by `run` in a process of its own, which lowers
its priority and sends back the pickled result; past the time limit that process is killed and the
file refused. The parent only waits (the GIL free).

Each file gets a fresh process, so nothing a file did (memory, a stuck parser) outlives it. Starting
Python and importing the readers costs about 0.3 s of CPU, so the fresh processes are forked from
a *zygote*: one `python -m bank.formats.child --zygote`, started (without the bot's secrets, niced)
with the first file, not with the bot, that has imported the readers and does nothing but fork.
The zygote is single-threaded, so forking it is safe; a fork costs milliseconds. The parent waits
for the forked reader through a pidfd (Linux ≥ 5.3), kills it through the same pidfd past the
limit, then tells the zygote to reap it. Where pidfds are missing, each file starts a fresh
`python -m bank.formats.child` instead (the same isolation, slower).

The protocol, one line each way: `run PAYLOAD RESULT` → the reader's pid; `reap PID` → `reaped`.
PAYLOAD holds the pickled (job, args); the reader writes the pickled (True, result) or
(False, BankError) to RESULT (atomically: RESULT.part, then renamed) and its stderr to RESULT.err.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from bank.errors import BankError, ImportFailed

log = logging.getLogger(__name__)

READ_SECONDS = 20.0  # a 20 MB file of any format reads in a few seconds; beyond this, it is not one
NICENESS = 10  # the child yields the CPU to the bot's process
FORMAT_NAMES = {".gift": "a GIFT", ".xml": "a Moodle XML", ".xlsx": "an XLSX", ".xlsm": "an XLSX",
                ".csv": "a CSV", ".aiken": "an Aiken", ".json": "a JSON export", ".txt": "a question"}
PRELOAD = ("bank.formats.files", "bank.authoring.upload")  # the readers' modules, imported by the zygote
HAVE_PIDFD = hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")

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
    with asyncio.to_thread (the waiting thread holds no GIL). Safe from several threads at once.
    """
    limit = READ_SECONDS if limit is None else limit
    work = Path(tempfile.mkdtemp(prefix="proctor-read-"))
    try:
        payload, result = work / "payload", work / "result"
        # the work goes through a file, not a pipe: a pipe is fed 4 KB at a time by a Python loop
        # that takes the GIL 5,000 times for a 20 MB file
        with payload.open("wb") as f:
            pickle.dump((job, args), f, protocol=pickle.HIGHEST_PROTOCOL)
        if HAVE_PIDFD:
            finished = _ZYGOTE.read(payload, result, limit, file)
        else:
            finished = _fresh_child(payload, result, limit)
        if not finished:
            raise TooSlow(file, limit)
        if not result.exists():
            err = result.with_suffix(".err")
            detail = err.read_text(errors="replace").strip()[-2000:] if err.exists() else ""
            log.error("reading %s failed in its child process: %s", file, detail or "(no output)")
            raise _failed(file)
        with result.open("rb") as f:
            ok, value = pickle.load(f)  # our own child's output, not the user's bytes
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not ok:
        raise value
    answer: T = value
    return answer


class _Zygote:
    """The parent's side: the zygote process (started on first use, again if it died or this
    process forked) and the lock that keeps one request/answer exchange on its pipes at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the pid that started it: a forked copy of this process starts its own

    def read(self, payload: Path, result: Path, limit: float, file: str) -> bool:
        """Fork a reader for `payload`; wait up to `limit` s for it. False: it was killed."""
        pid = self._fork(payload, result, file)
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:  # cannot happen (the zygote reaps only when told); be safe
            self._reap(pid)
            return True
        try:
            if select.select([fd], [], [], limit)[0]:
                return True
            signal.pidfd_send_signal(fd, signal.SIGKILL)
            select.select([fd], [], [], 5.0)
            return False
        finally:
            os.close(fd)
            self._reap(pid)

    def shutdown(self) -> None:
        """Stop the zygote (it kills any reader still running); the next file starts a new one."""
        with self._lock:
            proc, self._proc = self._proc, None
            if proc is not None and self._owner == os.getpid():
                _close(proc.stdin)
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                _close(proc.stdout)

    def _fork(self, payload: Path, result: Path, file: str) -> int:
        with self._lock:
            for _attempt in (1, 2):  # a zygote that died (killed, out of memory) is started again once
                proc = self._running()
                assert proc.stdin is not None and proc.stdout is not None
                try:
                    proc.stdin.write(f"run {payload} {result}\n".encode())
                    proc.stdin.flush()
                    line = proc.stdout.readline()
                except (BrokenPipeError, ConnectionResetError):
                    line = b""
                if line.strip().isdigit():
                    return int(line)
                log.warning("the file readers' zygote died (exit %s); starting another", proc.poll())
                self._proc = None
        raise _failed(file)

    def _reap(self, pid: int) -> None:
        """The zygote waits for the ended reader (no zombie left) and says so."""
        with self._lock:
            proc = self._proc
            if proc is None or proc.stdin is None or proc.stdout is None or self._owner != os.getpid():
                return
            try:
                proc.stdin.write(f"reap {pid}\n".encode())
                proc.stdin.flush()
                proc.stdout.readline()
            except (BrokenPipeError, ConnectionResetError):
                pass

    def _running(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._owner != os.getpid() or self._proc.poll() is not None:
            self._proc = subprocess.Popen([sys.executable, "-m", "bank.formats.child", "--zygote"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_child_env())
            self._owner = os.getpid()
        return self._proc


_ZYGOTE = _Zygote()
shutdown = _ZYGOTE.shutdown
atexit.register(shutdown)


def _failed(file: str) -> ImportFailed:
    """A reader (or the zygote) that died: one line; the detail is in the log."""
    return ImportFailed(file, "file", "could not be read (the reader failed; see the log)")


def _fresh_child(payload: Path, result: Path, limit: float) -> bool:
    """Without pidfds: a fresh interpreter for this one file. False: it was killed."""
    child = subprocess.Popen([sys.executable, "-m", "bank.formats.child", str(payload), str(result)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=_child_env())
    try:
        child.wait(timeout=limit)
        return True
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return False


def _close(stream: IO[bytes] | None) -> None:
    if stream is not None:
        try:
            stream.close()
        except OSError:
            pass


def _child_env() -> dict[str, str]:
    """The parent's environment without its secrets, and its import path (so `job` imports the same)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_") and k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


# ---- the child's side ----

def _work(payload: str, result: str) -> None:
    """Read one file: (job, args) from `payload`, the answer to `result`, stderr to `result`.err."""
    err = os.open(result + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(err, 2)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # whatever a library prints must not reach the zygote's pipe
    sys.stdout = sys.stderr
    with open(payload, "rb") as f:
        job, args = pickle.load(f)
    try:
        answer: tuple[bool, object] = (True, job(*args))
    except BankError as e:
        answer = (False, e)
    with open(result + ".part", "wb") as f:
        pickle.dump(answer, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(result + ".part", result)


def _zygote() -> None:
    """Import the readers, then fork one reader per `run` line until the parent closes the pipe."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    running: set[int] = set()
    for line in requests:
        match line.split():
            case [b"run", payload, result]:
                pid = os.fork()
                if pid == 0:
                    code = 1
                    try:
                        _work(payload.decode(), result.decode())
                        code = 0
                    except BaseException:
                        traceback.print_exc()
                    finally:
                        sys.stderr.flush()
                        os._exit(code)
                running.add(pid)
                answers.write(f"{pid}\n".encode())
                answers.flush()
            case [b"reap", pid_text] if pid_text.isdigit():
                pid = int(pid_text)
                if pid in running:
                    running.discard(pid)
                    os.waitpid(pid, 0)
                answers.write(b"reaped\n")
                answers.flush()
    for pid in running:  # the parent is gone: nobody will read these readers' results
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _main(argv: list[str]) -> None:
    os.nice(NICENESS)
    if argv == ["--zygote"]:
        _zygote()
    else:
        _work(*argv)


if __name__ == "__main__":
    _main(sys.argv[1:])
