"""Two real `proctor run` processes on one PostgreSQL record against the fake Bot API, for the
active/standby tests (tests/process/test_standby_*.py): starting them, telling which one leads, a
candidate's exam driven through the fake API, and the record read as an operator would."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from bot.leadership import EXIT_STOOD_DOWN
from sandbox.fakeapi import FakeBotApi
from tests.postgres_fixtures import pg_rows
from tests.process_helpers import STARTUP, ProctorProcess, child_env, start_paper, type_answer

TAKEOVER = 5.0  # the standby leads within this of the active's death
STEP_DOWN = 2.0  # an active stops within this of failing to renew

__all__ = ["EXIT_STOOD_DOWN", "STARTUP", "STEP_DOWN", "TAKEOVER", "start_paper", "type_answer"]


async def start_bot(tmp_path: Path, api: FakeBotApi, url: str, name: str, *args: str,
                    **env: str | None) -> ProctorProcess:
    """`proctor --db URL run ARGS` in a folder of its own (`name`)."""
    home = tmp_path / name
    home.mkdir(exist_ok=True)
    return await ProctorProcess.start(["--db", url, "run", *args], env=child_env(home, api, **env), cwd=home)


async def leads(bot: ProctorProcess, epoch: int, timeout: float = STARTUP) -> None:
    """Waits until `bot` says it leads with `epoch`."""
    await bot.wait_output(f"leading with epoch {epoch} ", stream="stderr", timeout=timeout)


async def stands_by(bot: ProctorProcess, timeout: float = STARTUP) -> None:
    await bot.wait_output("standby: waiting for the active ", stream="stderr", timeout=timeout)


async def two_bots(tmp_path: Path, api: FakeBotApi, url_a: str, url_b: str, *args: str,
                   **env: str | None) -> tuple[ProctorProcess, ProctorProcess]:
    """a leads (epoch 1) and is up (its command menu registered); then b stands by."""
    a = await start_bot(tmp_path, api, url_a, "a", *args, **env)
    await leads(a, 1)
    await api.wait_for(lambda: api.calls_to("setMyCommands"), STARTUP, "a's start-up")
    # the campaign's warnings reach the bot's log: alone, the active says no standby waits
    await a.wait_output("no standby has been seen for 5 s", stream="stderr", timeout=5)
    b = await start_bot(tmp_path, api, url_b, "b", *args, **env)
    await stands_by(b)
    await a.wait_output("a standby waits", stream="stderr", timeout=5)
    assert "Application started" not in b.stderr  # the standby handles nothing, runs no job
    return a, b


def answers(url: str) -> list[tuple[int, str]]:
    return [(pos, json.loads(response)) for pos, response in
            pg_rows(url, "SELECT pos, response FROM answers ORDER BY attempt_id, pos")]


def sent_twice(api: FakeBotApi, chat_id: int) -> list[str]:
    """The texts the bot sent more than once to the chat."""
    texts = Counter(str(c["text"]) for c in api.calls_to("sendMessage", chat_id))
    return [text for text, n in texts.items() if n > 1]
