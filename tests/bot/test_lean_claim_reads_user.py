"""The claim of an update reads its user's record in the same round trip (bot/intake.py, bot/userctx.py):
a known user whose name is unchanged costs no trip of its own; a new or renamed user is still
written by user_ctx, and a repeated update reads nothing."""

from __future__ import annotations

from functools import partial

from bot.i18n import t
from proctor.people.users import ensure_user, find_prefs, known_prefs_in, set_language
from proctor.storage import updates
from proctor.storage.db import Database
from tests.harness import BotEnv


async def _claim(db: Database, update_id: int, read) -> dict:
    return await updates.claim(db, 1, [updates.Incoming(update_id, "{}", read)], 0.0, "run")


async def test_the_claim_reads_a_known_users_record_and_nothing_for_a_repeat(tmp_path):
    db = await Database.open(tmp_path / "u.db")
    try:
        read = partial(known_prefs_in, user_id=7, first_name="Ann", username="ann")
        assert await _claim(db, 10, read) == {10: None}  # not known yet
        await ensure_user(db, 7, "Ann", "ann", 0.0)
        await set_language(db, 7, "zh")
        prefs = (await _claim(db, 11, read))[11]
        assert prefs is not None and (prefs.first_name, prefs.language) == ("Ann", "zh")
        renamed = partial(known_prefs_in, user_id=7, first_name="Anne", username="ann")
        assert await _claim(db, 12, renamed) == {12: None}  # ensure_user writes
        assert await _claim(db, 11, read) == {}  # a repeat: nothing read
    finally:
        await db.close()


async def test_a_renamed_user_is_recorded_and_lang_answers_in_the_new_language(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location)
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

