"""The cheap questions the bot asks before loading a feature's code (proctor/daily/pending.py,
proctor/teams/pending.py) agree with the full reads its start-up and jobs make: a yes whenever
they would find work, so skipping the load never skips a recovery."""

from __future__ import annotations

from datetime import date

from bank.paper_store import save_paper
from proctor.daily import delivery as dstore
from proctor.daily import pending as daily_pending
from proctor.daily import subscriptions as subs
from proctor.daily.plan import create_or_resume
from proctor.teams import digest
from proctor.teams import pending as teams_pending
from tests.papers_fixture import small_paper

NOW = 1_800_000_000.0
GROUP, PRIVATE = -100, 7


async def _full_daily(db) -> bool:
    """What daily practice's start-up (bot.daily.jobs.recover) would re-arm, resume or close."""
    return bool(await subs.enabled_subscriptions(db)) or bool(await dstore.unfinished(db))


async def _accepting(db, chat_id: int) -> bool:
    return any(d.accepts_answers for d in await dstore.deliveries(db, chat_id))


async def test_daily_pending_says_yes_whenever_start_up_has_work(db):
    await save_paper(db, small_paper("demo"), NOW)
    await subs.ensure_chat(db, GROUP, "supergroup", "Team", NOW)
    await subs.ensure_chat(db, PRIVATE, "private", "", NOW)
    seen = []

    async def check() -> None:
        found = await daily_pending.anything_to_recover(db)
        assert found == await _full_daily(db)
        for chat in (GROUP, PRIVATE):
            assert await daily_pending.accepting_answers(db, chat) == await _accepting(db, chat)
        seen.append(found)

    await check()  # an empty database: nothing to load
    await subs.subscribe(db, GROUP, "09:00", "UTC", 3, None, NOW)
    await check()
    await subs.unsubscribe(db, GROUP, None, NOW)
    await check()
    d, _ = await create_or_resume(db, PRIVATE, True, date(2027, 1, 15), 3, NOW + 86400, NOW)
    await check()  # pending
    assert await dstore.start_sending(db, d.id)
    await check()
    assert await dstore.mark_open(db, d.id)
    await check()
    assert await dstore.claim_close(db, d.id)
    await check()  # closed to answers, keys not posted: start-up still posts them
    await dstore.mark_keys_posted(db, d.id, NOW + 5)
    await check()
    assert seen == [False, True, False, True, True, True, True, False]


async def test_a_failed_quiz_is_no_work_for_start_up(db):
    await save_paper(db, small_paper("demo"), NOW)
    await subs.ensure_chat(db, GROUP, "supergroup", "Team", NOW)
    d, _ = await create_or_resume(db, GROUP, False, date(2027, 1, 15), 3, NOW + 86400, NOW)
    assert await dstore.mark_failed(db, d.id)
    assert not await daily_pending.anything_to_recover(db) and not await _full_daily(db)
    assert not await daily_pending.accepting_answers(db, GROUP)


async def test_teams_pending_says_yes_when_a_digest_is_on(db):
    await subs.ensure_chat(db, GROUP, "supergroup", "Team", NOW)
    assert not await teams_pending.any_digest(db)
    await digest.set_schedule(db, GROUP, enabled=True, weekday=0, at_time="09:00", lead=1, now=NOW)
    assert await teams_pending.any_digest(db) and await digest.schedules(db)
    await digest.set_schedule(db, GROUP, enabled=False, weekday=0, at_time="09:00", lead=1, now=NOW)
    assert not await teams_pending.any_digest(db) and not await digest.schedules(db)
