"""Nothing lost, nothing counted twice: deadlines, restarts, repeated updates, stale and forged buttons."""

from datetime import UTC, datetime

import pytest

from bot import scheduling
from bot.scheduling import JobKind
from proctor import outbox
from proctor.exams import service as attempts
from proctor.exams.deadline import GRACE
from proctor.exams.states import AttemptStatus, FinishReason
from proctor.storage import updates
from tests.harness import BotEnv, at_place, attempt_message, hand_in_expired, pick_paper, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, attempts_of, outbox_record, the_attempt


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def _start_exam(env, user):
    return await start_exam(env, user)


async def test_deadline_job_hands_in_an_idle_attempt(tmp_path):
    """The real scheduler fires the deadline: a one-minute paper, the bot restarted a second before
    its end; start-up arms the job from SQLite, and nobody runs it by hand."""
    env = BotEnv(tmp_path, shuffle=False)
    await env.seed(small_paper("quick", minutes=1))
    await env.start()
    try:
        ann = env.api.user(2001, "Ann", language_code="en")
        msg = await start_exam(env, ann, "Demo paper quick")
        toast = await ann.press(msg, "C")  # Q1 right
        assert not await toast.wait()
        await env.idle()
        [attempt] = await attempts_of(env.db, ann.id)
        assert list((await attempts.load_sheet(env.db, attempt.id)).answers) == [0]
        assert scheduling.armed(env.app, JobKind.deadline, attempt.id)
        env.clock.advance(59)  # the candidate does nothing
        await env.restart()  # start-up re-arms the deadline from SQLite: one second left
        assert (await attempts.get_attempt(env.db, attempt.id)).running  # not due at start-up: the job hands it in
        assert scheduling.armed(env.app, JobKind.deadline, attempt.id)
        # armed for a grace after the deadline (answers sent in time: proctor/exams/deadline.py)
        [job] = env.app.job_queue.get_jobs_by_name(scheduling.name(JobKind.deadline, attempt.id))
        wait = (job.next_t - datetime.now(UTC)).total_seconds()
        assert 1 + GRACE - 0.5 < wait <= 1 + GRACE
        env.clock.advance(1)
        hand_in_expired(env)  # the clock moves on by the second and the grace; the real scheduler runs the job
        card = await ann.wait_message(lambda m: "Score:" in (m.text or ""), timeout=10)
        assert "Time ran out" in card.text
        assert "Score: 2/15" in card.text
        await env.idle()
        done = await attempts.get_attempt(env.db, attempt.id)
        assert (done.status, done.finish_reason) == (AttemptStatus.finished, FinishReason.timeout)
        sent = await outbox_record(env.db, outbox.Kind.result, str(attempt.id))
        assert sent is not None and sent.state == outbox.Delivery.delivered
    finally:
        await env.close()


async def test_restart_mid_exam_resumes_same_question_time_and_answers(env):
    ann = env.api.user(2002, "Ann", language_code="en")
    msg = await _start_exam(env, ann)
    await ann.press(msg, "C")
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "A")  # Q2 wrong
    await env.idle()
    env.clock.advance(600)
    await env.restart()  # a new Application on the same database
    await ann.send("/resume")
    resumed = await ann.wait_message(lambda m: at_place(m.text, 3, 7))
    assert "50:00 left" in resumed.text
    sheet = await attempts.load_sheet(env.db, (await the_attempt(env.db)).id)
    assert {p: a.response for p, a in sheet.answers.items()} == {0: "C", 1: "A"}
    # the deadline job was re-armed by start-up
    assert env.app.job_queue.get_jobs_by_name(f"deadline:{sheet.attempt.id}")


async def test_attempt_expired_while_down_is_handed_in_at_start_up(env):
    ann = env.api.user(2003, "Ann", language_code="en")
    await _start_exam(env, ann)
    await env.stop_app()
    env.clock.advance(3 * 3600)
    await env.start_app()
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""), timeout=10)
    assert "Time ran out" in card.text
    assert (await the_attempt(env.db)).status == AttemptStatus.finished


def _raw_press(env, user, message_api: dict, data: str, query_id: str, update_id: int | None = None) -> dict:
    """A callback_query exactly as Telegram would deliver it, e.g. a second tap on an old keyboard."""
    update = {"callback_query": {
        "id": query_id, "from": {"id": user.id, "is_bot": False, "first_name": "Ann", "language_code": "en"},
        "message": message_api, "chat_instance": "1", "data": data}}
    if update_id is not None:
        update["update_id"] = update_id
    return env.api.inject_update(update)


async def _toast(env, query_id: str) -> str:
    calls = await env.api.wait_for(
        lambda: [c for c in env.api.calls if c.method == "answerCallbackQuery"
                 and c.params.get("callback_query_id") == query_id], what="toast")
    return calls[0].params.get("text", "")


async def test_double_tap_counts_once(env):
    ann = env.api.user(2004, "Ann", language_code="en")
    msg = await _start_exam(env, ann)
    old = env.api.state.message_to_api(msg)
    data = next(b.callback_data for b in msg.buttons[0] if b.text == "C")
    _raw_press(env, ann, old, data, "tap-1")
    _raw_press(env, ann, old, data, "tap-2")  # the second tap, on the keyboard the user still sees
    assert await _toast(env, "tap-1") == ""
    assert "out of date" in await _toast(env, "tap-2")
    await env.idle()
    assert list(await answers_of(env.db)) == [0]
    assert (await the_attempt(env.db)).current_pos == 1


async def test_same_update_id_delivered_twice_is_handled_once(env):
    ann = env.api.user(2005, "Ann", language_code="en")
    msg = await _start_exam(env, ann)
    await ann.press(msg, "C")
    await env.idle()
    msg = attempt_message(ann.chat())
    api_msg = env.api.state.message_to_api(msg)
    data = msg.buttons[0][1].callback_data  # "B" on Q2
    _raw_press(env, ann, api_msg, data, "dup-1", update_id=900_001)
    await env.idle()
    _raw_press(env, ann, api_msg, data, "dup-1", update_id=900_001)  # delivered again
    await env.idle()
    # the repeat stopped at its step's round trip (which carries the claim): nothing was sent for it
    assert len([c for c in env.api.calls if c.params.get("callback_query_id") == "dup-1"]) == 1
    assert list(await answers_of(env.db)) == [0, 1]
    assert await updates.is_done(env.db, env.app.bot.id, 900_001)
    assert (await the_attempt(env.db)).current_pos == 2


async def test_foreign_and_closed_buttons_are_refused(env):
    ann = env.api.user(2006, "Ann", language_code="en")
    bob = env.api.user(2007, "Bob", language_code="en")
    msg = await _start_exam(env, ann)
    old = env.api.state.message_to_api(msg)
    data = next(b.callback_data for b in msg.buttons[0] if b.text == "C")
    # Bob presses Ann's button (e.g. a forwarded keyboard): same callback data, his own user id
    toast = await bob.press(msg, "C")
    assert await toast.wait() == "This isn't your paper."
    assert await answers_of(env.db) == {}
    await ann.send("/cancel")
    confirm = await ann.wait_message(lambda m: "Yes, cancel" in m.button_texts)
    assert (await the_attempt(env.db)).status == AttemptStatus.running  # nothing happens before Yes
    await ann.press(confirm, "Yes, cancel")
    await env.api.wait_for(lambda: "Cancelled" in (confirm.text or ""))
    _raw_press(env, ann, old, data, "after-cancel")  # the keyboard is gone, but an old client may still tap
    assert await _toast(env, "after-cancel") == "This paper is closed."
    assert await answers_of(env.db) == {}


@pytest.mark.parametrize("data", ["x:1:a:0:9", "x:99999:a:0:1", "garbage", "x:go:999:e", "l:zz", "d:\u00ff"])
async def test_garbled_callback_data_gets_a_polite_refusal(env, data):
    ann = env.api.user(2008, "Ann", language_code="en")
    await ann.send("/start")
    greeting = await ann.wait_message()
    _raw_press(env, ann, env.api.state.message_to_api(greeting), data, f"forged-{data}")
    text = await _toast(env, f"forged-{data}")
    assert text and "Traceback" not in text and len(text) <= 200
    assert await attempts_of(env.db) == []


async def test_keys_are_not_shown_before_the_paper_is_handed_in(env):
    """A forged "Review answers" button on a running exam reveals nothing."""
    ann = env.api.user(2009, "Ann", language_code="en")
    msg = await _start_exam(env, ann)
    attempt_id = (await the_attempt(env.db)).id
    _raw_press(env, ann, env.api.state.message_to_api(msg), f"x:{attempt_id}:r:0", "forged-review")
    assert await _toast(env, "forged-review") == "Answers can be reviewed once the paper is handed in."
    await env.idle()
    assert not any("Answer:" in (m.text or "") for m in ann.chat())


async def test_exam_only_paper_cannot_be_practised_with_forged_data(tmp_path):
    from tests.papers_fixture import small_paper

    env = BotEnv(tmp_path)
    [pid] = await env.seed(small_paper("hiring", exam_only=True))
    await env.start()
    try:
        ann = env.api.user(2010, "Ann", language_code="en")
        await ann.send("/start")
        greeting = await ann.wait_message()
        _raw_press(env, ann, env.api.state.message_to_api(greeting), f"x:go:{pid}:p", "forged-practice")
        assert "exams only" in await _toast(env, "forged-practice")
        assert await attempts_of(env.db) == []
    finally:
        await env.close()


async def test_cancelled_exams_count_toward_the_attempt_limit(tmp_path):
    from tests.papers_fixture import small_paper

    paper = small_paper()
    paper.settings.attempts_allowed = 1
    env = BotEnv(tmp_path)
    await env.seed(paper)
    await env.start()
    try:
        ann = env.api.user(2011, "Ann", language_code="en")
        await _start_exam(env, ann)
        await ann.send("/cancel")
        await ann.press(await ann.wait_message(lambda m: "Yes, cancel" in m.button_texts), "Yes, cancel")
        await env.api.wait_for(lambda: any("Cancelled" in (m.text or "") for m in ann.chat()))
        await ann.send("/exam")
        await pick_paper(ann, "Demo paper demo")
        card = await env.api.wait_for(lambda: next((m for m in reversed(ann.chat())
                                                     if "attempts: 1/1" in (m.text or "")), None))
        assert "You have used your 1 attempt" in card.text and card.button_texts == []  # no Start offered
        old_rules = next(m for m in ann.chat() if "▶️ Start" in m.button_texts)  # the first card's Start
        toast = await ann.press(old_rules, "▶️ Start")
        assert "used all your attempts" in await toast.wait()
        assert len(await attempts_of(env.db)) == 1
    finally:
        await env.close()


async def test_cancel_in_a_group_names_nothing_and_points_to_the_private_chat(env):
    ann = env.api.user(2012, "Ann", language_code="en")
    await _start_exam(env, ann)
    group = env.api.group(-100888, "ML team")
    await ann.send("/cancel", chat=group)
    reply = await env.api.wait_for(lambda: group.last_message())
    assert "Demo paper" not in reply.text and "private chat" in reply.text
    assert (await the_attempt(env.db)).status == AttemptStatus.running


async def test_a_new_bot_token_does_not_inherit_the_old_bots_update_ids(env):
    """Update ids are per bot: after a token change, small ids are new updates, not repeats."""
    for update_id in range(1, 51):  # the old bot saw ids 1..50
        assert update_id in await updates.claim(env.db, 999, [updates.Incoming(update_id, "{}", lambda conn: None)],
                                                0, "")
        await updates.done(env.db, 999, update_id)
    ann = env.api.user(2013, "Ann", language_code="en")
    await ann.send("/start")
    assert "Hi Ann" in (await ann.wait_message()).text
