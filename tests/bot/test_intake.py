"""Between Telegram and the record (bot/intake.py): an update claimed by a run that stopped before
handling it was confirmed to Telegram, which will not send it again, so the next start handles it
from the body stored with its claim; an update the flood meter drops is marked done, so no later
start runs it."""

from __future__ import annotations

import json

from bot.context import Seen
from proctor.storage import updates
from proctor.storage.db import Database
from sandbox.session import handled_by
from tests.bot.test_exam_safety import _raw_press
from tests.bot.test_flood import FLOOD, flood_held
from tests.harness import TOKEN, BotEnv, attempt_message, pick_paper, rules_card
from tests.papers_fixture import small_paper
from tests.reads import attempts_of, unfinished_updates

BOT_ID = int(TOKEN.split(":")[0])


def _nothing(conn) -> Seen | None:
    return None


async def test_an_update_claimed_by_a_run_stopped_before_handling_it_is_handled_at_the_next_start(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, shuffle=False)
    await env.seed(small_paper())
    await env.start()
    try:
        ann = env.api.user(2201, "Ann", language_code="en")
        await ann.send("/exam")
        await pick_paper(ann, "Demo paper demo")
        rules = await env.api.wait_for(lambda: rules_card(ann.chat()), what="rules card")
        start = next(b.callback_data for row in rules.buttons for b in row if b.text == "▶️ Start")
        await env.idle()
        await env.stop_app()
        # Ann taps Start; a run claims the tap (so confirms it: Telegram forgets it) and is killed
        # before any handler ran: what it leaves is the claim with the update's body
        press = {"update_id": 900_300, "callback_query": {
            "id": "tap-1", "from": {"id": ann.id, "is_bot": False, "first_name": "Ann", "language_code": "en"},
            "message": env.api.state.message_to_api(rules), "chat_instance": "1", "data": start}}
        db = await Database.open(env.db_path)
        try:
            claimed = await updates.claim(db, BOT_ID, [updates.Incoming(900_300, json.dumps(press), _nothing)],
                                          env.clock.now(), "the-killed-run")
            assert claimed == {900_300: None}
        finally:
            await db.close()

        await env.start_app()  # Telegram sends nothing: the tap is taken back from its body
        assert await handled_by(env.app, timeout=10)(900_300)
        assert attempt_message(ann.chat()) is not None
        assert len(await attempts_of(env.db)) == 1
        assert await env.db.scalar("SELECT body FROM processed_updates WHERE update_id = 900300") is None  # done: cleared
        assert await unfinished_updates(env.db, BOT_ID) == []

        seen = len(ann.chat())  # had it not been confirmed, Telegram would send it again: a repeat
        _raw_press(env, ann, env.api.state.message_to_api(rules), start, "tap-2", update_id=900_300)
        await env.api.wait_for(lambda: len(env.api.state.updates) == 0, what="the repeat confirmed")
        await env.api.wait_idle()
        assert len(await attempts_of(env.db)) == 1 and len(ann.chat()) == seen
    finally:
        await env.close()


async def test_an_update_the_flood_meter_drops_is_done_and_never_run_at_the_next_start(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, meter=True)
    await env.start()
    try:
        processor = env.app.update_processor
        start = processor.clock()
        processor.clock = lambda: start  # no refill while the flood arrives (tests/bot/test_flood.py)
        async with flood_held(env) as flooder:
            await env.api.wait_for(lambda: processor.dropped == FLOOD - processor.burst, what="the excess dropped")
        await env.api.wait_for(lambda: not processor.current_concurrent_updates, timeout=30, what="the admitted handled")
        await env.idle()
        assert await unfinished_updates(env.db, env.app.bot.id) == []  # the dropped ones too
        helps = len([m for m in flooder.chat() if m.from_bot])
        await env.restart()
        await env.api.wait_idle()
        assert len([m for m in flooder.chat() if m.from_bot]) == helps  # nothing dropped is run now
    finally:
        await env.close()
