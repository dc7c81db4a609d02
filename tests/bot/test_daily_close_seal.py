"""The group quiz's close holds the audience seal of the read rule (proctor/exams/visibility.py): the keys
of questions a known member of the group is sitting an exam on are withheld; an exam of someone the
group does not know withholds nothing there (the seal is per person)."""

from tests.bot.test_daily_support import questions, run_job, subscribe_group
from tests.bot.test_exam_secrecy import _env, _start
from tests.reads import the_delivery

BOB = 8


async def _close(env, group) -> str:
    quiz = await the_delivery(env.db)
    env.clock.set(quiz.closes_at)
    await run_job(env, f"daily-close:{quiz.id}")
    close = group.last_message()
    assert close.text.startswith("🔑 Daily quiz"), close.text
    return close.text


async def _quiz_while_sitting(tmp_path, db_location, *, known: bool) -> str:
    """Bob sits the paper; the group knows him (he wrote there) or not; the group's quiz closes."""
    env = await _env(tmp_path, db_location, "demo")
    try:
        lead, group = await subscribe_group(env)
        bob = env.api.user(BOB, "Bob")
        if known:
            await bob.send("/leaderboard", chat=group)
            await bob.wait_message(chat=group)
        await _start(env, bob)
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="five questions")
        await env.idle()
        return await _close(env, group)
    finally:
        await env.close()


async def test_the_close_withholds_the_keys_a_known_members_exam_seals(tmp_path, db_location):
    assert (await _quiz_while_sitting(tmp_path, db_location, known=True)).count("key withheld") == 5


async def test_an_exam_of_someone_the_group_does_not_know_withholds_nothing_there(tmp_path, db_location):
    assert "key withheld" not in await _quiz_while_sitting(tmp_path, db_location, known=False)
