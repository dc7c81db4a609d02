"""Restarts, crashes and DST: no post missed, none doubled, the real jobs doing the work."""

import pytest

from bank.paper_store import get_questions
from proctor.daily import delivery
from sandbox.fakeapi import ApiError
from tests.bot.test_daily_support import GROUP, fast, make_env, questions, run_job, subscribe_group, ts
from tests.reads import deliveries, question_ids, the_delivery


@pytest.fixture
async def env(tmp_path, db_location):
    e = await make_env(tmp_path, location=db_location)
    yield e
    await e.close()


async def _restart(env):
    await env.restart()
    fast(env)


async def test_restart_before_the_trigger_still_sends_once(env):
    await subscribe_group(env)  # 09:00 Asia/Shanghai = 01:00 UTC
    await env.stop_app()
    env.clock.set(ts(2027, 1, 16, 0, 30))  # down across the trigger: back at 05:00 local
    env.clock.set(ts(2027, 1, 16, 5, 0))
    await env.start_app()
    fast(env)
    await env.api.wait_for(lambda: len(questions(env.api.chat_view(GROUP))) == 5, timeout=10,
                           what="the catch-up push")
    await env.idle()
    # the cron trigger firing as well changes nothing
    await run_job(env, f"daily:{GROUP}")
    await _restart(env)
    await env.idle()
    assert len(questions(env.api.chat_view(GROUP))) == 5
    assert len(await deliveries(env.db)) == 1


async def test_restart_before_the_trigger_time_waits_for_it(env):
    await subscribe_group(env)
    env.clock.set(ts(2027, 1, 16, 0, 30))  # 08:30 in Shanghai
    await _restart(env)
    await env.idle()
    assert questions(env.api.chat_view(GROUP)) == []
    assert len(env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}")) == 1
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    assert len(questions(env.api.chat_view(GROUP))) == 5


async def test_restart_after_the_push_sends_nothing_more(env):
    await subscribe_group(env)
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    assert len(questions(env.api.chat_view(GROUP))) == 5
    env.clock.set(ts(2027, 1, 16, 3, 0))
    await _restart(env)
    await env.idle()
    await run_job(env, f"daily:{GROUP}")
    await env.idle()
    assert len(questions(env.api.chat_view(GROUP))) == 5
    # the next day is a new quiz; yesterday's closes too (it was due an hour before the push)
    env.clock.set(ts(2027, 1, 17, 1, 0))
    await _restart(env)
    await env.api.wait_for(lambda: len(questions(env.api.chat_view(GROUP))) == 10, timeout=10, what="day two")

    def keys():
        return [m for m in env.api.chat_view(GROUP) if m.from_bot and m.text.startswith("🔑")]

    # start-up re-arms yesterday's close and today's push as two jobs: the keys may follow the questions
    await env.api.wait_for(keys, timeout=10, what="yesterday's keys")
    await env.idle()
    assert len(keys()) == 1 and "2027-01-16" in keys()[0].text


async def test_a_crash_in_the_middle_of_a_push_resumes_without_duplicates(env):
    await subscribe_group(env)
    fast(env, pace=0.3)
    env.clock.set(ts(2027, 1, 16, 1, 0))
    env.app.job_queue.run_once(lambda ctx: run_job(env, f"daily:{GROUP}"), 0)
    await env.api.wait_for(lambda: len(questions(env.api.chat_view(GROUP))) == 2, timeout=10, what="2 sent")
    env.api.fail("sendMessage", ApiError.server_error(502), times=1, chat_id=GROUP)
    await env.api.wait_for(lambda: env.api.errors, timeout=10, what="the injected failure")
    await env.idle()
    assert len(questions(env.api.chat_view(GROUP))) == 2
    quiz = await the_delivery(env.db)
    assert quiz.status == "sending"
    assert sum(i.message_id is None for i in await delivery.items(env.db, quiz.id)) == 3
    await _restart(env)
    await env.api.wait_for(lambda: len(questions(env.api.chat_view(GROUP))) == 5, timeout=10, what="resumed")
    await env.idle()
    sent = questions(env.api.chat_view(GROUP))
    assert len(sent) == 5 and len({m.text for m in sent}) == 5
    assert [m.text.splitlines()[0].split(" · P")[0] for m in sent] == [f"📅 Daily quiz · {i}/5" for i in range(1, 6)]
    assert (await the_delivery(env.db)).status == "open"


async def test_closing_survives_a_restart_and_happens_once(env):
    await subscribe_group(env)
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{GROUP}")
    closes = (await the_delivery(env.db)).closes_at
    assert closes == ts(2027, 1, 17, 0, 0)  # an hour before the next push
    env.clock.set(closes + 60)
    await _restart(env)  # down at close time: it closes at start-up
    await env.api.wait_for(lambda: env.api.last_message(GROUP).text.startswith("🔑"), timeout=10, what="keys")
    await _restart(env)
    await env.idle()
    assert sum(1 for m in env.api.chat_view(GROUP) if m.from_bot and m.text.startswith("🔑")) == 1
    quiz = await the_delivery(env.db)
    assert quiz.status == "closed" and quiz.closed_at is not None


async def test_berlin_nine_oclock_across_the_spring_dst_change(tmp_path, db_location):
    env = await make_env(tmp_path, location=db_location)
    try:
        await subscribe_group(env, "09:00 Europe/Berlin")
        env.clock.set(ts(2027, 3, 27, 8, 0))  # 09:00 CET
        await run_job(env, f"daily:{GROUP}")
        env.clock.set(ts(2027, 3, 28, 6, 30))  # 08:30 CEST, the day clocks went forward: not yet
        await run_job(env, f"daily:{GROUP}")
        assert len(questions(env.api.chat_view(GROUP))) == 5
        env.clock.set(ts(2027, 3, 28, 7, 0))  # 09:00 CEST
        await run_job(env, f"daily:{GROUP}")
        assert len(questions(env.api.chat_view(GROUP))) == 10
        first, second = await deliveries(env.db)
        assert (first.day, second.day) == ("2027-03-27", "2027-03-28")
        # the first quiz closed an hour before the second push: 08:00 CEST = 06:00 UTC
        assert first.closes_at == ts(2027, 3, 28, 6, 0)
        job = env.app.job_queue.get_jobs_by_name(f"daily:{GROUP}")[0]
        assert str(job.next_t.tzinfo) == "Europe/Berlin" and job.next_t.strftime("%H:%M") == "09:00"
    finally:
        await env.close()


async def test_an_exam_only_paper_never_appears_in_practice(tmp_path, db_location):
    env = await make_env(tmp_path, location=db_location)
    try:
        await subscribe_group(env)
        # three days draw every practice question (the group limit, 20 a minute, keeps it to three)
        for day in range(16, 19):
            env.clock.set(ts(2027, 1, day, 1, 0))
            await run_job(env, f"daily:{GROUP}")
        asked = {i.question_id for d in await deliveries(env.db) for i in await delivery.items(env.db, d.id)}
        assert asked <= set(await question_ids(env.db, "demo"))  # none of the exam-only paper's
        assert len(asked) == 6
        flagged = [q for q in (await get_questions(env.db, sorted(asked))).values()
                   if q.flags or q.kind not in ("single", "multi", "truefalse", "fill")]
        assert flagged == []
    finally:
        await env.close()


async def test_only_exam_only_papers_means_no_quiz_and_a_clear_reply(tmp_path, db_location):
    from tests.harness import BotEnv
    from tests.papers_fixture import small_paper

    env = BotEnv(tmp_path, location=db_location, admins=(1,))
    await env.seed(small_paper("hire", exam_only=True))
    await env.start()
    try:
        ann = env.api.user(5, "Ann")
        await ann.send("/daily now")
        reply = await ann.wait_message()
        assert "no practice questions" in reply.text
        assert await deliveries(env.db) == []
    finally:
        await env.close()
