"""The language a person's Telegram app reports is kept on their record, so that a job or an outbox
card (no update to read it from) speaks to them as a reply does (bot/voice.py)."""

from __future__ import annotations

import pytest

from proctor.people.users import ensure_user, find_prefs, known_prefs_in, set_language


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db


async def test_the_reported_language_is_kept_and_changed_but_never_forgotten_by_a_silent_update(db):
    await ensure_user(db, 7, "Ann", None, 0, telegram_language="zh-hans")
    assert (await find_prefs(db, 7)).telegram_language == "zh-hans"
    # an update that says nothing of a language keeps the known one, and costs no write
    assert await db.run(lambda conn: known_prefs_in(conn, 7, "Ann", None)) is not None
    await ensure_user(db, 7, "Ann", None, 1)
    assert (await find_prefs(db, 7)).telegram_language == "zh-hans"
    # a changed one is written
    assert await db.run(lambda conn: known_prefs_in(conn, 7, "Ann", None, telegram_language="en")) is None
    await ensure_user(db, 7, "Ann", None, 2, telegram_language="en")
    prefs = await find_prefs(db, 7)
    assert (prefs.language, prefs.telegram_language) == (None, "en")
    await set_language(db, 7, "zh")  # /lang still wins: the rule reads both
    prefs = await find_prefs(db, 7)
    assert (prefs.language, prefs.telegram_language) == ("zh", "en")
