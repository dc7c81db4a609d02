"""The daily quiz in a private chat: one question at a time, feedback at once, a summary with the streak."""

import re

import pytest

from bank.paper_store import get_question
from proctor.daily import delivery
from proctor.daily.fsrs_cards import known_questions
from proctor.daily.subscriptions import get_subscription
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from tests.bot.test_daily_support import make_env, questions, run_job, ts
from tests.reads import daily_answers, paper_id


@pytest.fixture
async def env(tmp_path, db_location):
    e = await make_env(tmp_path, location=db_location)
    yield e
    await e.close()


async def _key_of(env, msg):
    await env.idle()  # the message id is recorded right after the send returns
    _, item = await env.db.run(lambda conn: delivery.item_by_message_in(conn, msg.chat_id, msg.message_id))
    question = await get_question(env.db, item.question_id)
    return question.kind, question.answer, item.option_order


async def _answer_right(env, user, msg):
    kind, answer, order = await _key_of(env, msg)
    if kind == "single":
        await user.press(msg, "ABCD"[order.index(answer)])
    elif kind == "truefalse":
        await user.press(msg, "✔ True" if answer else "✘ False")
    elif kind == "multi":
        for c in answer:
            await (await user.press(msg, "ABCD"[order.index(c)])).wait()
        await user.press(msg, "✅ Submit")
    else:
        await user.send("、".join(alts[0] for alts in answer))


async def test_private_quiz_one_at_a_time_with_feedback_and_summary(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily now")
    first = await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 1/5"))
    assert len(questions(ann.chat())) == 1  # one at a time
    assert "Answered" not in first.text
    for n in range(1, 6):
        msg = questions(ann.chat())[-1]
        assert msg.text.startswith(f"📅 Daily quiz · {n}/5")
        await _answer_right(env, ann, msg)
        if n < 5:
            await env.api.wait_for(lambda n=n: len(questions(ann.chat())) == n + 1, what=f"question {n + 1}")
        await env.api.wait_for(lambda msg=msg: "✅ Correct!" in msg.text, what="feedback under the question")
        assert not msg.buttons
    summary = await ann.wait_message(lambda m: m.text.startswith("🏁"))
    assert "5/5 correct" in summary.text and "🔥 Streak: 1" in summary.text
    await ann.send("/daily now")
    assert "You've done today's quiz" in (await ann.wait_message()).text
    assert len(await known_questions(env.db, 7)) == 5  # a review card per question


async def test_a_wrong_answer_shows_the_key_and_explanation(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily now")
    msg = await ann.wait_message(lambda m: m.text.startswith("📅"))
    kind, answer, order = await _key_of(env, msg)
    if kind == "single":
        await ann.press(msg, next(c for c in "ABCD" if c != "ABCD"[order.index(answer)]))
    elif kind == "truefalse":
        await ann.press(msg, "✘ False" if answer else "✔ True")
    elif kind == "multi":
        wrong = next(c for c in "ABCD" if c not in answer)
        await (await ann.press(msg, "ABCD"[order.index(wrong)])).wait()
        await ann.press(msg, "✅ Submit")
    else:
        await ann.send("不知道")
    await env.api.wait_for(lambda: "❌ Not quite." in msg.text, what="feedback")
    assert "Answer: " in msg.text and "Your answer: " in msg.text
    assert [a.verdict for a in await daily_answers(env.db)] == ["wrong"]


async def test_typed_text_belongs_to_a_running_exam_unless_it_replies_to_the_daily_question(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily now")
    msg = await ann.wait_message(lambda m: m.text.startswith("📅"))
    await attempts.start_attempt(env.db, user_id=7, chat_id=7, paper_id=await paper_id(env.db, "demo"),
                                 mode=AttemptMode.practice, now=env.clock.now(), shuffle=False)
    await ann.send("A")
    await env.idle()
    assert await daily_answers(env.db) == []
    await ann.send("A", reply_to=msg)
    await env.api.wait_for(lambda: "Your answer" in msg.text, what="the reply answered the daily question")
    assert len(await daily_answers(env.db)) == 1


async def test_a_blocked_user_turns_their_subscription_off(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily on 07:00 Asia/Shanghai")
    await ann.wait_message(lambda m: "Daily quiz on" in m.text)
    ann.blocked = True
    env.clock.set(ts(2027, 1, 15, 23, 0))  # 07:00 in Shanghai
    await run_job(env, "daily:7")
    sub = await get_subscription(env.db, 7)
    assert (sub.enabled, sub.disabled_reason) == (False, "blocked")


async def test_status_and_off_in_private(env):
    ann = env.api.user(7, "Ann")
    await ann.send("/daily status")
    assert "Daily quiz: off" in (await ann.wait_message()).text
    await ann.send("/daily on 25:00")
    assert "can't read the time" in (await ann.wait_message()).text
    await ann.send("/daily on 07:30 Mars/Base")
    assert "don't know the time zone" in (await ann.wait_message()).text
    await ann.send("/daily on 07:30 Europe/Berlin 2h")
    assert "07:30 (Europe/Berlin)" in (await ann.wait_message()).text
    await ann.send("/daily status")
    status = (await ann.wait_message()).text
    assert "Closes: 2h after the push" in status and "Next: 2027-01-16 07:30 CET" in status
    await ann.send("/daily off")
    assert "Daily quiz off" in (await ann.wait_message()).text


async def test_typed_letters_answer_a_choice_question_and_anything_else_gets_a_hint(tmp_path, db_location):
    from bank.kinds import Kind
    from bank.models import Paper, Question, Section
    from tests.bot.test_daily_support import fast
    from tests.harness import BotEnv

    paper = Paper(slug="one", title="One", sections=[Section(kind=Kind.single, title="单选", questions=[
        Question(number=n, kind=Kind.single, stem=f"Q{n}", options=["w", "x", "y", "z"], answer="B",
                 explanation="B is right.") for n in range(1, 4)])])
    env = BotEnv(tmp_path, location=db_location, shuffle=False)
    await env.seed(paper)
    await env.start()
    fast(env)
    try:
        ann = env.api.user(7, "Ann")
        await ann.send("/daily now")
        msg = await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 1/3"))
        await ann.send("hello there")
        assert re.search(r"couldn't read that as an answer to P\d+ · Q\d+\.", (await ann.wait_message()).text)
        await ann.send("选B")
        await env.api.wait_for(lambda: "✅ Correct!" in msg.text, what="typed letter graded")
        assert "💡 B is right." in msg.text and "Tick" not in msg.text
        await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 2/3"))
    finally:
        await env.close()


async def test_the_next_question_is_counted_with_the_answer_and_a_failed_send_is_resumed(env):
    """The answer and the next question's send count are one transaction: a send that fails after
    it leaves the question counted and unsent, and resuming sends it (never lost)."""
    from bot.daily import push
    from sandbox.fakeapi import ApiError

    ann = env.api.user(7, "Ann")
    await ann.send("/daily now")
    first = await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 1/5"))
    quiz = await delivery.latest_delivery(env.db, 7)
    env.api.fail("sendMessage", ApiError.server_error(502), chat_id=7)
    await _answer_right(env, ann, first)
    await env.api.wait_for(lambda: "✅ Correct!" in first.text, what="feedback")
    await env.idle()
    assert len(await daily_answers(env.db)) == 1 and len(questions(ann.chat())) == 1
    second = (await delivery.items(env.db, quiz.id))[1]
    assert (second.send_attempts, second.message_id) == (1, None)  # counted before the call: may be a copy
    await push.resume(env.app, quiz.id)
    msg = await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 2/5"))
    await env.idle()
    second = (await delivery.items(env.db, quiz.id))[1]
    assert (second.send_attempts, second.message_id) == (2, msg.message_id)
    await _answer_right(env, ann, msg)
    await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 3/5"))
