"""What Moodle's quiz has: unsubmitted ticks counted at hand-in, a question navigator, a review of
every answer. Through the fake Bot API (real Application, real HTTP, real SQLite) and the domain."""

import pytest

from bot.exam import render
from proctor.exams import service as attempts
from proctor.people.users import ensure_user
from proctor.teams.curation import update_settings
from sandbox.fakeapi import ApiError
from tests.answering import answer, tick
from tests.harness import BotEnv, at_place, attempt_message, start_exam
from tests.papers_fixture import save_paper, small_paper
from tests.reads import answers_in, attempts_of

T0 = 1_800_000_000.0


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def _sheet(env, user_id):
    running = await attempts.running_attempt(env.db, user_id)
    return await attempts.load_sheet(env.db, running.id, positions="all")


# ---- the domain: a draft counts at hand-in ------------------------------------------------------

async def _start(db):
    pid = await save_paper(db, small_paper(), T0)
    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    multi = next(i for i in sheet.items if sheet.question(i).kind.value == "multi")
    return a, multi


@pytest.mark.parametrize("reason", ["submitted", "timeout"])
async def test_ticks_not_submitted_count_at_hand_in(db, reason):
    a, multi = await _start(db)
    assert await tick(db, a.id, multi.pos, "AB", T0 + 5) == "AB"  # the key, ticked, never submitted
    _, result = await attempts.finish_attempt(db, a.id, T0 + 60, reason)
    sheet = await attempts.load_sheet(db, a.id)
    answer = sheet.answers[multi.pos]
    assert (answer.response, answer.verdict, answer.score) == ("AB", "correct", 2.0)
    assert result.score == 2.0 and sheet.attempt.score == 2.0
    assert sheet.items[multi.pos].draft == ""


async def test_ticks_changed_after_a_submit_replace_it_and_a_cancel_counts_nothing(db):
    a, multi = await _start(db)
    await answer(db, a.id, multi.pos, "CD", T0 + 5)
    assert await tick(db, a.id, multi.pos, "AB", T0 + 6) == "AB"
    await attempts.finish_attempt(db, a.id, T0 + 60, "submitted")
    assert [x.response for x in (await answers_in(db, a.id)).values()] == ["AB"]
    await attempts.finish_attempt(db, a.id, T0 + 70, "submitted")  # counted once
    assert len(await answers_in(db, a.id)) == 1


# ---- through the bot ------------------------------------------------------------------------------

async def test_finish_screen_lists_ticks_not_submitted_and_counts_them(env):
    ann = env.api.user(2001, "Ann", language_code="en")
    await start_exam(env, ann)
    sheet = await _sheet(env, ann.id)
    multi = next(i for i in sheet.items if sheet.question(i).kind.value == "multi")
    await attempts.move_to(env.db, sheet.attempt.id, multi.pos, env.clock.now())
    await ann.send("/resume")
    await env.idle()
    msg = attempt_message(ann.chat())
    shown = sorted(multi.shown_letter(c) for c in "AB")
    for letter in shown:
        await ann.press(msg, letter)
        await env.idle()
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    assert f"Q{multi.pos + 1}: ticked {', '.join(shown)}, not submitted — will be counted" in confirm.text
    await ann.press(confirm, "Yes, finish")
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "• Multiple choice: 2/2" in card.text


async def test_navigator_jumps_straight_to_a_question(env):
    ann = env.api.user(2002, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    assert at_place(msg.text, 1, 7)
    await ann.press(msg, "☰ Questions")
    grid = await env.api.wait_for(lambda: next((m for m in ann.chat() if "•1" in m.button_texts), None),
                                  what="the navigator")
    assert grid.button_texts[:7] == ["•1", "2", "3", "4", "5", "6", "7"]
    assert all(len(b.callback_data.encode()) <= 64 for row in grid.buttons for b in row)
    await ann.press(grid, "7")
    await env.api.wait_for(lambda: at_place((attempt_message(ann.chat()) or msg).text, 7, 7), what="Q7")
    assert (await _sheet(env, ann.id)).attempt.current_pos == 6
    # answered and flagged questions are marked; the Finish screen reaches the navigator too
    await ann.press(attempt_message(ann.chat()), "🚩 Flag")
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    await ann.press(confirm, "☰ Questions")
    grid = await env.api.wait_for(lambda: next((m for m in ann.chat() if "•7🚩" in m.button_texts), None),
                                  what="the navigator from Finish")
    await ann.press(grid, "2")
    await env.api.wait_for(lambda: at_place((attempt_message(ann.chat()) or msg).text, 2, 7), what="Q2")


async def test_review_of_every_answer_with_a_wrong_only_filter(env):
    ann = env.api.user(2003, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    sheet = await _sheet(env, ann.id)
    first = sheet.items[0]
    await ann.press(msg, first.shown_letter(sheet.question(first).answer))  # Q1 right, the rest left
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    await ann.press(confirm, "Yes, finish")
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    await ann.press(card, "🔍 Review all answers")
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/7 · P1 · Q1"))
    assert "✅ Right" in page.text
    await ann.press(page, "✗ Wrong only")
    await env.api.wait_for(lambda: page.text.startswith("Review 1/6 · P1 · Q2"), what="wrong only")
    await ann.press(page, "All")
    await env.api.wait_for(lambda: page.text.startswith("Review 1/7 · P1 · Q1"), what="all again")


async def test_a_review_pressed_in_a_group_opens_in_the_private_chat(env):
    """A group reads every edit: the review is its candidate's, so a press there (a kept or forwarded
    button) leaves the group's message as it was and shows the page privately."""
    ann = env.api.user(2004, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    await ann.press(msg, "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    await ann.press(confirm, "Yes, finish")
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    data = next(b.callback_data for row in card.buttons for b in row if b.text == "🔍 Review all answers")
    group = env.api.group(-500, "Team")
    group.add_members(ann.id)
    state = env.api.state
    shown = state.new_message(state.chats[group.id], state.bot.id, text="a kept button",
                              reply_markup={"inline_keyboard": [[{"text": "🔍", "callback_data": data}]]})
    toast = await ann.press(shown, callback_data=data)
    assert await toast.wait() == "📬 Sent to you in a private chat."
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/7 · P1 · Q1"))
    assert page.chat_id == ann.id
    assert shown.text == "a kept button"
    assert [m.message_id for m in env.api.chat_view(group.id) if m.from_bot] == [shown.message_id]


# ---- the clock in the header ----------------------------------------------------------------------

def _timer_job(env, attempt_id):
    jobs = env.app.job_queue.get_jobs_by_name(f"exam-timer:{attempt_id}")
    return jobs[0] if jobs else None


async def _run_timer(env, attempt_id):
    await _timer_job(env, attempt_id).run(env.app)
    await env.idle()


async def test_header_clock_refreshed_at_10_5_and_1_minutes_with_a_warning_at_5(env):
    ann = env.api.user(2004, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    aid = (await _sheet(env, ann.id)).attempt.id
    assert _timer_job(env, aid).data == (aid, 600)
    env.clock.advance(3000)
    await _run_timer(env, aid)
    assert "· 10:00 left" in msg.text and msg.protect_content
    assert _timer_job(env, aid).data == (aid, 300)
    env.clock.advance(300)
    await _run_timer(env, aid)
    assert "· 05:00 left" in msg.text
    warning = await ann.wait_message(lambda m: (m.text or "").startswith("⏰"))
    assert warning.text.startswith("⏰ 5 minutes left")
    env.clock.advance(240)
    await _run_timer(env, aid)
    assert "· 01:00 left" in msg.text
    assert _timer_job(env, aid) is None  # no checkpoint left; the deadline job hands it in
    assert env.app.job_queue.get_jobs_by_name(f"deadline:{aid}")
    assert sum((m.text or "").startswith("⏰") for m in ann.chat()) == 1


async def test_a_failed_refresh_is_logged_and_strands_nothing(env):
    ann = env.api.user(2005, "Ann", language_code="en")
    await start_exam(env, ann)
    aid = (await _sheet(env, ann.id)).attempt.id
    env.clock.advance(3300)  # five minutes left
    env.api.fail("editMessageText", ApiError.server_error(502))
    env.api.fail("sendMessage", ApiError.server_error(502))
    await _timer_job(env, aid).run(env.app)
    await env.idle()
    assert _timer_job(env, aid).data == (aid, 60)
    assert env.app.job_queue.get_jobs_by_name(f"deadline:{aid}")


async def test_timer_rebuilt_at_start_up_and_disarmed_at_hand_in(env):
    ann = env.api.user(2006, "Ann", language_code="en")
    await start_exam(env, ann)
    aid = (await _sheet(env, ann.id)).attempt.id
    env.clock.advance(3100)  # 8:20 left
    await env.restart()
    assert _timer_job(env, aid).data == (aid, 300)
    await ann.send("/resume")
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    await ann.press(confirm, "Yes, finish")
    await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert _timer_job(env, aid) is None


# ---- small ones -----------------------------------------------------------------------------------

async def test_exam_with_a_paper_name_shows_its_rules_card(env):
    ann = env.api.user(2007, "Ann", language_code="en")
    await ann.send("/exam demo")
    card = await ann.wait_message(lambda m: "▶️ Start" in m.button_texts)
    assert card.text.startswith("📝 Demo paper demo")
    await ann.send("/exam 1")  # its number in /papers
    await ann.wait_message(lambda m: "▶️ Start" in m.button_texts and m.message_id != card.message_id)
    await ann.send("/exam nosuch")
    reply = await ann.wait_message()
    assert reply.text.startswith("No paper called “nosuch”")
    assert await attempts_of(env.db) == []


async def test_exam_with_an_invite_only_papers_code_says_only_an_invite_opens_it(env):
    """Issue 22: `/exam P2` for an invite-only paper said there was no paper P2."""
    await env.seed(small_paper("hire"))
    await update_settings(env.db, "hire", actor=0, now=env.clock.now(), invite_only=True)
    ann = env.api.user(2008, "Ann", language_code="en")
    await ann.send("/exam P2")
    assert (await ann.wait_message()).text == (
        "“P2” is taken by invitation only: open the invite link you were sent, or ask your team lead for one.")
    mei = env.api.user(2009, "Mei", language_code="zh-hans")
    await mei.send("/exam Demo paper hire")
    assert (await mei.wait_message()).text.startswith("“Demo paper hire”仅限受邀参加")
    await ann.send("/exam P9")  # no such paper: still said so
    assert (await ann.wait_message(lambda m: "P9" in (m.text or ""))).text.startswith("No paper called “P9”")
    assert await attempts_of(env.db) == []


async def test_rules_card_says_when_every_attempt_is_used(tmp_path):
    env = BotEnv(tmp_path)
    paper = small_paper()
    paper.settings.attempts_allowed = 1
    await env.seed(paper)
    await env.start()
    try:
        ann = env.api.user(2008, "Ann", language_code="en")
        await start_exam(env, ann)
        await ann.press(attempt_message(ann.chat()), "Finish")
        confirm = await env.api.wait_for(
            lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish")
        await ann.press(confirm, "Yes, finish")
        await ann.wait_message(lambda m: "Score:" in (m.text or ""))
        await ann.send("/exam demo")
        card = await ann.wait_message(lambda m: (m.text or "").startswith("📝"))
        assert "You have used your 1 attempt at this paper" in card.text
        assert card.button_texts == []
    finally:
        await env.close()


async def test_plain_text_outside_an_exam_gets_a_hint(env):
    ann = env.api.user(2009, "Ann", language_code="en")
    await ann.send("hello?")
    reply = await ann.wait_message()
    assert reply.text.startswith("You have no exam running. /exam")


async def test_instructions_stay_visible_after_a_long_typed_answer(env):
    ann = env.api.user(2010, "Ann", language_code="en")
    await start_exam(env, ann)
    sheet = await _sheet(env, ann.id)
    short = next(i for i in sheet.items if sheet.question(i).kind.value == "short")
    await attempts.move_to(env.db, sheet.attempt.id, short.pos, env.clock.now())
    await ann.send("/resume")
    await env.idle()
    await ann.send("梯度" * 1900)  # 3,800 characters: the answer so far is clipped, not the instructions
    await ann.wait_message(lambda m: "Your answer so far:" in (m.text or ""))
    await env.idle()
    await ann.send("/resume")
    await env.idle()
    screen = attempt_message(ann.chat())
    assert at_place(screen.text, short.pos + 1, 7) and "Your answer so far:\n梯度" in screen.text
    assert screen.text.rstrip().endswith(render.t("type_hint", "en").rstrip())
    assert len(screen.text.encode("utf-16-le")) // 2 <= 4096


# ---- result card: a mark per question, a pass mark ----------------------------------------------

def test_bank_set_pass_mark(tmp_path, capsys):
    from pathlib import Path

    from bot.cli import main

    db = str(tmp_path / "pass.db")
    seed = sorted((Path(__file__).resolve().parents[2] / "bank" / "seeds").glob("000_*.txt"))[0]
    assert main(["--db", db, "import", str(seed)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "bank", "set", seed.stem, "--pass", "60"]) == 0
    assert "pass mark 60%" in capsys.readouterr().out
    assert main(["--db", db, "bank", "set", seed.stem, "--pass", "160"]) == 1
    assert "pass mark is a percentage" in capsys.readouterr().err
    assert main(["--db", db, "bank", "set", seed.stem, "--pass", "off"]) == 0
    assert "pass mark off" in capsys.readouterr().out


async def _hand_in_with_q1_right(env, ann):
    msg = await start_exam(env, ann)
    sheet = await _sheet(env, ann.id)
    first = sheet.items[0]
    await ann.press(msg, first.shown_letter(sheet.question(first).answer))
    await env.idle()
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None), what="finish screen")
    await ann.press(confirm, "Yes, finish")
    return await ann.wait_message(lambda m: "— result" in (m.text or ""))


@pytest.mark.parametrize("review", ["full", "sections", "score", "none"])
async def test_result_card_grid_and_pass_mark_follow_the_review_option(tmp_path, review):
    from proctor.teams.curation import update_settings

    env = BotEnv(tmp_path)
    await env.seed(small_paper())
    await env.start()
    try:
        await update_settings(env.db, "demo", actor=0, now=T0, pass_percent=10, review=review)
        ann = env.api.user(2011, "Ann", language_code="en")
        card = await _hand_in_with_q1_right(env, ann)  # 2 of 15 points: 13.3%, above 10%
        grid = "1✓ 2– 3– 4– 5– 6– 7–"
        if review == "none":
            assert "Passed" not in card.text and "✓" not in card.text
        else:
            assert "✅ Passed (pass mark 10%)" in card.text
            assert (grid in card.text) == (review == "full")  # only a full review shows right and wrong
    finally:
        await env.close()


async def test_failed_against_the_pass_mark(tmp_path):
    from proctor.teams.curation import update_settings

    env = BotEnv(tmp_path)
    await env.seed(small_paper())
    await env.start()
    try:
        await update_settings(env.db, "demo", actor=0, now=T0, pass_percent=60)
        card = await _hand_in_with_q1_right(env, env.api.user(2012, "Ann", language_code="en"))
        assert "❌ Not passed (pass mark 60%)" in card.text
        assert "1✓ 2–" in card.text
    finally:
        await env.close()


def test_outcome_waits_for_reviews_that_could_change_it():
    from proctor.exams.model import Result
    from proctor.exams.result import outcome

    assert outcome(Result(10, 20), None) is None
    assert outcome(Result(12, 20), 60) == "passed"
    assert outcome(Result(11, 20), 60) == "failed"
    assert outcome(Result(12, 20, pending_review=1, provisional=3), 60) == "pending"
    assert outcome(Result(15, 20, pending_review=1, provisional=3), 60) == "passed"
