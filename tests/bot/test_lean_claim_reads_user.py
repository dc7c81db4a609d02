"""The claim of an update reads its user's record in the same round trip (bot/core.py, bot/userctx.py):
a known user whose name is unchanged costs no trip of its own; a new or renamed user is still
written by user_ctx, and a repeated update reads nothing."""

from __future__ import annotations

from functools import partial

from bot.i18n import t
from proctor.people.users import ensure_user, find_prefs, known_prefs_in, set_language
from proctor.storage import updates
from proctor.storage.db import Database
from tests.harness import BotEnv


async def test_the_claim_reads_a_known_users_record_and_nothing_for_a_repeat(tmp_path):
    db = await Database.open(tmp_path / "u.db")
    try:
        read = partial(known_prefs_in, user_id=7, first_name="Ann", username="ann")
        assert await updates.claim_reading(db, 1, 10, 0.0, "run", read) == (True, None)  # not known yet
        await ensure_user(db, 7, "Ann", "ann", 0.0)
        await set_language(db, 7, "zh")
        claimed, prefs = await updates.claim_reading(db, 1, 11, 0.0, "run", read)
        assert claimed and prefs is not None and (prefs.first_name, prefs.language) == ("Ann", "zh")
        renamed = partial(known_prefs_in, user_id=7, first_name="Anne", username="ann")
        assert await updates.claim_reading(db, 1, 12, 0.0, "run", renamed) == (True, None)  # ensure_user writes
        assert await updates.claim_reading(db, 1, 11, 0.0, "run", read) == (False, None)  # a repeat
    finally:
        await db.close()


async def test_a_renamed_user_is_recorded_and_lang_answers_in_the_new_language(tmp_path):
    env = BotEnv(tmp_path)
    await env.start()
    try:
        ann = env.api.user(31, "Ann", language_code="en")
        await ann.send("/start")
        await ann.wait_message()
        ann.info.first_name = "Anne"  # renamed in Telegram: the claim's read misses, user_ctx writes it
        await ann.send("/lang zh")
        reply = await ann.wait_message(lambda m: m.text != "")
        await env.idle()
        prefs = await find_prefs(env.db, 31)
        assert prefs is not None and (prefs.first_name, prefs.language) == ("Anne", "zh")
        assert reply.text == t("lang_set", "zh")  # the second user_ctx of /lang reads the record anew
    finally:
        await env.close()

