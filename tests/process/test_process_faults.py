"""The real `proctor run` process starting while Telegram refuses what start-up has to send."""

from __future__ import annotations

import time
from pathlib import Path

from bank.paper_store import list_papers
from proctor.exams.service import start_attempt
from proctor.people.users import ensure_user
from proctor.storage.bootstrap import ensure_default_bank
from proctor.storage.db import Database
from sandbox.fakeapi import ApiError
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows


async def _expired_exams(db_path: Path, users: list[tuple[int, str]]) -> None:
    """Exams that ran out while the bot was down: start-up hands them in and owes their results."""
    started = time.time() - 3 * 3600
    db = await Database.open(db_path)
    try:
        await ensure_default_bank(db, started)
        paper_id = (await list_papers(db))[0].id
        for user_id, name in users:
            await ensure_user(db, user_id, name, None, started)
            await start_attempt(db, user_id=user_id, chat_id=user_id, paper_id=paper_id, mode="exam",
                                now=started, shuffle=False)
    finally:
        await db.close()


async def test_start_up_with_undeliverable_and_failing_cards_starts_and_serves(tmp_path, api):
    db = tmp_path / "p.db"
    ann = api.user(1001, "Ann", language_code="en")  # her chat is gone: "chat not found", for good
    cat = api.user(1003, "Cat", language_code="en")  # her card meets one 502
    bob = api.user(1002, "Bob", language_code="en")
    await _expired_exams(db, [(ann.id, "Ann"), (cat.id, "Cat")])
    api.fail("sendMessage", ApiError.chat_not_found(), chat_id=ann.id, times=1000)
    api.fail("sendMessage", ApiError.server_error(502), chat_id=cat.id)
    bot = await ProctorProcess.start(["--db", str(db), "run"], env=child_env(tmp_path, api), cwd=tmp_path)
    try:
        await bob.send("/help")
        assert "/exam" in (await bob.wait_message(timeout=STARTUP)).text
        card = await cat.wait_message(lambda m: "Score:" in (m.text or ""), timeout=STARTUP)
        assert "Time ran out" in card.text
        await bot.wait_output("is undeliverable", stream="stderr")
        expected = [(ann.id, "undeliverable", 1), (cat.id, "delivered", 2)]
        await api.wait_for(lambda: [tuple(r) for r in db_rows(
            db, "SELECT chat_id, state, tries FROM outbox ORDER BY chat_id")] == expected, what="the outbox settled")
        assert {r["status"] for r in db_rows(db, "SELECT status FROM attempts")} == {"finished"}

        status = await ProctorProcess.start(["--db", str(db), "status"], env=child_env(tmp_path), cwd=tmp_path)
        assert await status.wait(STARTUP) == 0
        assert "attempts: 0 running" in status.stdout
        assert "messages: 0 pending, 1 undeliverable, 1 delivered" in status.stdout
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()
    assert bot.stderr.count("is undeliverable") == 1
