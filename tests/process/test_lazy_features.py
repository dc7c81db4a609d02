"""Features load their handlers' modules on first use (bot/feature.py): in a fresh `proctor run`
process, where none of them is loaded at start, each first use works, and a restart with a daily
schedule in SQLite loads daily practice at start-up to re-arm it (issue 14).

The child's sys.modules is written at exit by the wrapper of tests/process/test_lean_process.py.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.bot.test_authoring_upload import GIFT
from tests.process.test_lean_process import DUMP
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows

ADMIN = 2002


async def _run(tmp_path: Path, api, db: Path, modules: Path) -> ProctorProcess:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", DUMP, "--db", str(db), "run",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=child_env(tmp_path, api, MODULES_OUT=str(modules), PROCTOR_ADMINS=str(ADMIN),
                      PROCTOR_BOT_API_FILE_URL=api.base_file_url), cwd=tmp_path)
    return ProctorProcess(proc)


async def _stop(bot: ProctorProcess, modules: Path) -> set[str]:
    assert await bot.stop() == 0, bot.stderr
    assert "Traceback" not in bot.stderr and "unhandled error" not in bot.stderr, bot.stderr
    return set(modules.read_text().split())


async def test_each_lazy_feature_works_the_first_time_and_a_restart_rearms_the_daily_quiz(tmp_path, api):
    db = tmp_path / "p.db"
    lea = api.user(ADMIN, "Lea", language_code="en")
    bot = await _run(tmp_path, api, db, tmp_path / "first.txt")
    try:
        # an admin's plain text: past /editq's and /newpaper's text and the /newquestion drafts (no
        # session, no draft), the exam (none running), to the daily quiz (nothing waiting): its hint
        await lea.send("hello")
        assert "no exam running" in (await lea.wait_message(timeout=STARTUP)).text
        await lea.send("/editq")
        assert "Usage: /editq" in (await lea.wait_message()).text
        await lea.send("/newquestion")
        await lea.wait_message(lambda m: "What kind?" in (m.text or ""))
        await lea.send_document(GIFT.encode(), "quiz.gift")
        await lea.wait_message(lambda m: "✅ Import" in m.button_texts, timeout=15)
        await lea.send("/leaderboard")
        assert (await lea.wait_message()).text  # your place in each team: none yet
        await lea.send("/daily on 09:00 UTC")
        await lea.wait_message(lambda m: (m.text or "").startswith("✅ Daily quiz on"))
        await api.wait_idle(timeout=10)
        first = await _stop(bot, tmp_path / "first.txt")
    finally:
        await bot.cleanup()
    used = {"bot.leads.authoring_input", "bot.leads.editq", "bot.authoring.newquestion", "bot.authoring.upload",
            "bot.leads.leaderboard", "bot.daily.handlers", "bot.daily.answering", "proctor.daily.steps"}
    assert used <= first, sorted(used - first)
    assert not any(m.startswith("bot.invites.") for m in first)  # nobody used an invite
    assert [r["enabled"] for r in db_rows(db, "SELECT enabled FROM daily_subscriptions WHERE chat_id = ?", ADMIN)] == [1]

    bot = await _run(tmp_path, api, db, tmp_path / "second.txt")
    try:
        await bot.wait_output("daily: 1 schedules armed", stream="stderr", timeout=STARTUP)
        await lea.send("/help")
        await lea.wait_message(lambda m: "/exam" in (m.text or ""))
        second = await _stop(bot, tmp_path / "second.txt")
    finally:
        await bot.cleanup()
    assert "bot.daily.jobs" in second  # loaded at start-up: SQLite held a schedule to re-arm
