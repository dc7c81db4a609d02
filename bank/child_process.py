"""Work run in a child process, with a time limit: reading a user's file, and segmenting reference
answers with jieba.

A parser holds the GIL while it works, so in the bot's process a file that is slow to read would
stall every other user; jieba's dictionary costs ~70 MiB that the long-running bot must not keep.
`run` therefore does such a job in a process of its own, which lowers its priority and sends back
the pickled result; past the time limit that process is killed. The parent only waits (the GIL
free), so several threads can each wait for their own child at once.

Each job gets a fresh process, so nothing it did (memory, a stuck parser, a loaded dictionary)
outlives it. The fresh processes are forked from a *zygote*: one `python -m bank.child_process
--zygote`, started with the first job (not with the bot), that has imported the file readers and
does nothing but fork. It is single-threaded, so forking it is safe, and a fork costs milliseconds
where a fresh interpreter costs ~0.3 s of CPU. The parent waits for the forked child through a
pidfd (Linux >= 5.3), kills it through the same pidfd past the limit, then tells the zygote to
reap it. Where pidfds are missing, each job starts a fresh `python -m bank.child_process` instead
(the same isolation, slower).

The children's environment is an allow-list (`ENV_NAMES`, `ENV_PREFIXES`): what a Python process
needs to run, find its code and speak the locale, and nothing else. No setting of the bot, in any
case, and no other secret of its environment reaches them, not even in `/proc/<pid>/environ`:
the zygote is started with that environment and its children are copies of it.

Why a zygote of our own rather than the standard library's forkserver
(`multiprocessing.get_context("forkserver")` with `set_forkserver_preload`): the forkserver takes
the environment of the process that starts it, from `os.environ`, with no way to give it another;
a threaded bot cannot swap `os.environ` around its start, and scrubbing it afterwards (in a
preloaded module) empties `os.environ` but leaves the secrets in `/proc/<pid>/environ` of the
server and of every child it forks. Starting the zygote with `subprocess.Popen(env=...)` is the
plain way to a clean environment. The forkserver would also start a resource-tracker process (with
the bot's whole environment), import the program's `__main__` again in every child (`proctor`'s
entry point, so bot.cli and what it imports; Python 3.11 does so even with `__main__` preloaded),
stop only through a private method, and kill by pid rather than pidfd. Per read the two cost about
the same (bench/bench_child_reads.py, a small CSV, the whole process tree counted: about 50 ms of
CPU through the zygote, 55 ms through the forkserver; the wall time alike within the noise, 50 to
90 ms on the loaded 2-core development machine; the first read, which starts either, 0.3 to 0.8 s).

The protocol, one line each way: `run PAYLOAD RESULT` -> the child's pid; `reap PID` -> `reaped`.
PAYLOAD holds the pickled (job, args); the child writes the pickled (True, result) or (False,
BankError) to RESULT (atomically: RESULT.part, then renamed) and its stderr to RESULT.err.
"""

from __future__ import annotations

import atexit
import importlib
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

from bank.errors import BankError

log = logging.getLogger(__name__)

NICENESS = 10  # the child yields the CPU to the bot's process
PRELOAD = ("bank.formats.files", "bank.authoring.upload")  # the file readers' modules, imported by the zygote
HAVE_PIDFD = hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")
# The children's environment, taken from this process's: the search path for programs, the home and
# temporary folders, the locale and time zone, the virtual environment, the library path a shared
# Python may need to start, and the interpreter's own switches. PYTHONPATH is not taken but set to
# this process's sys.path, so a job's module imports the same code.
ENV_NAMES = frozenset({
    "PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TMP", "TEMP", "VIRTUAL_ENV", "LD_LIBRARY_PATH",
    "PYTHONHOME", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE",
    "PYTHONPYCACHEPREFIX", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "PYTHONSAFEPATH", "PYTHONFAULTHANDLER",
    "PYTHONDEVMODE", "PYTHONWARNINGS",
})
ENV_PREFIXES = ("LC_",)  # LC_ALL, LC_CTYPE, ...

T = TypeVar("T")


class TimedOut(Exception):
    """The job did not finish within its time limit: its child was killed."""


class ChildDied(Exception):
    """The child ended without an answer (killed, out of memory, a crash); its stderr is in the log."""


def run(job: Callable[..., T], *args: Any, limit: float, what: str) -> T:
    """`job(*args)` in a fresh child process: its result, or the BankError it raised.

    `job` must be importable (a module-level function); `what` names the work in the log ("reading
    quiz.gift"). Raises TimedOut after `limit` seconds, ChildDied if the child dies. Blocks: from
    async code, call it with asyncio.to_thread (the waiting thread holds no GIL). Safe from several
    threads at once.
    """
    work = Path(tempfile.mkdtemp(prefix="proctor-child-"))
    try:
        payload, result = work / "payload", work / "result"
        # the work goes through a file, not a pipe: a pipe is fed 4 KB at a time by a Python loop
        # that takes the GIL 5,000 times for a 20 MB file
        with payload.open("wb") as f:
            pickle.dump((job, args), f, protocol=pickle.HIGHEST_PROTOCOL)
        if HAVE_PIDFD:
            finished = _ZYGOTE.run(payload, result, limit, what)
        else:
            finished = _fresh_child(payload, result, limit)
        if not finished:
            raise TimedOut(f"{what}: over {limit:g} s")
        if not result.exists():
            err = result.with_suffix(".err")
            detail = err.read_text(errors="replace").strip()[-2000:] if err.exists() else ""
            log.error("%s failed in its child process: %s", what, detail or "(no output)")
            raise ChildDied(what)
        with result.open("rb") as f:
            ok, value = pickle.load(f)  # our own child's output, not the user's bytes
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not ok:
        raise value
    answer: T = value
    return answer


def child_env() -> dict[str, str]:
    """The children's environment: the allow-listed part of this process's, and its import path."""
    env = {k: v for k, v in os.environ.items() if k in ENV_NAMES or k.startswith(ENV_PREFIXES)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


class _Zygote:
    """The parent's side: the zygote process (started on first use, again if it died or this
    process forked) and the lock that keeps one request/answer exchange on its pipes at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the pid that started it: a forked copy of this process starts its own

    def run(self, payload: Path, result: Path, limit: float, what: str) -> bool:
        """Fork a child for `payload`; wait up to `limit` s for it. False: it was killed."""
        pid = self._fork(payload, result, what)
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

    def _fork(self, payload: Path, result: Path, what: str) -> int:
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
                log.warning("the zygote of child processes died (exit %s); starting another", proc.poll())
                self._proc = None
        log.error("%s: the zygote of child processes cannot be started", what)
        raise ChildDied(what)

    def shutdown(self) -> None:
        """Stop the zygote (it kills any child still running); the next job starts a new one."""
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

    def _reap(self, pid: int) -> None:
        """The zygote waits for the ended child (no zombie left) and says so."""
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
            self._proc = subprocess.Popen([sys.executable, "-m", "bank.child_process", "--zygote"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=child_env())
            self._owner = os.getpid()
        return self._proc


_ZYGOTE = _Zygote()
shutdown = _ZYGOTE.shutdown
atexit.register(shutdown)


def _fresh_child(payload: Path, result: Path, limit: float) -> bool:
    """Without pidfds: a fresh interpreter for this one job. False: it was killed."""
    child = subprocess.Popen([sys.executable, "-m", "bank.child_process", str(payload), str(result)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=child_env())
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


# ---- the child's side ----

def _work(payload: str, result: str) -> None:
    """Do one job: (job, args) from `payload`, the answer to `result`, stderr to `result`.err."""
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
    """Import the readers, then fork one child per `run` line until the parent closes the pipe."""
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
    for pid in running:  # the parent is gone: nobody will read these children's results
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
