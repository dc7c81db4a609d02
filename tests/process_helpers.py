"""Run the real `proctor` command as a child process against a FakeBotApi served by the test's loop.

    api = FakeBotApi(TOKEN); await api.start()
    bot = await ProctorProcess.start(["--db", str(db), "run"], env=child_env(tmp_path, api))
    ...                              # drive users through `api`; the child talks to it over HTTP
    await bot.kill()                 # SIGKILL: no shutdown at all
    await bot.stop()                 # SIGTERM: PTB's graceful stop; returns the exit code

The child is started with asyncio.create_subprocess_exec so the loop keeps serving the fake API
while the child runs; its stdout and stderr are collected as they arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.harness import at_place, attempt_message, paper_button, rules_card

REPO = Path(__file__).resolve().parents[1]
# A valid-shaped token whose secret part is easy to search for.
TOKEN = "7654321:AAHsecretPartThatMustNeverLeak_0123-xyz"
SECRET = TOKEN.split(":", 1)[1]


def child_env(tmp_path: Path, api=None, **extra: str | None) -> dict[str, str]:
    """The child's environment: no inherited PROCTOR_* / token, this repo on the path, unbuffered output.

    `api` points the bot at a fake server; an `extra` value of None removes that variable.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_") and k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONUNBUFFERED"] = "1"
    env["HOME"] = str(tmp_path)
    if api is not None:
        env["TELEGRAM_BOT_TOKEN"] = api.token
        env["PROCTOR_BOT_API_URL"] = api.base_url
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ProctorProcess:
    """`python -m bot.cli ARGS` as a child process; output collected in `stdout` / `stderr`."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.stdout = ""
        self.stderr = ""
        self._changed = asyncio.Event()
        self._readers = [
            asyncio.create_task(self._collect(proc.stdout, "stdout")),
            asyncio.create_task(self._collect(proc.stderr, "stderr")),
        ]

    @classmethod
    async def start(cls, args: list[str], *, env: dict[str, str], cwd: Path,
                    stdin: bool = False) -> ProctorProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", *args,
            stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env, cwd=cwd,
        )
        return cls(proc)

    async def _collect(self, stream: asyncio.StreamReader, name: str) -> None:
        while chunk := await stream.read(4096):
            setattr(self, name, getattr(self, name) + chunk.decode("utf-8", "replace"))
            self._changed.set()
            self._changed = asyncio.Event()

    @property
    def running(self) -> bool:
        return self.proc.returncode is None

    async def wait_output(self, text: str, *, stream: str = "stdout", after: int = 0,
                          timeout: float = 10.0) -> int:
        """Waits until `text` appears in the stream past offset `after`; returns the offset after it."""
        async with asyncio.timeout(timeout):
            while True:
                changed = self._changed
                found = getattr(self, stream).find(text, after)
                if found >= 0:
                    return found + len(text)
                if not self.running and all(r.done() for r in self._readers):
                    raise AssertionError(f"exited {self.proc.returncode} before printing {text!r}:\n"
                                         f"{self.stdout}\n{self.stderr}")
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.2):
                        await changed.wait()

    async def write_line(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def close_stdin(self) -> None:
        self.proc.stdin.close()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            await self.proc.stdin.wait_closed()

    async def wait(self, timeout: float = 10.0) -> int:
        """Waits for the exit and for all output; returns the exit code."""
        async with asyncio.timeout(timeout):
            code = await self.proc.wait()
            await asyncio.gather(*self._readers)
        return code

    async def kill(self) -> int:
        """SIGKILL: the bot gets no chance to shut down, confirm updates or close the database."""
        if self.running:
            self.proc.send_signal(signal.SIGKILL)
        return await self.wait()

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, which run_polling / run_webhook treat as a stop signal; SIGKILL after `timeout`."""
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return await self.wait(timeout)
        except TimeoutError:
            return await self.kill()

    async def cleanup(self) -> None:
        """For finally blocks: kill the child if it still runs and reap it."""
        if self.running:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        with contextlib.suppress(Exception):
            await self.wait(5)
        for reader in self._readers:
            reader.cancel()


def db_rows(path: Path, sql: str, *params) -> list[sqlite3.Row]:
    """Reads the child's SQLite file directly (read-only), as an operator would: opening it through
    `Database` would write to a file another process owns (pragmas, migrations, a checkpoint on close)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


async def wait_update_done(path: Path, api, update_id: int | None = None, *, timeout: float = 10.0) -> None:
    """Waits until the child has marked `update_id` (default: the update queued last) done in its
    database. A reply shows in the chat before that (proctor.storage.updates: claimed before the
    handler, done after it returns), so a kill right after a visible reply may land in between."""
    from proctor.storage import updates
    from proctor.storage.db import Database

    update_id = api.state.updates.last_pushed if update_id is None else update_id
    db = await Database.open(path, migrate=False)  # the child's file, shared (WAL)
    try:
        async with asyncio.timeout(timeout):
            while not await updates.is_done(db, api.state.bot.id, update_id):
                await asyncio.sleep(0.02)  # polls the child's state; nothing to be woken by
    finally:
        await db.close()


STARTUP = 60.0  # seconds a cold child may take to import, migrate and load the bundled bank (an upper bound: a busy 2-core machine took over 20)
FIRST_PAPER = "大模型梯度累积工程师招聘笔试考试试卷和答案"  # the first bundled paper: ten fill-ins, then single choices


async def start_paper(api, user, title: str = FIRST_PAPER):
    """In a real `proctor` process's chat: /exam, pick the paper `title`, press Start; returns the
    attempt message."""
    await user.send("/exam")
    chooser = await user.wait_message(lambda m: paper_button(m, title) is not None, timeout=STARTUP)
    await user.press(chooser, paper_button(chooser, title))  # "P1 · <title>"
    await user.press(await api.wait_for(lambda: rules_card(user.chat()), what="rules card"), "▶️ Start")
    return await api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")


async def type_answer(api, user, text: str, next_q: int, timeout: float = 10.0) -> None:
    """Types a fill-in answer and waits until the attempt screen shows question `next_q`."""
    await user.send(text)
    await api.wait_for(lambda: (m := attempt_message(user.chat())) is not None and at_place(m.text, next_q),
                       timeout=timeout, what=f"the attempt screen moves to Q {next_q}")
    await api.wait_idle(timeout=10)


@pytest.fixture
async def api():
    """The fake Bot API the child process talks to, served by the test's loop (import it as a fixture)."""
    from sandbox.fakeapi import FakeBotApi

    server = FakeBotApi(TOKEN, bot_username="proctor_bot")
    await server.start()
    yield server
    await server.stop()
