"""An update is claimed before any handler runs (bot/core.py `claim_update`, group -1): a handler
whose first act is a Bot API call runs after the claim, and a repeat of its update reaches no
handler, so nothing is sent for it."""

from __future__ import annotations

import pytest
from telegram.ext import ApplicationHandlerStop, CommandHandler

from proctor.storage import updates
from tests.harness import BotEnv
from tests.reads import unfinished_updates


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path)
    await e.start()
    yield e
    await e.close()


def _command(user, text: str, update_id: int) -> dict:
    """`text` sent by `user` in a group (no feature answers an unknown command there)."""
    return {"update_id": update_id, "message": {
        "message_id": 1000 + update_id % 1000, "date": 1_800_000_000, "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        "chat": {"id": -4242, "type": "group", "title": "Team"},
        "from": {"id": user.id, "is_bot": False, "first_name": "Ann", "language_code": "en"}}}


async def test_a_handler_that_talks_to_telegram_first_claims_first_and_a_repeat_sends_nothing(env):
    async def ping(update, context):  # no database: its first act is a Bot API call
        await context.bot.send_message(update.effective_chat.id, "pong")
        raise ApplicationHandlerStop

    env.app.add_handler(CommandHandler("ping", ping))
    ann = env.api.user(401, "Ann", language_code="en")
    env.api.group(-4242, "Team", type="group").add_members(ann.id)
    env.api.inject_update(_command(ann, "/ping", 700_001))
    await env.api.wait_for(lambda: [c for c in env.api.calls if c.method == "sendMessage"], what="pong")
    await env.idle()
    assert await updates.is_done(env.db, env.app.bot.id, 700_001)
    env.api.inject_update(_command(ann, "/ping", 700_001))  # delivered again
    env.api.inject_update(_command(ann, "/ping", 700_002))  # a new one, after it
    await env.api.wait_for(lambda: len([c for c in env.api.calls if c.method == "sendMessage"]) >= 2, what="2nd")
    await env.idle()
    assert [c.params.get("text") for c in env.api.calls if c.method == "sendMessage"] == ["pong", "pong"]
    assert await unfinished_updates(env.db, env.app.bot.id) == []


async def test_an_update_no_handler_touches_is_still_claimed_and_marked_done(env):
    ann = env.api.user(402, "Ann", language_code="en")
    env.api.inject_update({"update_id": 700_010, "edited_message": {
        "message_id": 5, "date": 1_800_000_000, "edit_date": 1_800_000_001, "text": "typo",
        "chat": {"id": ann.id, "type": "private", "first_name": "Ann"},
        "from": {"id": ann.id, "is_bot": False, "first_name": "Ann"}}})
    await env.idle()
    assert await updates.is_done(env.db, env.app.bot.id, 700_010)


async def test_a_screen_whose_message_id_was_lost_is_posted_anew_at_the_next_step(tmp_path):
    """A new screen's message id is written after the screen is sent; a kill between the two leaves
    the old id in SQLite. The next press on the screen the user sees still counts, and the
    screen is posted anew (the edit of the old, deleted message fails)."""
    from tests.harness import attempt_message, start_exam
    from tests.papers_fixture import small_paper
    from tests.reads import answers_of, the_attempt

    env = BotEnv(tmp_path, shuffle=False)
    await env.seed(small_paper())
    await env.start()
    try:
        ann = env.api.user(403, "Ann", language_code="en")
        await start_exam(env, ann)
        old = attempt_message(ann.chat())
        await ann.press(old, "Skip ▶")
        await env.idle()
        running = await the_attempt(env.db)
        await env.db.run_write(lambda c: c.execute("UPDATE attempts SET message_id=? WHERE id=?",
                                                   (old.message_id + 1000, running.id)))  # the id never written
        screen = attempt_message(ann.chat())
        await ann.press(screen, "◀ Back")
        await env.idle()
        assert (await the_attempt(env.db)).current_pos == 0  # the press counted
        newest = attempt_message(ann.chat())
        assert newest.message_id > screen.message_id and "1/" in newest.text  # posted anew, at question 1
        assert (await the_attempt(env.db)).message_id == newest.message_id
        assert list(await answers_of(env.db)) == []
    finally:
        await env.close()


async def test_when_the_claim_fails_no_handler_runs_and_the_user_hears_oops(env):
    """A claim that cannot be written (here: its table is gone) stops the update before any handler:
    nothing runs unclaimed; the error handler logs it and says so."""
    ann = env.api.user(404, "Ann", language_code="en")
    await env.db.run_write(lambda c: c.execute("ALTER TABLE processed_updates RENAME TO gone"))
    env.api.inject_update({"update_id": 700_020, "message": {
        "message_id": 7, "date": 1_800_000_000, "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        "chat": {"id": ann.id, "type": "private", "first_name": "Ann"},
        "from": {"id": ann.id, "is_bot": False, "first_name": "Ann", "language_code": "en"}}})
    reply = await ann.wait_message()
    await env.db.run_write(lambda c: c.execute("ALTER TABLE gone RENAME TO processed_updates"))
    # the server is quiet (env.idle would wait for this update's done mark, which an unclaimed update never gets)
    await env.api.wait_idle()
    assert [m.text for m in ann.chat() if m.from_bot] == [reply.text]
    assert reply.text.startswith("Sorry")  # the error handler's, not /start's welcome
    assert await env.db.scalar("SELECT COUNT(*) FROM users WHERE id=?", (ann.id,)) == 0  # nothing was written
