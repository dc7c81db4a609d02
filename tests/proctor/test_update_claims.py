"""A tap is never lost and counts once: an update is claimed before its handler and marked done after
it; a claim left by a run that stopped in between is handled again when the update comes again."""

import json

import pytest

from proctor.people.forget import forget_user
from proctor.storage import updates
from proctor.storage.db import Database
from sandbox.session import handled_by
from tests.bot.test_exam_safety import _raw_press
from tests.harness import TOKEN, BotEnv, attempt_message, pick_paper, rules_card, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, the_attempt, unfinished_updates

BOT_ID = int(TOKEN.split(":")[0])


async def _claim(db: Database, bot_id: int, update_id: int, now: float, run: str) -> bool:
    """The bot's claim as an update comes in (bot/intake.py), reading nothing more."""
    claimed = await updates.claim(db, bot_id, [updates.Incoming(update_id, "{}", lambda conn: None)], now, run)
    return update_id in claimed


async def test_claims_count_once_but_a_claim_cut_short_is_handed_to_the_next_run(db_location):
    db = await Database.open(db_location)
    try:
        assert await _claim(db, 1, 10, 0.0, "run-a")
        assert not await _claim(db, 1, 10, 0.0, "run-a")  # a duplicate while it is handled
        assert await _claim(db, 1, 10, 0.0, "run-b")  # run-a stopped before finishing it
        assert not await updates.is_done(db, 1, 10) and await unfinished_updates(db, 1) == [10]
        await updates.done(db, 1, 10, "run-a")  # the old run's word no longer counts
        assert not await updates.is_done(db, 1, 10)
        await updates.done(db, 1, 10, "run-b")
        assert await updates.is_done(db, 1, 10) and await unfinished_updates(db, 1) == []
        assert not await _claim(db, 1, 10, 0.0, "run-c")  # handled: a repeat from now on
        assert await _claim(db, 2, 10, 0.0, "run-c")  # another bot's update 10
        assert await updates.next_update_id(db) == 11
    finally:
        await db.close()


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path, shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def test_a_tap_claimed_by_a_bot_stopped_before_its_effect_is_handled_after_restart(env):
    ann = env.api.user(2101, "Ann", language_code="en")
    await ann.send("/exam")
    await pick_paper(ann, "Demo paper demo")
    rules = await env.api.wait_for(lambda: rules_card(ann.chat()), what="rules card")
    start = next(b.callback_data for row in rules.buttons for b in row if b.text == "▶️ Start")
    rules_api = env.api.state.message_to_api(rules)
    await env.idle()
    # Ann taps Start; the bot claims the update and is stopped before the effect (a crash, a kill):
    # what that run leaves in the database is a claim that never became done.
    await env.stop_app()
    db = await Database.open(env.db_path)
    try:
        assert await _claim(db, BOT_ID, 900_100, env.clock.now(), "the-stopped-run")
    finally:
        await db.close()
    await env.start_app()
    _raw_press(env, ann, rules_api, start, "tap-1", update_id=900_100)  # Telegram delivers it again
    await env.api.wait_for(lambda: attempt_message(ann.chat()), what="the exam started after restart")
    await env.idle()
    await the_attempt(env.db)  # one attempt
    assert await updates.is_done(env.db, BOT_ID, 900_100)
    # once handled, the same update again counts once
    seen = len(ann.chat())
    _raw_press(env, ann, rules_api, start, "tap-2", update_id=900_100)
    await env.idle()
    await the_attempt(env.db)  # still one attempt
    assert len(ann.chat()) == seen


async def test_every_handled_update_is_marked_done(env):
    ann = env.api.user(2102, "Ann", language_code="en")
    await ann.send("/start")
    await ann.wait_message()
    await env.idle()
    last = await updates.next_update_id(env.db) - 1  # /start: the one update the bot has seen
    assert await updates.is_done(env.db, BOT_ID, last)
    assert await unfinished_updates(env.db, BOT_ID) == []


async def test_a_tap_whose_effect_was_committed_before_the_stop_counts_once_when_handled_again(env):
    """Stopped after the effect but before `done`: the redelivered tap runs again and the effect's own
    guard (one answer per attempt and position) keeps it counted once."""
    ann = env.api.user(2103, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    data = next(b.callback_data for b in msg.buttons[0] if b.text == "C")
    _raw_press(env, ann, env.api.state.message_to_api(msg), data, "tap-1", update_id=900_200)
    await env.idle()
    assert len(await answers_of(env.db)) == 1
    await env.stop_app()
    db = await Database.open(env.db_path)  # what a run stopped between the effect and `done` leaves
    try:

        def transaction(conn):  # no writer turns a done update back into a claim: raw SQL
            conn.execute("UPDATE processed_updates SET state='claimed', run='the-stopped-run' "
                         "WHERE update_id=900200")

        await db.run_write(transaction)
    finally:
        await db.close()
    await env.start_app()
    _raw_press(env, ann, env.api.state.message_to_api(msg), data, "tap-2", update_id=900_200)
    await env.api.wait_for(lambda: [c for c in env.api.calls if c.method == "answerCallbackQuery"
                                    and c.params.get("callback_query_id") == "tap-2"], what="handled again")
    # the same update id again: env.idle() took it as handled before the restart, so wait for its done
    # mark itself (written after the handler returns, on the bot's next round trip)
    assert await handled_by(env.app, timeout=10)(900_200)
    assert len(await answers_of(env.db)) == 1
    assert (await the_attempt(env.db)).current_pos == 1


def _message(update_id: int, sender: int, reply_to_sender: int | None = None) -> str:
    message: dict = {"message_id": update_id, "date": 0, "text": "x", "chat": {"id": -100, "type": "group"},
                     "from": {"id": sender, "is_bot": False, "first_name": "U"}}
    if reply_to_sender is not None:
        message["reply_to_message"] = {"message_id": 1, "date": 0, "text": "what Ann wrote",
                                       "chat": {"id": -100, "type": "group"},
                                       "from": {"id": reply_to_sender, "is_bot": False, "first_name": "Ann"}}
    return json.dumps({"update_id": update_id, "message": message})


async def test_forgetting_a_user_clears_the_stored_bodies_they_appear_in_and_keeps_the_claims(db_location):
    ann, bob = 7, 8
    db = await Database.open(db_location)
    try:
        bodies = {1: _message(1, ann), 2: _message(2, bob, reply_to_sender=ann), 3: _message(3, bob)}
        batch = [updates.Incoming(i, body, lambda conn: None) for i, body in bodies.items()]
        assert set(await updates.claim(db, 1, batch, 0.0, "run-a")) == {1, 2, 3}
        await forget_user(db, ann)
        rows = await db.fetchall("SELECT update_id, state, body FROM processed_updates ORDER BY update_id")
        assert [(r[0], r[1], r[2]) for r in rows] == [(1, "claimed", None), (2, "claimed", None),
                                                      (3, "claimed", bodies[3])]
        assert await updates.unfinished(db, 1, "run-b", 0.0) == [(3, bodies[3])]
        assert await updates.unfinished(db, 1, "run-a", 0.0) == []  # this run's own are in flight
        assert await updates.unfinished(db, 1, "run-b", updates.TELEGRAM_KEEPS + 1) == []  # older than a day
    finally:
        await db.close()
