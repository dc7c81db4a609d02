"""kill -9 in the middle of a live round's poll (issue 24), as a real `proctor` process: a player
answers while the bot is down; after the restart the answer counts (its points from the time it was
received), the open poll closes at its time, and the next question is posted once."""

from __future__ import annotations

import asyncio

from proctor.storage.db import Database
from tests.live_support import GROUP, live_paper
from tests.papers_fixture import save_paper
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows

ROUND_TIME = 10  # the shortest a poll may be open (/live 10s)


async def _run(tmp_path, api, db) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), "run"], env=child_env(tmp_path, api, PROCTOR_ADMINS="1",
                                      PROCTOR_SHUFFLE_OPTIONS="0"), cwd=tmp_path)


def _polls(api) -> list:
    return [m for m in api.chat_view(GROUP) if m.from_bot and m.poll is not None]


async def test_kill_9_mid_poll_an_answer_sent_while_down_counts_and_nothing_is_posted_twice(tmp_path, api):
    db = tmp_path / "p.db"
    store = await Database.open(db)
    try:
        await save_paper(store, live_paper("live", 4), 0.0)
    finally:
        await store.close()
    lead, ann = api.user(1, "Lea", language_code="en"), api.user(11, "Ann", language_code="en")
    group = api.group(GROUP, "Team")
    group.add_members(ann.id)  # the player: in the group (a vote from outside it is not scored)
    first = await _run(tmp_path, api, db)
    second = None
    try:
        await lead.send(f"/live 2q {ROUND_TIME}s", chat=group)
        await api.wait_for(lambda: _polls(api), timeout=STARTUP + 10, what="the first poll")
        await api.wait_for(lambda: db_rows(db, "SELECT poll_id FROM live_items WHERE pos=0")[0]["poll_id"],
                           timeout=5, what="the poll's id recorded")
        assert await first.kill() == -9  # the poll is open; the bot is gone
        [poll] = _polls(api)
        await ann.answer_poll(poll, list(poll.poll["correct_option_ids"]))  # while the bot is down
        await asyncio.sleep(1.5)  # real seconds pass while it is down: the points show them

        second = await _run(tmp_path, api, db)
        await api.wait_for(lambda: db_rows(db, "SELECT * FROM live_answers"), timeout=STARTUP,
                           what="the answer sent while down")
        await api.wait_for(lambda: db_rows(db, "SELECT podium_posted FROM live_rounds")[0]["podium_posted"],
                           timeout=3 * ROUND_TIME + 15, what="the round's end")
        [answer] = db_rows(db, "SELECT a.points, a.received_at, i.posted_at FROM live_answers a "
                               "JOIN live_items i ON i.round_id = a.round_id AND i.pos = a.pos")
        taken = answer["received_at"] - answer["posted_at"]
        assert taken >= 1.5  # the time it was received, after the restart, not the time it was sent
        assert answer["points"] == round(1000 * (1 - min(taken, ROUND_TIME) / (2 * ROUND_TIME)))
        polls = _polls(api)
        assert len(polls) == 2 and polls[0].message_id == poll.message_id  # each question once
        assert [r["status"] for r in db_rows(db, "SELECT status FROM live_items ORDER BY pos")] == ["closed"] * 2
        podium = [m.text for m in api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith("🏁")]
        assert len(podium) == 1 and "🥇 Ann" in podium[0]
        assert await second.stop() == 0
    finally:
        await first.cleanup()
        if second is not None:
            await second.cleanup()
