"""Two real `proctor run` processes on one PostgreSQL record against the fake Bot API, for the
active/standby tests (tests/process/test_standby_*.py): starting them, telling which one leads, a
candidate's exam driven through the fake API, and the record read as an operator would."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import psycopg

from bot.leadership import EXIT_STOOD_DOWN
from sandbox.fakeapi import FakeBotApi
from tests.harness import at_place, attempt_message, paper_button
from tests.process_helpers import STARTUP, ProctorProcess, child_env

FIRST_PAPER = "大模型梯度累积工程师招聘笔试考试试卷和答案"  # the first bundled paper; it opens with fill-ins
TAKEOVER = 5.0  # the standby leads within this of the active's death
STEP_DOWN = 2.0  # an active stops within this of failing to renew

__all__ = ["EXIT_STOOD_DOWN", "STARTUP", "STEP_DOWN", "TAKEOVER"]


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


async def start_exam(api: FakeBotApi, user):
    """/exam, pick the first paper, press Start; returns the attempt message."""
    await user.send("/exam")
    chooser = await user.wait_message(lambda m: paper_button(m, FIRST_PAPER) is not None, timeout=STARTUP)
    await user.press(chooser, paper_button(chooser, FIRST_PAPER))
    rules = await api.wait_for(lambda: next((m for m in reversed(user.chat()) if "▶️ Start" in m.button_texts),
                                            None), what="rules card")
    await user.press(rules, "▶️ Start")
    return await api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")


async def type_answer(api: FakeBotApi, user, text: str, next_q: int, timeout: float = 10.0) -> None:
    """Types a fill-in answer and waits until the attempt screen shows question `next_q`."""
    await user.send(text)
    await api.wait_for(lambda: (m := attempt_message(user.chat())) is not None and at_place(m.text, next_q),
                       timeout=timeout, what=f"the attempt screen moves to Q {next_q}")
    await api.wait_idle(timeout=10)


def rows(url: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()  # type: ignore[arg-type]  # the tests' own SQL


def answers(url: str) -> list[tuple[int, str]]:
    return [(pos, json.loads(response)) for pos, response in
            rows(url, "SELECT pos, response FROM answers ORDER BY attempt_id, pos")]


def sent_twice(api: FakeBotApi, chat_id: int) -> list[str]:
    """The texts the bot sent more than once to the chat."""
    texts = Counter(str(c["text"]) for c in api.calls_to("sendMessage", chat_id))
    return [text for text, n in texts.items() if n > 1]
