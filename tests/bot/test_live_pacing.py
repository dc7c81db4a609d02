"""A live round keeps within Telegram's 20 messages a minute per group: 30 questions of 10 s against
the fake server's limiter, edits and stopPoll counted, on the test's clock."""

from __future__ import annotations

from proctor.live import rounds
from proctor.live.plan import Act, next_step
from sandbox.fakeapi.limits import RateLimits
from tests.harness import BotEnv
from tests.live_support import GROUP, JOB, live_paper, polls, right_options, run_job


async def test_thirty_questions_of_ten_seconds_stay_within_twenty_a_minute(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, admins=(1,), shuffle=False, rate_limits=RateLimits(count_edits=True))
    env.api.limiter.clock = env.clock.now  # the limiter counts on the clock the round runs on
    await env.seed(live_paper("live", 30))
    await env.start()
    try:
        lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
        ann = env.api.user(11, "Ann")
        await lead.send("/live 30q 10s", chat=group)
        await lead.wait_message(chat=group)
        await env.idle()
        answered: set[int] = set()
        while not env.api.stats.rejected:  # a 429 fails the test at once (the clock would not refill it)
            r, items = await rounds.load(env.db, 1)
            nxt = next_step(r, items, env.clock.now())
            if nxt.act == Act.done:
                break
            if nxt.act == Act.wait:
                assert nxt.at is not None
                env.clock.set(nxt.at)
            await run_job(env, JOB)
            await env.idle()
            poll = polls(env)[-1] if polls(env) else None
            if poll is not None and poll.message_id not in answered:  # Ann answers each one: the standings change
                answered.add(poll.message_id)
                env.clock.advance(2)
                await ann.answer_poll(poll, right_options(poll))
                await env.idle()
        assert len(polls(env)) == 30
        stats = env.api.stats
        assert stats.rejected == 0 and not [e for e in env.api.errors if e[1] == 429]
        times = sorted(stats.per_chat[GROUP])  # every send, edit and stopPoll to the group
        assert len(times) >= 30 + 29 + 3  # polls, standings edits, countdown + standings + podium
        busiest = max(sum(1 for u in times if t <= u < t + 60) for t in times)
        print(f"\nbusiest minute: {busiest} calls, {len(times)} in all over {times[-1] - times[0]:.0f} s")
        assert busiest <= 20, busiest
    finally:
        await env.close()
