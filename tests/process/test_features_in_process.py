"""Every feature works in a real `proctor run` process from its first update (an admin's text past the
admins-only handlers, /editq, /newquestion, an upload, /leaderboard, /daily), and a restart with a
daily schedule in SQLite re-arms it at start-up."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_authoring_upload import GIFT
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows

ADMIN = 2002


async def _run(tmp_path: Path, api, db: Path) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), "run"], cwd=tmp_path, env=child_env(
        tmp_path, api, PROCTOR_ADMINS=str(ADMIN), PROCTOR_BOT_API_FILE_URL=api.base_file_url))


async def _stop(bot: ProctorProcess) -> None:
    assert await bot.stop() == 0, bot.stderr
    assert "Traceback" not in bot.stderr and "unhandled error" not in bot.stderr, bot.stderr


async def test_each_feature_works_the_first_time_and_a_restart_rearms_the_daily_quiz(tmp_path, api):
    db = tmp_path / "p.db"
    lea = api.user(ADMIN, "Lea", language_code="en")
    bot = await _run(tmp_path, api, db)
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
        await _stop(bot)
    finally:
        await bot.cleanup()
    assert [r["enabled"] for r in db_rows(db, "SELECT enabled FROM daily_subscriptions WHERE chat_id = ?", ADMIN)] == [1]

    bot = await _run(tmp_path, api, db)
    try:
        await bot.wait_output("daily: 1 schedules armed", stream="stderr", timeout=STARTUP)
        await lea.send("/help")
        await lea.wait_message(lambda m: "/exam" in (m.text or ""))
        await _stop(bot)
    finally:
        await bot.cleanup()
