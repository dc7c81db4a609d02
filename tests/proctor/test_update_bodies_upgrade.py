"""Migration 033 (an update's body stored with its claim) keeps every claim of a database the newest
release fixture wrote, a claim cut off by a kill included; claims from before have no body, so
start-up takes none of them back (a delivery again handles such an update, as before)."""

from __future__ import annotations

import sqlite3

from proctor.storage import updates
from proctor.storage.db import Database
from tests.proctor.test_upgrade import RELEASES, load_release

# SQLite only: the upgrade path of a SQLite file
CLAIMS = "SELECT bot_id, update_id, at, state, run FROM processed_updates ORDER BY bot_id, update_id"


async def test_an_upgrade_through_033_keeps_every_claim_and_takes_back_none(tmp_path):
    dump, version = max(RELEASES.values(), key=lambda release: release[1])  # the newest release's database
    path = tmp_path / "proctor.db"
    load_release(dump, path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == version < 33
        bot_id = conn.execute("SELECT bot_id FROM processed_updates LIMIT 1").fetchone()[0]
        with conn:  # what the release leaves when killed between a claim and its done mark
            conn.execute("INSERT INTO processed_updates (bot_id, update_id, at, state, run) "
                         "VALUES (?, 1000000, 1800000000.0, 'claimed', 'killed-run')", (bot_id,))
        before = conn.execute(CLAIMS).fetchall()
    finally:
        conn.close()
    assert any(state == "claimed" for *_, state, _ in before) and any(state == "done" for *_, state, _ in before)

    db = await Database.open(path)
    try:
        assert await db.user_version() >= 33
        assert [tuple(r) for r in await db.fetchall(CLAIMS)] == before
        assert await db.scalar("SELECT COUNT(*) FROM processed_updates WHERE body IS NOT NULL") == 0
        assert await updates.unfinished(db, bot_id, updates.new_run(), 1800000000.0) == []
    finally:
        await db.close()
