"""The answer path stays lean: round trips to the database per update, in exams and daily quizzes.

Counted (tests/round_trips.py: every call that hops to aiosqlite's thread, credited to the update
being handled) over a scripted exam (Skip, Back, Flag, presses, a toggled multiple choice with
Submit, typed answers, Finish) and a group daily quiz (taps, a repeated tap, a multiple choice, a
typed reply), through the real bot, one update at a time. Every update costs its claim (a trip as
it comes in, one for its whole batch, which also reads the user's record: bot/intake.py) and its
done mark (a trip after them all: `ProctorApplication.process_update`); an exam step is one transaction between them, 3 in
all. A daily tap is the same (a new member's record is written in the claim's trip:
proctor.people.users.ensure_user_in), and a typed group reply, whose question is found in the
step's transaction. While the claim rode on the step's trip and the done mark on whichever trip came
next (a ContextVar and a queue in proctor/storage/db.py, gone: issue 23), an exam press took 1 with
other updates in flight and 2 alone; before that, an exam press took 3, a typed answer 3, a daily
tap 3 and a typed group reply 4. Before the step calls (proctor/exams/steps.py, proctor/daily/steps.py)
an exam press took 18-23, a typed exam answer 28-29, a daily tap 27; before the claim read the
user's record, a typed exam answer took 7, the hand-in 15, a daily typed reply 5. A private daily
quiz (taps, a double tap, a toggled multiple choice with Submit, typed answers with and without a
reply) sends the next question after each answer: before its pick and send count joined the
answer's transaction (proctor/daily/private_next.py) a tap took 14, a Submit 14, a typed answer 14
and a typed reply 16 (the exam's lookup of private text was a trip of its own).
"""

from __future__ import annotations

import pytest

from proctor.live.plan import COUNTDOWN
from tests.bot.test_daily_group import _push_now, _question_of_kind
from tests.bot.test_daily_support import make_env, questions
from tests.bot.test_exam_flow import _answer_current, _confirm, _sheet
from tests.harness import BotEnv, attempt_message, start_exam
from tests.live_support import GROUP, live_paper, polls, right_options, tick
from tests.papers_fixture import small_paper
from tests.reads import daily_answers
from tests.round_trips import RoundTrips

# the most round trips an update of each kind may take
# the claim, the step, the done mark
EXAM_LIMITS = {
    "exam next": 3, "exam back": 3, "exam flag": 3, "exam answer": 3, "exam toggle": 3, "exam submit": 3,
    "exam finish_ask": 3,  # Finish on a written answer's screen (it stays on screen for more of the answer)
    # the running attempt is found in the step's own transaction; a typed answer posts the question
    # anew below it, and writing its new message's id is a trip of its own (it rode on the done
    # mark's while statements rode on others' trips: 2 then)
    "typed": 4,
    # the hand-in (closing the attempt, drafts counted, the outbox card) is one transaction
    "exam finish_yes": 4,
}
# a tap's step is one transaction; so is a typed reply's, which finds its question in it
# (proctor.daily.steps.reply_in)
DAILY_LIMITS = {"daily pick": 3, "daily submit": 3, "daily toggle": 3, "typed reply": 3}


# SQLite only: these tests count hops to aiosqlite's thread (tests/round_trips.py)
@pytest.fixture
async def exam_env(tmp_path):
    e = BotEnv(tmp_path)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def test_an_exam_step_costs_few_round_trips(exam_env):
    env = exam_env
    ann = env.api.user(1001, "Ann", language_code="en")
    await start_exam(env, ann)
    trips = RoundTrips(env.app)
    for button in ("Skip ▶", "◀ Back", "🚩 Flag", "🏳 Unflag"):
        before = attempt_message(ann.chat()).edits
        await ann.press(attempt_message(ann.chat()), button)
        await env.api.wait_for(lambda b=before: attempt_message(ann.chat()).edits > b, what=button)
        await env.idle()
    for _ in range(7):  # single, single, multi (toggles + Submit), true/false, fill-in, written...
        await _answer_current(env, ann, await _sheet(env, ann.id), right=True)
    await ann.press(_confirm(ann), "Yes, finish")
    await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()
    most = trips.most()
    print("\n" + trips.table())
    assert set(most) == set(EXAM_LIMITS), most  # every kind of step was taken
    for kind, limit in EXAM_LIMITS.items():
        assert most[kind] <= limit, (kind, most[kind], [s.calls for s in trips.steps if s.kind == kind])


async def test_a_daily_group_step_costs_few_round_trips(tmp_path):
    env = await make_env(tmp_path)
    try:
        lead, group = await _push_now(env)
        ann, bob = env.api.user(11, "Ann"), env.api.user(12, "Bob")
        group.add_members(11, 12)
        for user in (ann, bob):  # known users: a first sight records the user (bot/userctx.py) once
            await user.send("/start")
            await user.wait_message()
        await env.idle()
        trips = RoundTrips(env.app)
        msg, _, _ = await _question_of_kind(env, group, "single")
        for user in (ann, bob, ann):  # Ann's second tap: "already answered"
            await (await user.press(msg, "A")).wait()
            await env.idle()
        msg, item, _ = await _question_of_kind(env, group, "multi")
        order = item.option_order
        for c in "AB":
            await (await ann.press(msg, "ABCD"[order.index(c)])).wait()
            await env.idle()
        await (await ann.press(msg, "✅ Submit")).wait()
        await env.idle()
        msg, _, _ = await _question_of_kind(env, group, "fill")
        await bob.send("不知道", chat=group, reply_to=msg)
        await bob.wait_message(lambda m: "Daily quiz in Team" in m.text)
        await env.idle()
        most = trips.most()
        print("\n" + trips.table())
        assert set(most) == set(DAILY_LIMITS), most
        for kind, limit in DAILY_LIMITS.items():
            assert most[kind] <= limit, (kind, most[kind], [s.calls for s in trips.steps if s.kind == kind])
    finally:
        await env.close()


# a private quiz sends the next question after each answer: its bookkeeping (which one, counted as
# sending) shares the step's transaction, and marking it sent is one more trip
PRIVATE_LIMITS = {"private daily pick": 4, "private daily toggle": 3, "private daily submit": 4,
                  "private typed": 3, "private typed reply": 4}


async def test_a_daily_private_step_costs_few_round_trips(tmp_path):
    from tests.bot.test_daily_private import _key_of

    env = await make_env(tmp_path)
    try:
        ann = env.api.user(7, "Ann")
        await ann.send("/daily now")
        await ann.wait_message(lambda m: m.text.startswith("📅 Daily quiz · 1/5"))
        await env.idle()
        trips = RoundTrips(env.app, prefix="private ")
        typed_replies = 0
        for n in range(1, 6):
            msg = questions(ann.chat())[-1]
            kind, answer, order = await _key_of(env, msg)
            if kind == "single":  # a double tap: the second press finds the first answer
                first = await ann.press(msg, "ABCD"[order.index(answer)])
                again = await ann.press(msg, "ABCD"[order.index(answer)])
                await first.wait()
                assert "already answered" in await again.wait()
            elif kind == "truefalse":
                await ann.press(msg, "✔ True" if answer else "✘ False")
            elif kind == "multi":
                for c in answer:
                    await (await ann.press(msg, "ABCD"[order.index(c)])).wait()
                    await env.idle()
                await ann.press(msg, "✅ Submit")
            else:  # fill-in: typed, as a reply to the question or not
                text = "、".join(alts[0] for alts in answer)
                await (ann.send(text, reply_to=msg) if typed_replies == 0 else ann.send(text))
                typed_replies += 1
            if n < 5:
                await env.api.wait_for(lambda n=n: len(questions(ann.chat())) == n + 1, what=f"question {n + 1}")
            await env.api.wait_for(lambda msg=msg: "✅ Correct!" in msg.text, what="feedback")
            await env.idle()
        await ann.wait_message(lambda m: m.text.startswith("🏁"))
        await env.idle()
        most = trips.most()
        print("\n" + trips.table())
        assert len(await daily_answers(env.db)) == 5  # the double tap counted once
        assert set(most) == set(PRIVATE_LIMITS), most  # today's five (fixed per chat and day) cover each kind
        for kind, limit in PRIVATE_LIMITS.items():
            assert most[kind] <= limit, (kind, most[kind], [s.calls for s in trips.steps if s.kind == kind])
    finally:
        await env.close()


async def test_a_live_poll_answer_costs_few_round_trips(tmp_path):
    """A vote in a live round's poll: the step (score, store, membership) is one transaction between
    the claim and the done mark."""
    env = BotEnv(tmp_path, admins=(1,), shuffle=False)
    await env.seed(live_paper("live", 3))
    await env.start()
    try:
        lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
        ann, bob = env.api.user(11, "Ann"), env.api.user(12, "Bob")
        for user in (ann, bob):  # known members of the group: they wrote there (a stranger's vote costs a call more)
            await user.send("/live me", chat=group)
            await user.wait_message(chat=group)
        await lead.send("/live 2q 10s", chat=group)
        await lead.wait_message(chat=group)
        await env.idle()
        await tick(env, COUNTDOWN)
        trips = RoundTrips(env.app)
        for user in (ann, bob):
            await user.answer_poll(polls(env)[-1], right_options(polls(env)[-1]))
            await env.idle()
        most = trips.most()
        print("\n" + trips.table())
        assert most == {"poll answer": 3}, [s.calls for s in trips.steps]
    finally:
        await env.close()


async def test_a_group_push_costs_one_round_trip_per_question(tmp_path, monkeypatch):
    """The push job: the question just sent gets its message id, the next is counted as sending and
    its answer count read, in one transaction (proctor.daily.delivery.hand_over). It took 3 per
    question before (the count, the send counted, the id written)."""
    from bot.daily import push
    from tests.bot.test_daily_support import subscribe_group

    env = await make_env(tmp_path)
    try:
        lead, group = await subscribe_group(env)
        events: list[str] = []
        conn = env.db.conn
        original_execute, original_send = conn._execute, push.send

        async def trip(fn, *args, **kwargs):
            events.append("trip")
            return await original_execute(fn, *args, **kwargs)

        async def sent(*args, **kwargs):
            events.append("send")
            return await original_send(*args, **kwargs)

        conn._execute = trip
        monkeypatch.setattr(push, "send", sent)
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="five questions")
        await env.idle()
        firsts = [i for i, e in enumerate(events) if e == "send"]
        assert len(firsts) == 5
        between = [events[a + 1:b].count("trip") for a, b in zip(firsts, firsts[1:], strict=False)]
        assert between == [1, 1, 1, 1], events
    finally:
        await env.close()
