"""The real `proctor` command as a child process: real process, real HTTP, real SQLite file.

The fake Bot API runs in the test's event loop; the child is `python -m bot.cli ...` pointed at it
with PROCTOR_BOT_API_URL. Everything the tests assert is what a chat saw, what the process printed
and what the database file holds.
"""

from __future__ import annotations

import json
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pytest

from sandbox.fakeapi import ApiError, FakeBotApi
from tests.harness import at_place, paper_button
from tests.process_helpers import (
    FIRST_PAPER,
    SECRET,
    STARTUP,
    TOKEN,
    ProctorProcess,
    child_env,
    db_rows,
    free_port,
    start_paper,
    type_answer,
    wait_update_done,
)

REPO = Path(__file__).resolve().parents[2]



async def _run(tmp_path: Path, api: FakeBotApi, db: Path, *args: str, **env: str | None) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), "run", *args], env=child_env(tmp_path, api, **env),
                                      cwd=tmp_path)


def _seconds_left(screen_text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d) left", screen_text).groups()
    return int(minutes) * 60 + int(seconds)


# --- 1. kill -9 in the middle of an exam -------------------------------------------------------


async def test_sigkill_mid_exam_resumes_with_answers_and_deadline_kept(tmp_path, api):
    db = tmp_path / "p.db"
    ann = api.user(1001, "Ann", language_code="en")
    first = await _run(tmp_path, api, db)
    second = None
    try:
        await start_paper(api, ann)
        [attempt] = db_rows(db, "SELECT id, deadline FROM attempts WHERE status = 'running'")
        await type_answer(api, ann, "批量大小", next_q=2)
        # From now on getUpdates fails before it can confirm anything: the update carrying the
        # second answer is fetched by the long poll already waiting, handled, and never confirmed.
        api.fail("getUpdates", ApiError.server_error(500), times=10_000)
        await type_answer(api, ann, "显存", next_q=3)
        assert len(api.state.updates) == 1, "the second answer's update should be fetched but unconfirmed"
        # the screen moves before the bot marks the update done: kill only once it is done
        await wait_update_done(db, api)

        assert await first.kill() == -9
        api.state.faults.clear()
        rows = db_rows(db, "SELECT pos, response FROM answers WHERE attempt_id = ? ORDER BY pos", attempt["id"])
        assert [(r["pos"], json.loads(r["response"])) for r in rows] == [(0, "批量大小"), (1, "显存")]

        second = await _run(tmp_path, api, db)
        await ann.send("/resume")
        screen = await ann.wait_message(lambda m: at_place(m.text, 3), timeout=STARTUP)
        seen_at = time.time()
        assert at_place(screen.text, 3, 40), screen.text
        assert abs(_seconds_left(screen.text) - (attempt["deadline"] - seen_at)) <= 3
        await api.wait_idle(timeout=10)

        assert len(api.state.updates) == 0, "the new process fetched and confirmed the redelivered update"
        assert second.stderr.count("delivered again: ignored") == 1, second.stderr
        [after] = db_rows(db, "SELECT status, deadline, current_pos FROM attempts WHERE id = ?", attempt["id"])
        assert (after["status"], after["deadline"], after["current_pos"]) == ("running", attempt["deadline"], 2)
        assert db_rows(db, "SELECT COUNT(*) AS n FROM answers")[0]["n"] == 2
        assert await second.stop() == 0
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()


# --- 2. the token stays secret ------------------------------------------------------------------


async def test_token_never_appears_in_logs_or_chats(tmp_path, api):
    bot = await _run(tmp_path, api, tmp_path / "p.db")
    try:
        ann = api.user(1002, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message(timeout=STARTUP)
        await ann.send("/help")
        await ann.wait_message()
        # Error paths log tracebacks: a reply that fails in a handler, and a failed long poll.
        api.fail("sendMessage", ApiError.server_error(500), chat_id=ann.id)
        await ann.send("/papers")
        await api.wait_for(lambda: api.errors, what="the injected sendMessage failure")
        api.fail("getUpdates", ApiError.server_error(502))
        await api.wait_idle(timeout=10)
        await ann.send("/exam")  # answered once polling has backed off and recovered
        chooser = await ann.wait_message(lambda m: paper_button(m, FIRST_PAPER) is not None, timeout=15)
        await ann.press(chooser, paper_button(chooser, FIRST_PAPER))
        await ann.wait_message(lambda m: "▶️ Start" in m.button_texts)
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()

    output = bot.stdout + bot.stderr
    assert "Application started" in output  # INFO lines were written
    assert "Internal Server Error" in output and "Bad Gateway" in output and "Traceback" in output
    assert TOKEN not in output and SECRET not in output
    stored = [m for chat in api.state.chats for m in api.chat_view(chat)]
    for text in [m.content for m in stored] + [json.dumps(c.params, ensure_ascii=False, default=str)
                                               for c in api.calls]:
        assert TOKEN not in text and SECRET not in text


# --- 3. no token, or a malformed one ------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "abc"])
async def test_missing_or_malformed_token_exits_with_one_line_of_help(tmp_path, token):
    env = child_env(tmp_path, TELEGRAM_BOT_TOKEN=token)
    started = time.monotonic()
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "run"], env=env, cwd=tmp_path)
    try:
        code = await bot.wait(timeout=10)
    finally:
        await bot.cleanup()
    assert code != 0
    assert time.monotonic() - started < 10
    lines = bot.stderr.strip().splitlines()
    assert len(lines) == 1 and "BotFather" in lines[0], bot.stderr
    assert "Traceback" not in bot.stderr + bot.stdout
    assert not (tmp_path / "p.db").exists()


# --- 4. webhook mode ----------------------------------------------------------------------------


async def test_webhook_mode_receives_posted_updates_with_a_secret_token(tmp_path, api):
    port = free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    bot = await _run(tmp_path, api, tmp_path / "p.db", "--webhook", hook,
                     PROCTOR_WEBHOOK_PORT=str(port), PROCTOR_WEBHOOK_LISTEN="127.0.0.1")
    try:
        [params] = await api.wait_for(lambda: api.calls_to("setWebhook"), STARTUP, "setWebhook")
        assert params["url"] == hook
        secret = params.get("secret_token")
        assert secret and len(secret) >= 16

        ann = api.user(1004, "Ann", language_code="en")
        await ann.send("/start")
        reply = await ann.wait_message(timeout=10)
        assert "Ann" in reply.text
        await api.wait_idle(timeout=10)
        assert len(api.state.updates) == 0  # delivered by POST and acknowledged with 200

        update = {"update_id": 999, "message": {"message_id": 1, "date": 0, "text": "/start",
                                                "chat": {"id": 1004, "type": "private"}}}
        async with aiohttp.ClientSession() as session:
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
                async with session.post(hook, json=update, headers=headers) as response:
                    assert response.status == 403
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()


# --- 5. the sandbox, driven through a pipe -------------------------------------------------------


async def test_sandbox_is_driven_line_by_line_and_exits_on_eof(tmp_path):
    env = child_env(tmp_path, PROCTOR_DB=str(tmp_path / "sandbox.db"), PYTHONUNBUFFERED=None)
    sandbox = await ProctorProcess.start(["sandbox"], env=env, cwd=tmp_path, stdin=True)
    try:
        at = await sandbox.wait_output("Ctrl-D to quit.", timeout=STARTUP)
        await sandbox.write_line("/papers")
        at = await sandbox.wait_output(FIRST_PAPER, after=at)
        await sandbox.write_line("/exam")
        at = await sandbox.wait_output(f"[1] P1 · {FIRST_PAPER}", after=at)
        await sandbox.write_line("1")
        at = await sandbox.wait_output("[1] ▶️ Start", after=at)
        await sandbox.write_line("1")
        at = await sandbox.wait_output("· 1 of 40 ·", after=at)
        await sandbox.write_line("批量大小")  # a fill-in: typed, not a button
        at = await sandbox.wait_output("· 2 of 40 ·", after=at)
        await sandbox.close_stdin()
        assert await sandbox.wait(timeout=10) == 0
    finally:
        await sandbox.cleanup()
    assert "Traceback" not in sandbox.stderr, sandbox.stderr


# --- 6. import and stats through the console entry point ---------------------------------------


def _proctor(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(tmp_path / "p.db"), *args],
                          env=child_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout, done.stderr


def test_sandbox_takes_input_piped_all_at_once_and_works_again_on_the_same_database(tmp_path):
    """`printf '/exam\\n1\\n1\\n' | proctor sandbox`: each line waits for the bot's answer; a second
    session on the same database is heard too (update ids keep growing, as Telegram's do)."""
    import subprocess

    env = child_env(tmp_path, PYTHONUNBUFFERED=None)

    def session(lines: str) -> str:
        out = subprocess.run([sys.executable, "-m", "bot.cli", "--db", str(tmp_path / "sb.db"), "sandbox"],
                             input=lines, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        return out.stdout

    first = session("/exam\n1\n1\n")
    assert "[1] ▶️ Start" in first and "· 1 of 40 ·" in first, first
    second = session("/resume\n/tick 3d\n")  # the exam started in the first session is still running
    assert "· 1 of 40 ·" in second, second
    # the clock goes on from where /tick left it, not from real time again
    [moved] = re.findall(r"\(clock\) now \w+ (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", second)
    [later] = re.findall(r"\(clock\) now \w+ (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", session("/tick 1m\n"))
    moved_at, later_at = (datetime.strptime(t, "%Y-%m-%d %H:%M").replace(tzinfo=UTC) for t in (moved, later))
    assert abs(moved_at - (datetime.now(UTC) + timedelta(days=3))) < timedelta(minutes=5)
    assert timedelta(0) <= later_at - moved_at <= timedelta(minutes=3)  # 1m on, not 3 days back


def test_import_then_bank_stats_lists_five_clean_papers(tmp_path):
    seeds = sorted(str(p) for p in (REPO / "bank" / "seeds").glob("*.txt"))
    code, out, err = _proctor(tmp_path, "import", *seeds)
    assert code == 0, err
    assert out.count("imported ") == 5

    code, out, err = _proctor(tmp_path, "bank", "stats")
    assert code == 0, err
    titles = re.findall(r"^P\d+ (.+)$", out, flags=re.M)  # each paper by its code and title
    assert len(titles) == 5 and FIRST_PAPER in titles
    for title in titles:
        assert title == title.strip() and not re.search(r"doc|VIP|原创力|\.txt", title), title
    assert "5 papers," in out
