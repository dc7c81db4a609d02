"""The exam's five-minute warning is patient at the pacer (bot/pacing.py, bot/exam/timer.py): when a
round's candidates share a deadline minute, their warnings fall in one minute too, and they must not
hold up the next question of someone typing an answer. Telegram's budget is scaled down so the order
shows; the assertions are about order, not speed."""

from __future__ import annotations

import asyncio

from bot.pacing import Pace
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.people.users import ensure_user
from proctor.storage.db import Database
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper

CANDIDATES = list(range(3001, 3009))  # eight running exams whose five-minute warning is due at once
ANN = 2


async def test_a_reply_goes_before_the_warnings_of_a_shared_deadline(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, pace=Pace(per_second=2, burst=1, chat_per_second=100, chat_burst=100))
    [paper] = await env.seed(small_paper())
    for chat in CANDIDATES:
        env.api.user(chat, f"Person {chat}", language_code="en")
    db = await Database.open(env.db_path)
    try:
        ids = []
        for chat in CANDIDATES:
            await ensure_user(db, chat, f"Person {chat}", None, T0)
            a = await attempts.start_attempt(db, user_id=chat, chat_id=chat, paper_id=paper, mode=AttemptMode.exam,
                                             now=T0, shuffle=False)
            ids.append(a.id)
    finally:
        await db.close()
    env.clock.advance(3290)  # 5:10 left for all of them when the bot starts: the warning is next
    await env.start()
    try:
        jobs = [env.app.job_queue.get_jobs_by_name(f"exam-timer:{aid}")[0] for aid in ids]
        assert [job.data[1] for job in jobs] == [300] * len(jobs)  # the warning's checkpoint, rebuilt at start-up
        warnings = asyncio.gather(*(job.run(env.app) for job in jobs))
        await env.api.wait_for(lambda: env.api.stats.sent >= 1, timeout=20, what="the first warning")
        ann = env.api.user(ANN, "Ann")
        await ann.send("/help")
        await env.api.wait_for(lambda: env.api.stats.per_chat.get(ANN), timeout=20, what="the reply")
        replied = env.api.stats.per_chat[ANN][0]
        await warnings
        await env.idle()
        sent = [t for chat in CANDIDATES for t in env.api.stats.per_chat.get(chat, [])]
        assert len(sent) == len(CANDIDATES)  # every warning went out
        # at 2 a second: the reply goes with the next token, not behind the warnings still waiting
        assert sum(t < replied for t in sent) <= 3
        assert sum(t > replied for t in sent) >= 4
    finally:
        await env.close()
