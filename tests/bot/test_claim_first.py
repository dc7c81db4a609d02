"""An update is claimed as it comes in, before it is confirmed to Telegram and before any handler
runs (bot/intake.py, bot/core.py `ProctorApplication`): a handler whose first act is a Bot API call
runs after the claim, the claim is on its context, and a repeat of its update reaches no handler, so
nothing is sent for it. An update that cannot be claimed is not confirmed: Telegram keeps it."""

from __future__ import annotations

import asyncio
import logging

import pytest
from telegram import Update
from telegram.ext import ApplicationHandlerStop, CommandHandler, MessageHandler, filters

from bot.context import Claim
from bot.userctx import user_ctx
from proctor.storage import updates
from tests.harness import BotEnv, at_place
from tests.postgres_fixtures import sqlite_only
from tests.reads import unfinished_updates
from tests.round_trips import RoundTrips


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
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


async def test_a_screen_whose_message_id_was_lost_is_posted_anew_at_the_next_step(tmp_path, db_location):
    """A new screen's message id is written after the screen is sent; a kill between the two leaves
    the old id in SQLite. The next press on the screen the user sees still counts, and the
    screen is posted anew (the edit of the old, deleted message fails)."""
    from tests.harness import attempt_message, start_exam
    from tests.papers_fixture import small_paper
    from tests.reads import answers_of, the_attempt

    env = BotEnv(tmp_path, location=db_location, shuffle=False)
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
        assert newest.message_id > screen.message_id and at_place(newest.text, 1)  # posted anew, at question 1
        assert (await the_attempt(env.db)).message_id == newest.message_id
        assert list(await answers_of(env.db)) == []
    finally:
        await env.close()


def _start(user, update_id: int) -> dict:
    return {"update_id": update_id, "message": {
        "message_id": 7, "date": 1_800_000_000, "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        "chat": {"id": user.id, "type": "private", "first_name": "Ann"},
        "from": {"id": user.id, "is_bot": False, "first_name": "Ann", "language_code": "en"}}}


async def test_an_update_that_cannot_be_claimed_is_not_confirmed_and_is_handled_once_it_can(env, caplog):
    """The claim cannot be written (here: its table is gone): nothing runs, nothing is confirmed, so
    Telegram keeps the update and the bot fetches it again until its claim commits; then it is
    handled, once. (Before, the update was confirmed at once and the user heard "Sorry": lost.)"""
    caplog.set_level(logging.WARNING, logger="bot.polling")
    ann = env.api.user(404, "Ann", language_code="en")
    await env.db.run_write(lambda c: c.execute("ALTER TABLE processed_updates RENAME TO gone"))
    env.api.inject_update(_start(ann, 700_020))
    await env.api.wait_for(lambda: "could not claim 1 update(s)" in caplog.text, what="the failed claim")
    assert len(env.api.state.updates) == 1  # handed to the bot, not confirmed: Telegram still holds it
    assert [m for m in ann.chat() if m.from_bot] == []  # nothing ran unclaimed
    await env.db.run_write(lambda c: c.execute("ALTER TABLE gone RENAME TO processed_updates"))
    reply = await ann.wait_message(timeout=10)  # fetched again after the poller's wait (1 s)
    await env.idle()
    assert [m.text for m in ann.chat() if m.from_bot] == [reply.text]
    assert reply.text.startswith("Hi Ann")  # /start's welcome, once
    assert await updates.is_done(env.db, env.app.bot.id, 700_020)
    await env.api.wait_for(lambda: len(env.api.state.updates) == 0, what="confirmed once claimed")


async def test_an_update_put_on_the_queue_directly_is_claimed_alone_and_runs_no_handler_unclaimed(env):
    """An update that did not come in by the door (bot/intake.py) is claimed where it is handled; a
    claim that cannot be written stops it before any handler, and the error handler says so."""
    ann = env.api.user(406, "Ann", language_code="en")
    await env.db.run_write(lambda c: c.execute("ALTER TABLE processed_updates RENAME TO gone"))
    await env.app.update_queue.put(Update.de_json(_start(ann, 700_021), env.app.bot))
    reply = await ann.wait_message()
    await env.db.run_write(lambda c: c.execute("ALTER TABLE gone RENAME TO processed_updates"))
    await env.api.wait_idle()
    assert [m.text for m in ann.chat() if m.from_bot] == [reply.text]
    assert reply.text.startswith("Sorry")  # the error handler's, not /start's welcome
    assert await env.db.scalar("SELECT COUNT(*) FROM users WHERE id=?", (ann.id,)) == 0  # nothing was written
    await env.app.update_queue.put(Update.de_json(_start(ann, 700_022), env.app.bot))
    await ann.wait_message(lambda m: m.text.startswith("Hi Ann"))
    await env.idle()
    assert await updates.is_done(env.db, env.app.bot.id, 700_022)


@sqlite_only  # SQLite only: it counts hops to aiosqlite's thread (tests/round_trips.py)
async def test_a_handler_finds_its_updates_claim_on_its_context_and_user_ctx_takes_its_read(env):
    seen: list[tuple[Claim | None, str, Claim | None]] = []

    async def whoami(update, context):
        claim = context.claim
        u = await user_ctx(update, context)
        seen.append((claim, u.lang, context.claim))
        raise ApplicationHandlerStop

    env.app.add_handler(CommandHandler("whoami", whoami))
    ann = env.api.user(405, "Ann", language_code="en")
    env.api.group(-4242, "Team", type="group").add_members(ann.id)
    await env.api.wait_idle()
    trips = RoundTrips(env.app)
    env.api.inject_update(_command(ann, "/whoami", 700_030))
    await env.api.wait_for(lambda: trips.steps, what="/whoami handled")
    [(claim, lang, after)] = seen
    assert claim is not None and claim.update_id == 700_030 and lang == "en"
    assert claim.seen is not None and claim.seen.prefs.id == ann.id and claim.seen.group == (None, None)
    assert after == Claim(700_030, None)  # taken: a later user_ctx reads anew
    assert [s.calls for s in trips.steps] == [["transaction", "transaction"]]  # the claim, the done mark


async def test_a_repeat_while_the_first_delivery_runs_reaches_no_handler_and_the_first_marks_it_done(env, caplog):
    """A channel post has no user, so nothing orders its deliveries (bot/ordering.py): the repeat
    runs while the first is still in its handler (and is not metered, so RoundTrips does not see it)."""
    entered, release, runs = asyncio.Event(), asyncio.Event(), []

    async def held(update, context):
        runs.append(update.update_id)
        entered.set()
        await release.wait()

    env.app.add_handler(MessageHandler(filters.UpdateType.CHANNEL_POST, held))
    post = {"update_id": 700_040, "channel_post": {
        "message_id": 9, "date": 1_800_000_000, "text": "news", "chat": {"id": -1009, "type": "channel", "title": "C"}}}
    caplog.set_level(logging.INFO, logger="bot.intake")
    env.api.inject_update(post)
    try:
        await asyncio.wait_for(entered.wait(), 5)
        env.api.inject_update(post)  # delivered again
        await env.api.wait_for(lambda: "update 700040 delivered again: ignored" in caplog.messages, what="the repeat")
        assert await unfinished_updates(env.db, env.app.bot.id) == [700_040]  # the first is still running
    finally:
        release.set()
    await env.api.wait_for(lambda: not env.app.update_processor.current_concurrent_updates, what="the first done")
    assert runs == [700_040]
    assert await updates.is_done(env.db, env.app.bot.id, 700_040)
