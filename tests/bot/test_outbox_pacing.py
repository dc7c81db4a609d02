"""The outbox sends at Telegram's pace through the fake Bot API with its limits on (bot/pacing.py,
bot/outbox.py): one chat at its own rate without holding up the others, the overall rate kept, a
429 for one chat holding only that chat, a reply going before a backlog of cards, and a restart
resuming the backlog. The rates are scaled up so the tests are short; times are the fake server's
records of each send, and the assertions are about order and counts, not speed."""

from __future__ import annotations

import asyncio
import time

from bot.pacing import Pace
from proctor import outbox
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from sandbox.fakeapi import ApiError, RateLimits
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper

LEAD = 7  # one chat that gets many cards (as a lead does at a round's deadline)
OTHERS = list(range(1001, 1031))  # candidates' chats: one card each


async def backlog(env: BotEnv, chats: list[int]) -> None:
    """Before the bot starts: an attempt handed in for each entry of `chats`, its result card queued
    to that chat (as deadlines do while the bot is down)."""
    [paper] = await env.seed(small_paper())
    for chat in set(chats):
        env.api.user(chat, f"Person {chat}")  # a private chat the bot may write to
    db = await Database.open(env.db_path)
    try:
        for k, chat in enumerate(chats):
            await ensure_user(db, 5000 + k, f"Candidate {k}", None, T0 - 600)
            a = await attempts.start_attempt(db, user_id=5000 + k, chat_id=chat, paper_id=paper,
                                             mode=AttemptMode.exam, now=T0 - 600, shuffle=False)
            await attempts.finish_attempt(db, a.id, T0 - 60, FinishReason.submitted)
    finally:
        await db.close()


def sends(env: BotEnv, chat: int) -> list[float]:
    return env.api.stats.per_chat.get(chat, [])


def all_sends(env: BotEnv) -> int:
    return env.api.stats.sent


async def settled(env: BotEnv) -> dict[outbox.Delivery, int]:
    """The outbox's counts once nothing is pending (a card is marked delivered just after the fake
    server records it: this waits for that write, polling the database)."""
    deadline = time.monotonic() + 20
    while (counts := await outbox.counts(env.db))[outbox.Delivery.pending] and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return counts


async def test_a_busy_chat_keeps_its_rate_and_holds_up_no_other_within_the_overall_rate(tmp_path, db_location):
    # the fake refuses above 40 a second overall and 5 a second per chat (after a burst of 3)
    env = BotEnv(tmp_path, location=db_location, rate_limits=RateLimits(global_per_second=40, global_burst=6, chat_per_second=5, chat_burst=3),
                 pace=Pace(per_second=40, burst=3, chat_per_second=5, chat_burst=2))
    await backlog(env, [LEAD] * 8 + OTHERS)  # the busy chat's cards are the oldest
    await env.start()
    try:
        await env.api.wait_for(lambda: all_sends(env) == 8 + len(OTHERS), timeout=30, what="every card")
        assert env.api.stats.rejected == 0 and not env.api.errors  # never above the limits: no 429
        lead = sends(env, LEAD)
        # 2 at once, then one every 0.2 s (the fake's record of each may lag the pacer's turn a little)
        assert len(lead) == 8 and lead[-1] - lead[0] >= 0.8
        others = [t for chat in OTHERS for t in sends(env, chat)]
        assert len(others) == len(OTHERS)
        assert max(others) < lead[-1]  # the candidates did not wait for the busy chat's cards
        assert await settled(env) == {outbox.Delivery.pending: 0, outbox.Delivery.delivered: 38,
                                      outbox.Delivery.undeliverable: 0}
    finally:
        await env.close()


async def test_a_429_for_one_chat_holds_that_chat_only_for_its_retry_after(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location)
    await backlog(env, [LEAD] + OTHERS[:10])  # the held chat's card is the oldest
    env.api.fail("sendMessage", ApiError.retry_after(2), chat_id=LEAD)
    await env.start()
    try:
        await env.api.wait_for(lambda: sends(env, LEAD), timeout=20, what="the held chat's card")
        others = [t for chat in OTHERS[:10] for t in sends(env, chat)]
        assert len(others) == 10 and len(sends(env, LEAD)) == 1
        assert [(code, call.params["chat_id"]) for call, code, _ in env.api.errors] == [(429, LEAD)]
        assert max(others) < sends(env, LEAD)[0]  # everyone else went while it waited
        assert sends(env, LEAD)[0] - min(others) >= 1.5  # ... which was retry_after (2 s) long
        assert (await settled(env))[outbox.Delivery.delivered] == 11
    finally:
        await env.close()


async def test_a_reply_goes_before_a_backlog_of_cards(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, pace=Pace(per_second=4, burst=3, chat_per_second=100, chat_burst=100))
    await backlog(env, OTHERS[:20])  # 20 cards at 4 a second: five seconds of backlog
    await env.start()
    try:
        await env.api.wait_for(lambda: all_sends(env) >= 4, timeout=20, what="the first cards")
        ann = env.api.user(2, "Ann")
        asked = time.monotonic()
        await ann.send("/help")
        await env.api.wait_for(lambda: sends(env, 2), timeout=20, what="the reply")
        replied = sends(env, 2)[0]
        cards_between = sum(asked <= t <= replied for chat in OTHERS[:20] for t in sends(env, chat))
        assert cards_between <= 5  # without priority it queues behind the ~16 cards still waiting
        await env.api.wait_for(lambda: all_sends(env) == 21, timeout=20, what="the rest of the cards")
        assert sum(t > replied for chat in OTHERS[:20] for t in sends(env, chat)) >= 8
    finally:
        await env.close()


async def test_a_restart_resumes_the_backlog_and_sends_only_what_was_not_delivered(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, pace=Pace(per_second=1000, burst=1000, chat_per_second=4, chat_burst=1))
    await backlog(env, [LEAD] * 10)  # 10 cards to one chat at 4 a second
    await env.start()
    try:
        await env.api.wait_for(lambda: len(sends(env, LEAD)) >= 3, timeout=20, what="the first cards")
        await env.stop_app()
        before = len(sends(env, LEAD))
        db = await Database.open(env.db_path)
        try:
            left = (await outbox.counts(db))[outbox.Delivery.pending]
        finally:
            await db.close()
        assert 0 < left < 10
        await env.start_app()
        await env.api.wait_for(lambda: len(sends(env, LEAD)) >= before + left, timeout=20, what="the rest")
        assert await settled(env) == {outbox.Delivery.pending: 0, outbox.Delivery.delivered: 10,
                                      outbox.Delivery.undeliverable: 0}
        assert len(sends(env, LEAD)) == before + left  # each pending card once, none sent again
    finally:
        await env.close()
