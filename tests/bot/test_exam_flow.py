"""A candidate takes a paper through the fake Bot API: the real Application, real HTTP, real SQLite."""

import pytest

from bank.kinds import SUBJECTIVE
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, AttemptStatus
from tests.harness import BotEnv, attempt_message, paper_button, rules_card, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, attempts_of, the_attempt


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def _open_exam(env, user):
    msg = await start_exam(env, user)
    assert "Rules" in rules_card(user.chat()).text and "60 min" in rules_card(user.chat()).text
    return msg


async def _sheet(env, user_id):
    running = await attempts.running_attempt(env.db, user_id)
    return await attempts.load_sheet(env.db, running.id, positions="all")


async def _answer_current(env, user, sheet, *, right: bool):
    """Answer the current question with its key (or a wrong answer), as a person would."""
    item = sheet.current
    q = sheet.question(item)
    msg = attempt_message(user.chat())
    before = msg.edits, msg.message_id
    if q.kind.value == "single":
        letter = q.answer if right else next(c for c in "ABCD" if c != q.answer)
        await user.press(msg, item.shown_letter(letter))
    elif q.kind.value == "truefalse":
        await user.press(msg, "✔ True" if q.answer == right else "✘ False")
    elif q.kind.value == "multi":
        letters = q.answer if right else "CD"
        for c in letters:
            await user.press(msg, item.shown_letter(c))
            await env.idle()
        await env.api.wait_for(lambda: msg.edits >= before[0] + len(letters), what="the toggles are shown")
        before = msg.edits, msg.message_id  # the Submit is what must change the message next
        await user.press(msg, "Submit")
    else:
        text = ("、".join(b[0] for b in q.answer) if isinstance(q.answer, list) else q.answer) if right else "不知道"
        await user.send(text)
    def changed():
        m = attempt_message(user.chat())
        return _confirm(user) or (m is not None and (m.edits, m.message_id) != before)

    await env.api.wait_for(changed, what="the attempt message changes")
    await env.idle()
    if q.kind in SUBJECTIVE and sheet.attempt.mode == AttemptMode.exam:  # a written answer stays on screen
        await _move_on(env, user, sheet)


async def _move_on(env, user, sheet) -> None:
    """From a written answer's screen (it waits for more of the answer): Next, or Finish on the last one."""
    msg = attempt_message(user.chat())
    before = msg.edits, msg.message_id
    await user.press(msg, "Finish" if sheet.attempt.current_pos == len(sheet.items) - 1 else "Next ▶")

    def changed():
        m = attempt_message(user.chat())
        return _confirm(user) or (m is not None and (m.edits, m.message_id) != before)

    await env.api.wait_for(changed, what="the next screen")
    await env.idle()


def _confirm(user):
    return next((m for m in user.chat() if not m.deleted and "Yes, finish" in m.button_texts), None)


async def test_full_paper_with_right_keys_scores_full_objective_marks(env):
    ann = env.api.user(1001, "Ann", language_code="en")
    msg = await _open_exam(env, ann)
    assert msg.protect_content
    assert msg.text.startswith("P1 · Q1 · 1 of 7 · Single choice · 2 pts · 60:00 left")
    for _ in range(7):
        await _answer_current(env, ann, await _sheet(env, ann.id), right=True)
    confirm = _confirm(ann)  # answering the last question offers to finish
    assert "Unanswered: none" in confirm.text
    await ann.press(confirm, "Yes, finish")
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "• Single choice: 4/4" in card.text
    assert "• Multiple choice: 2/2" in card.text
    assert "• True / false: 2/2" in card.text
    assert "• Fill in the blank: 2/2" in card.text
    assert "awaiting review" in card.text  # the written answer is provisional
    done = await the_attempt(env.db)
    assert done.status == AttemptStatus.finished and done.max_score == 15


async def test_wrong_answers_score_accordingly_and_review_shows_keys(env):
    ann = env.api.user(1002, "Ann", language_code="en")
    await _open_exam(env, ann)
    for _ in range(4):  # the two singles, the multi and the true/false, all wrong
        await _answer_current(env, ann, await _sheet(env, ann.id), right=False)
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts), None))
    assert "Unanswered: 5–7" in confirm.text
    await ann.press(confirm, "Yes, finish")
    card = await ann.wait_message(lambda m: "Score:" in (m.text or ""))
    assert "Score: 0/15 (0.0%)" in card.text
    await ann.press(card, "Review wrong answers")
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
    assert "Your answer:" in page.text and "Answer:" in page.text
    assert page.protect_content


async def test_typed_fullwidth_and_traditional_answers_are_graded(env):
    ann = env.api.user(1003, "Ann", language_code="en")
    await _open_exam(env, ann)
    sheet = await _sheet(env, ann.id)
    fill_pos = next(i.pos for i in sheet.items if sheet.question(i).kind.value == "fill")
    await attempts.move_to(env.db, sheet.attempt.id, fill_pos, env.clock.now())
    await ann.send("/resume")
    await env.idle()
    await ann.send("圖形處理器")  # Traditional for 图形处理器
    await ann.wait_message(lambda m: "Recorded for P" in (m.text or ""))
    await env.idle()
    await ann.send("低秩近似，量化低秩近似")  # full-width comma as the blank separator
    await ann.wait_message(lambda m: "Recorded for P" in (m.text or "") and "量化" in m.text)
    await env.idle()
    assert [a.verdict for _, a in sorted((await answers_of(env.db)).items())] == ["correct", "correct"]


async def test_group_exam_redirects_to_private_chat(env):
    ann = env.api.user(1004, "Ann", language_code="en")
    group = env.api.group(-100777, "ML team")
    await ann.send("/exam", chat=group)
    reply = await env.api.wait_for(lambda: group.last_message())
    assert "private chat" in reply.text
    assert reply.buttons[0][0].url == "https://t.me/proctor_bot"
    assert await attempts_of(env.db) == []


async def test_exam_only_paper_is_offered_for_exams_but_never_for_practice(tmp_path):
    env = BotEnv(tmp_path)
    await env.seed(small_paper(), small_paper("hiring", exam_only=True))
    await env.start()
    try:
        ann = env.api.user(1005, "Ann", language_code="en")
        await ann.send("/practice hiring")
        assert "for exams only" in (await ann.wait_message()).text
        await ann.send("/exam")
        chooser = await ann.wait_message(lambda m: paper_button(m, "Demo paper demo") is not None)
        assert paper_button(chooser, "Demo paper hiring") is not None
    finally:
        await env.close()


async def test_unknown_command_and_a_second_exam_get_clear_answers(env):
    ann = env.api.user(1006, "Ann", language_code="en")
    await ann.send("/frobnicate now")
    assert (await ann.wait_message()).text == "I don't know /frobnicate. /help lists what I can do."
    await start_exam(env, ann)
    await ann.send("/practice")  # one attempt at a time: said at once, not after choosing a paper
    assert "You have a paper in progress" in (await ann.wait_message()).text
    group = env.api.group(-100778, "ML team")
    await ann.send("/frobnicate", chat=group)  # in a group it may be another bot's command
    await env.idle()
    assert group.last_message() is None
