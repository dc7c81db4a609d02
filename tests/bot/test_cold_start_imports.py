"""`proctor run` reaches its first reply without importing pydantic (issue 23's cold start: pydantic's
import and first schema were ~0.2 s of a ~1 s start). The bank's classes are pydantic; they are
imported where a paper is parsed, stored or graded, never to list papers.

The real `proctor run` process, against the fake Bot API with a user's /exam waiting; an audit hook
in that process writes down the first pydantic import and who made it. The machine's monotonic clock
is the same in both processes, and the fake server reads it as it stores the reply (holding its
answer until then), so the test tells "before the first reply" from "after it"."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from proctor.storage.bootstrap import ensure_default_bank
from proctor.storage.db import Database
from sandbox.fakeapi import FakeBotApi

TOKEN = "123456:COLD-start-imports-fake-token"
REPO = Path(__file__).resolve().parents[2]

# run in the bot's process before anything else: the first import of a pydantic module, when and from
# where (the innermost frames of ours), then `proctor run` as the console script runs it
_PROBE = """
import sys, time, traceback
out = sys.argv.pop(1)
seen = []
WATCH = ("pydantic", "pydantic_core")
def hook(event, args):
    if not seen and event == "import" and args[0].split(".")[0] in WATCH:
        seen.append(args[0])
        frames = [f for f in traceback.extract_stack() if "/site-packages/" not in f.filename
                  and "<frozen" not in f.filename][-6:]
        with open(out, "a") as f:
            f.write(f"{time.monotonic()}\\n" + "".join(traceback.format_list(frames)))
already = sorted(m for m in sys.modules if m.split(".")[0] in WATCH)
if already:  # loaded before this probe could watch (a sitecustomize, say): as good as before the reply
    with open(out, "a") as f:
        f.write(f"0\\nalready imported when the probe started: {already}\\n")
else:
    sys.addaudithook(hook)
import runpy
sys.argv = ["proctor", *sys.argv[1:]]
runpy.run_module("bot.cli", run_name="__main__")
"""


async def _first_reply_and_pydantic(tmp_path: Path) -> tuple[float, str]:
    db = await Database.open(tmp_path / "proctor.db")
    await ensure_default_bank(db, time.time())  # a restart, the usual cold start
    await db.close()
    out = tmp_path / "pydantic-imports.txt"
    api = FakeBotApi(TOKEN, bot_username="proctor_bot")
    await api.start()
    user = api.user(4242, "Cold", language_code="en")
    # the reply's moment as the server stores it, before the bot can hear that it went through
    stored: list[float] = []
    hold = api.hold("sendMessage", when=lambda params: str(params.get("chat_id")) == "4242"
                    and not stored.append(time.monotonic()))
    await user.send("/exam")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCTOR_")}
    env.update(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_BOT_API_URL=api.base_url, PYTHONPATH=str(REPO))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _PROBE, str(out), "--db", str(tmp_path / "proctor.db"), "run",
        cwd=tmp_path, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        async with asyncio.timeout(60):
            await hold.reached.wait()
        hold.release()
        reply = await user.wait_message(lambda m: m.from_bot, timeout=60)
        replied = stored[0]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(20):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()
        await api.stop()
    assert "P1" in str(reply.reply_markup), reply.text  # the paper list, not an error
    if not out.exists():
        return replied, ""
    stamp, where = out.read_text().split("\n", 1)
    return replied, where if float(stamp) < replied else ""


@pytest.mark.asyncio
async def test_proctor_run_answers_exam_before_it_imports_pydantic(tmp_path):
    _, imported_by = await _first_reply_and_pydantic(tmp_path)
    assert imported_by == "", f"pydantic was imported before the first reply, from:\n{imported_by}"
