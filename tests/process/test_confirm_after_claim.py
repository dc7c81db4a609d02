"""An update is confirmed to Telegram only once its claim has committed (bot/intake.py): by long
polling, at the next getUpdates' offset (bot/polling.py); by a webhook, with its 200 (bot/webhook.py).

Telegram forgets an update once it is confirmed. Here the test holds the database's write lock
(BEGIN IMMEDIATE on the file), so the bot's claim waits; Ann types an answer; once the fake Telegram
has handed it to the bot, the bot is killed (SIGKILL), the lock released and the bot started again.
The answer was never confirmed, so Telegram delivers it again, and it counts once. Had the bot
confirmed it while its claim waited (as PTB's Updater does, and as a webhook answering 200 once the
update is queued does), the answer would be lost.

And after the claim: an update claimed (so confirmed) but not yet handled when the bot is killed is
handled at the next start, from the body stored with its claim."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

from sandbox.fakeapi import FakeBotApi
from tests.process.test_process import _run
from tests.process_helpers import STARTUP, db_rows, free_port, start_paper, wait_update_done

CONFIRM_WINDOW = 2.0  # seconds: a bot that confirms while its claim waits does so at once (its next call)


@contextlib.asynccontextmanager
async def write_lock(db: Path) -> AsyncIterator[None]:
    """The database's write lock, held by another connection: every write of the bot waits (for its
    busy timeout, then fails) until the block ends."""
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        await asyncio.to_thread(conn.execute, "BEGIN IMMEDIATE")  # waits while the bot is writing
        yield
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


async def _answer_while_the_claim_waits(api: FakeBotApi, db: Path, bot, ann) -> int:
    """Ann types her answer while the write lock is held; once the bot has been handed it, kill the
    bot. Returns the update's id. The update must still be unconfirmed at the kill."""
    queue = api.state.updates
    async with write_lock(db):
        await ann.send("批量大小")
        update_id = queue.last_pushed
        await api.wait_for(lambda: queue.undelivered == 0, timeout=10, what="the answer handed to the bot")
        with contextlib.suppress(TimeoutError):
            await api.wait_for(lambda: len(queue) == 0, timeout=CONFIRM_WINDOW, what="the answer confirmed")
        assert len(queue) == 1, "the answer was confirmed to Telegram while its claim waited"
        assert await bot.kill() == -9
    assert len(queue) == 1
    return update_id


async def _counted_once_after_restart(api: FakeBotApi, db: Path, attempt_id: int, update_id: int) -> None:
    await wait_update_done(db, api, update_id, timeout=STARTUP)
    rows = db_rows(db, "SELECT pos, response FROM answers WHERE attempt_id = ?", attempt_id)
    assert [(r["pos"], r["response"]) for r in rows] == [(0, '"批量大小"')]
    # confirmed once claimed: Telegram no longer holds it
    await api.wait_for(lambda: len(api.state.updates) == 0, timeout=10, what="the answer confirmed")


async def test_polling_confirms_an_answer_only_after_its_claim_so_a_kill_loses_nothing(tmp_path, api):
    db = tmp_path / "p.db"
    ann = api.user(1001, "Ann", language_code="en")
    first = await _run(tmp_path, api, db)
    second = None
    try:
        await start_paper(api, ann)
        await wait_update_done(db, api)  # Start handled to the end: nothing of the bot's is writing
        [attempt] = db_rows(db, "SELECT id FROM attempts WHERE status = 'running'")
        update_id = await _answer_while_the_claim_waits(api, db, first, ann)

        second = await _run(tmp_path, api, db)
        await _counted_once_after_restart(api, db, attempt["id"], update_id)
        assert await second.stop() == 0
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()


async def test_a_webhook_answers_200_only_after_the_claim_so_a_kill_loses_nothing(tmp_path, api):
    db = tmp_path / "p.db"
    port = free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    webhook = ("--webhook", hook)
    env = {"PROCTOR_WEBHOOK_PORT": str(port), "PROCTOR_WEBHOOK_LISTEN": "127.0.0.1"}
    ann = api.user(1001, "Ann", language_code="en")
    first = await _run(tmp_path, api, db, *webhook, **env)
    second = None
    try:
        await start_paper(api, ann)
        await wait_update_done(db, api)
        [attempt] = db_rows(db, "SELECT id FROM attempts WHERE status = 'running'")
        update_id = await _answer_while_the_claim_waits(api, db, first, ann)  # no 200 before the kill

        second = await _run(tmp_path, api, db, *webhook, **env)
        await _counted_once_after_restart(api, db, attempt["id"], update_id)
        assert await second.stop() == 0
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()


async def test_an_answer_claimed_but_not_yet_handled_at_a_kill_is_handled_at_the_next_start(tmp_path, api):
    db = tmp_path / "p.db"
    ann = api.user(1001, "Ann", language_code="en")
    first = await _run(tmp_path, api, db)
    second = None
    try:
        await start_paper(api, ann)
        await wait_update_done(db, api)
        [attempt] = db_rows(db, "SELECT id FROM attempts WHERE status = 'running'")
        # Ann's /help is in its handler, its reply unanswered: her next update waits for her turn
        hold = api.hold("sendMessage", chat_id=ann.id)
        await ann.send("/help")
        await hold.reached.wait()
        await ann.send("批量大小")
        answer = api.state.updates.last_pushed
        await api.wait_for(lambda: len(api.state.updates) == 0, timeout=10, what="the answer confirmed")
        [row] = db_rows(db, "SELECT state, body IS NOT NULL AS kept FROM processed_updates WHERE update_id = ?", answer)
        assert (row["state"], row["kept"]) == ("claimed", 1)  # claimed with its body before it was confirmed
        assert await first.kill() == -9
        hold.release()
        assert db_rows(db, "SELECT COUNT(*) AS n FROM answers")[0]["n"] == 0  # never handled

        second = await _run(tmp_path, api, db)  # Telegram sends nothing again: the bot has the body
        await _counted_once_after_restart(api, db, attempt["id"], answer)
        assert "taking in 2 update(s) claimed by an earlier run" in second.stderr, second.stderr
        assert await second.stop() == 0
    finally:
        hold.release()
        await first.cleanup()
        if second is not None:
            await second.cleanup()
