"""Telegram failing at the worst moment: effects stay, deadlines stay armed, results still arrive.

Every fault is injected by the fake Bot API (a 5xx, "query is too old", "chat not found"); the
outbox's retry job and the deadline jobs are the real APScheduler jobs, made due by moving the
ManualClock and then the job's run time.
"""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from bot import scheduling
from bot.outbox import JOB, is_permanent, retry_after
from proctor import outbox
from proctor.exams import service as attempts
from proctor.exams.states import AttemptStatus, FinishReason
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files
from sandbox.fakeapi import ApiError
from tests.bot.test_leads_flow import ALPHA, ANN, LEAD_A, crafted_teams, pending_exam, say
from tests.harness import (
    BotEnv,
    at_place,
    attempt_message,
    fire_now,
    hand_in_expired,
    pick_paper,
    rules_card,
    start_exam,
)
from tests.papers_fixture import small_paper
from tests.reads import answers_of, outbox_due, outbox_record, the_attempt


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=False, admins=(1,))
    await e.seed(small_paper(), small_paper("quick", minutes=1))
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


def is_card(m) -> bool:
    return "Score:" in (m.text or "")


async def outbox_row(env: BotEnv, kind: outbox.Kind, ref: str) -> tuple[str, int, str | None]:
    found = await outbox_record(env.db, kind, ref)
    assert found is not None, f"nothing enqueued as {kind} {ref}"
    return found.state, found.tries, found.last_error


# --- the rules: what is worth retrying ----------------------------------------------------------


@pytest.mark.parametrize(("error", "permanent"), [
    (Forbidden("Forbidden: bot was blocked by the user"), True),
    (Forbidden("Forbidden: bot was kicked from the group chat"), True),
    (BadRequest("Bad Request: chat not found"), True),
    (ChatMigrated(-1001), True),
    (NetworkError("Bad Gateway"), False),
    (TimedOut(), False),
    (RetryAfter(30), False),
])
def test_permanent_and_transient_errors(error, permanent):
    assert is_permanent(error) is permanent


def test_backoff_doubles_up_to_a_cap_and_honours_retry_after():
    assert [outbox.backoff(n) for n in (1, 2, 3)] == [5, 10, 20]
    assert outbox.backoff(50) == outbox.MAX_RETRY
    assert outbox.backoff(1, retry_after(RetryAfter(42))) == 42


async def test_a_message_leaves_pending_once(db):

    def transaction(conn):
        outbox.enqueue_in(conn, kind=outbox.Kind.result, ref="1", chat_id=5, now=100.0)
        outbox.enqueue_in(conn, kind=outbox.Kind.result, ref="1", chat_id=5, now=100.0)  # the same one: kept once

    await db.run_write(transaction)
    [msg] = await outbox_due(db, 100.0)
    assert await outbox.retry_later(db, msg.id, 100.0, "429", retry_after=60) == 160.0
    assert await outbox_due(db, 159.0) == [] and await outbox.next_try(db) == 160.0
    await outbox.mark_undeliverable(db, msg.id, 160.0, "chat not found")
    await outbox.mark_delivered(db, msg.id, 161.0)  # refused: it is no longer pending
    counts = await outbox.counts(db)
    assert counts[outbox.Delivery.undeliverable] == 1 and counts[outbox.Delivery.delivered] == 0
    assert await outbox.next_try(db) is None


UNKNOWN = "certificate"  # a kind a later version of the bot might queue: this code has no sender for it


def queue_unknown(conn, chat_id: int, now: float) -> None:
    """A pending row as another version of the bot writes it (enqueue_in takes only this code's kinds)."""
    conn.execute("INSERT INTO outbox (kind, ref, chat_id, next_try, created_at) VALUES (?, '1', ?, ?, ?)",
                 (UNKNOWN, chat_id, now, now))


async def test_a_message_of_a_kind_this_code_does_not_know_is_never_read_and_is_set_aside(db):

    def transaction(conn):
        queue_unknown(conn, 5, 100.0)  # the oldest, in the same chat
        outbox.enqueue_in(conn, kind=outbox.Kind.result, ref="1", chat_id=5, now=100.0)

    await db.run_write(transaction)
    assert [(m.chat_id, m.kind) for m in await outbox.due_heads(db, 100.0)] == [(5, outbox.Kind.result)]
    assert (await outbox.next_for(db, 5, 100.0)).kind is outbox.Kind.result
    [unknown] = await outbox.set_aside_unknown(db, 101.0)
    assert (unknown.kind, unknown.chat_id) == (UNKNOWN, 5)
    assert await outbox.set_aside_unknown(db, 102.0) == []
    assert (await outbox.counts(db))[outbox.Delivery.undeliverable] == 1


async def test_start_up_sets_a_message_of_an_unknown_kind_aside_and_delivers_the_rest(env, caplog):
    ann = env.api.user(2401, "Ann", language_code="en")
    await start_exam(env, ann)
    attempt_id = (await the_attempt(env.db)).id
    await env.stop_app()
    db = await Database.open(env.db_path)
    try:
        await db.run_write(lambda conn: queue_unknown(conn, ann.id, env.clock.now()))
    finally:
        await db.close()
    env.clock.advance(3 * 3600)  # the exam ran out while the bot was down: its card is due at start-up
    with caplog.at_level(logging.INFO):
        await env.start_app()
        hand_in_expired(env)
        await ann.wait_message(is_card)
        await env.idle()
    assert (await outbox_row(env, outbox.Kind.result, str(attempt_id)))[0] == "delivered"
    row = await env.db.fetchone("SELECT state, last_error FROM outbox WHERE kind=?", (UNKNOWN,))
    assert tuple(row) == ("undeliverable", f"unknown kind: {UNKNOWN}")
    assert [r.levelname for r in caplog.records if f"kind '{UNKNOWN}'" in r.getMessage()] == ["WARNING"]
    # at start-up the card is not queued yet: the attempt is handed in a grace later (proctor/exams/deadline.py)
    assert any("outbox: 0 pending, 1 undeliverable" in r.getMessage() for r in caplog.records)


# --- 7. a result card lost to one 5xx at the deadline ------------------------------------------


async def test_result_card_failing_at_the_deadline_is_retried_until_delivered(env):
    ann = env.api.user(2101, "Ann", language_code="en")
    await start_exam(env, ann)
    attempt_id = (await the_attempt(env.db)).id
    env.api.fail("sendMessage", ApiError.server_error(502), chat_id=ann.id)
    env.clock.advance(3600)
    hand_in_expired(env)  # the deadline job Start armed, run now against the moved clock
    await env.api.wait_for(lambda: any(code == 502 for _, code, _ in env.api.state.errors), what="the 502")
    await env.idle()
    assert not any("Score:" in (m.text or "") for m in ann.chat())
    state, tries, error = await outbox_row(env, outbox.Kind.result, str(attempt_id))
    assert (state, tries) == ("pending", 1) and "Bad Gateway" in error
    assert (await the_attempt(env.db)).status == AttemptStatus.finished

    env.clock.advance(outbox.FIRST_RETRY)
    fire_now(env, JOB)  # the retry job, armed by the failure
    card = await ann.wait_message(is_card, timeout=10)
    assert "Time ran out" in card.text
    await env.idle()
    assert (await outbox_row(env, outbox.Kind.result, str(attempt_id)))[:2] == ("delivered", 2)
    assert sum("Score:" in (m.text or "") for m in ann.chat()) == 1


async def test_review_notice_failing_once_is_retried(env):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    lead, ann = env.api.user(LEAD_A, "Lea"), env.api.user(ANN, "Ann")
    await say(env, lead, "/review", chat=ALPHA)
    card = await env.api.wait_for(lambda: lead.last_message())
    env.api.fail("sendMessage", ApiError.server_error(500), chat_id=ANN)
    toast = await lead.press(card, "4")
    assert await toast.wait() == "Final score 4/5 saved."
    # the notice's first try failed: wait for its record (the outbox sends in the background, after the
    # toast: the fake server going quiet is no sign the try is over, on PostgreSQL least of all)
    for _ in range(500):
        if (row := await outbox_row(env, outbox.Kind.review_notice, f"{attempt}/1"))[1] >= 1:
            break
        await asyncio.sleep(0.02)  # polls a condition; no outcome depends on how long this is
    assert row[:2] == ("pending", 1)
    assert not any("was reviewed" in (m.text or "") for m in ann.chat())
    env.clock.advance(outbox.FIRST_RETRY)
    fire_now(env, JOB)
    told = await ann.wait_message(lambda m: "was reviewed" in (m.text or ""), timeout=10)
    assert "4/5" in told.text


# --- 6. start-up never stops on a send -----------------------------------------------------------


async def test_start_up_with_an_undeliverable_card_starts_and_gives_up_once(env, caplog):
    ann = env.api.user(2201, "Ann", language_code="en")
    bob = env.api.user(2202, "Bob", language_code="en")
    await start_exam(env, ann)
    attempt_id = (await the_attempt(env.db)).id
    await env.stop_app()
    env.clock.advance(3 * 3600)
    env.api.fail("sendMessage", ApiError.chat_not_found(), chat_id=ann.id, times=1000)
    with caplog.at_level(logging.INFO):
        await env.start_app()  # used to raise out of post_init: the bot did not start
        hand_in_expired(env)
        await env.api.wait_for(lambda: any(code == 400 for _, code, _ in env.api.state.errors), what="the 400")
        await env.idle()
        await bob.send("/help")
        assert "/exam" in (await bob.wait_message()).text
        state, tries, error = await outbox_row(env, outbox.Kind.result, str(attempt_id))
        assert (state, tries) == ("undeliverable", 1) and "chat not found" in error.lower()
        await env.restart()  # and it is not tried again at every restart
        await bob.send("/help")
        await bob.wait_message()
    assert sum("Score:" in c["text"] for c in env.api.calls_to("sendMessage", chat_id=ann.id)) == 1
    assert sum("is undeliverable" in r.getMessage() for r in caplog.records) == 1
    assert any("outbox: 0 pending, 1 undeliverable" in r.getMessage() for r in caplog.records)


async def test_start_up_with_a_failing_command_menu_starts_and_retries(env):
    await env.stop_app()
    env.api.fail("setMyCommands", ApiError.server_error(502))
    await env.start_app()  # the menu is registered by a job after start-up (bot/app.py): it fails, is re-armed
    await env.api.wait_for(lambda: any(call.method == "setMyCommands" for call, _, _ in env.api.state.errors)
                           and env.app.job_queue.get_jobs_by_name("set-commands"), what="the menu's retry")
    bob = env.api.user(2301, "Bob", language_code="en")
    await bob.send("/help")
    assert "/exam" in (await bob.wait_message()).text
    fire_now(env, "set-commands")
    await env.api.wait_for(lambda: env.api.commands(language_code="zh"), what="the menu, registered later")


async def test_start_up_does_not_wait_for_the_command_menu(env):
    await env.stop_app()
    before = len(env.api.calls)
    hold = env.api.hold("setMyCommands")  # Telegram takes the menu and does not answer yet
    bob = env.api.user(2302, "Bob", language_code="en")
    await bob.send("/help")  # waiting while the bot is down, like the first reply of a cold start
    await env.start_app()
    assert "/exam" in (await bob.wait_message()).text
    async with asyncio.timeout(10):
        await hold.reached.wait()  # registered by a job after start-up
    hold.release()
    await env.api.wait_for(lambda: env.api.commands(language_code="zh"), what="the menu in Chinese too")
    # post_init used to register the menu before polling began: the waiting update came after it
    methods = [c.method for c in env.api.calls[before:] if c.method in ("sendMessage", "setMyCommands")]
    assert methods.index("sendMessage") < methods.index("setMyCommands")


# --- 8. effect first, acknowledgement second ---------------------------------------------------


async def test_start_with_a_failing_acknowledgement_still_arms_the_deadline(env):
    ann = env.api.user(2401, "Ann", language_code="en")
    await ann.send("/exam")
    await pick_paper(ann, "Demo paper demo")
    rules = await env.api.wait_for(lambda: rules_card(ann.chat()), what="rules card")
    env.api.fail("answerCallbackQuery", ApiError.query_too_old())
    await ann.press(rules, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(ann.chat()), what="attempt message")
    assert at_place(screen.text, 1, 7)
    attempt_id = (await attempts.running_attempt(env.db, ann.id)).id
    assert env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.deadline, attempt_id))


async def test_yes_finish_with_a_failing_acknowledgement_still_hands_in(env):
    ann = env.api.user(2402, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    await ann.press(msg, "Finish")
    confirm = await env.api.wait_for(lambda: next((m for m in reversed(ann.chat()) if "Yes, finish" in m.button_texts),
                                                  None), what="finish confirmation")
    env.api.fail("answerCallbackQuery", ApiError.server_error(502))
    await ann.press(confirm, "Yes, finish")
    await ann.wait_message(is_card, timeout=10)
    done = await the_attempt(env.db)
    assert (done.status, done.finish_reason) == (AttemptStatus.finished, FinishReason.submitted)


async def test_resume_and_start_up_rearm_a_lost_deadline_job(env):
    ann = env.api.user(2403, "Ann", language_code="en")
    await start_exam(env, ann)
    attempt_id = (await the_attempt(env.db)).id
    for job in env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.deadline, attempt_id)):
        job.schedule_removal()
    assert not env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.deadline, attempt_id))
    await ann.send("/resume")
    await ann.wait_message(lambda m: at_place(m.text, 1, 7))
    assert env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.deadline, attempt_id))

    await env.restart()  # start-up arms it too
    assert env.app.job_queue.get_jobs_by_name(scheduling.name(scheduling.JobKind.deadline, attempt_id))
    env.clock.advance(3600)
    hand_in_expired(env)  # the re-armed job hands the paper in
    card = await ann.wait_message(is_card, timeout=10)
    assert "Time ran out" in card.text


# --- 11. time used ends at the deadline ----------------------------------------------------------


async def test_time_used_after_a_restart_counts_to_the_deadline(env):
    ann = env.api.user(2501, "Ann", language_code="en")
    await start_exam(env, ann, "Demo paper quick")
    await env.stop_app()
    env.clock.advance(62)  # a one-minute paper, handed in a grace after the start, later still
    await env.start_app()
    hand_in_expired(env)
    card = await ann.wait_message(is_card, timeout=10)
    assert "Time used: 01:00" in card.text
    done = await the_attempt(env.db)
    assert (done.finished_at - done.started_at, done.finished_at == done.deadline) == (60.0, True)


# --- the migration keeps what was owed -----------------------------------------------------------


async def test_migration_moves_unsent_results_to_the_outbox_and_ends_late_hand_ins_at_the_deadline(tmp_path):
    before = tmp_path / "before"
    before.mkdir()
    for version, path in migration_files():
        if version < 8:
            shutil.copy(path, before / path.name)
    db = await Database.open(tmp_path / "p.db", migrations_dir=before)

    def transaction(conn):  # the schema itself: rows as release 7 wrote them, migrated
        conn.execute("INSERT INTO users (id, created_at) VALUES (7, 0)")
        for aid, status, finished, sent in ((1, "finished", 4000.0, 0), (2, "finished", 2000.0, 1),
                                            (3, "cancelled", 1500.0, 0)):
            conn.execute(
                "INSERT INTO attempts (id, user_id, chat_id, mode, title, status, started_at, deadline, "
                "finished_at, result_sent) VALUES (?, 7, 7, 'exam', 'T', ?, 0, 3600, ?, ?)",
                (aid, status, finished, sent))

    await db.run_write(transaction)
    await db.migrate(MIGRATIONS_DIR)
    try:
        rows = await db.fetchall("SELECT kind, ref, chat_id, state FROM outbox")
        assert [tuple(r) for r in rows] == [("result", "1", 7, "pending")]
        ends = await db.fetchall("SELECT id, finished_at FROM attempts ORDER BY id")
        assert [tuple(r) for r in ends] == [(1, 3600.0), (2, 2000.0), (3, 1500.0)]
    finally:
        await db.close()


async def test_a_lost_answer_confirmation_still_moves_to_the_next_question(env):
    ann = env.api.user(2404, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    for _ in range(4):  # to the first fill-in (Q5)
        msg = attempt_message(ann.chat())
        await ann.press(msg, "Skip ▶")
        await env.idle()
    assert at_place(attempt_message(ann.chat()).text, 5, 7)
    env.api.fail("sendMessage", ApiError.server_error(502), chat_id=ann.id)  # the next screen's post
    await ann.send("图形处理器")
    screen = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and at_place(m.text, 6, 7) and m,
                                    what="the next question")
    assert screen is not None
    assert 4 in await answers_of(env.db)
