"""Letters as the person saw them: a shuffled group quiz question, disputed by replying to it, is
upheld and fixed in the letters the group saw. The key-fix prompt (in the chat and on the desk) says
the key in those letters with the options' texts, and /keyfix (or the desk's form) given the group's
letter makes the option the group saw under it the key, not the one the bank stores under that letter."""

from __future__ import annotations

import pytest

from bank.kinds import Kind
from bank.models import Question
from bank.option_order import LETTERS, SeenOption
from bank.paper_store import get_question, get_questions
from bot.leads.render import key_words, review_card
from proctor.daily import delivery
from proctor.exams.service import load_sheet
from proctor.teams.key_fix import key_as_seen
from proctor.teams.review import Pending
from tests.bot.test_daily_support import fast, questions, subscribe_group
from tests.desk_helpers import DeskClient, DeskEnv
from tests.harness import BotEnv, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import the_attempt, the_delivery

ADMIN, ANN = 1, 11  # the admin leads the group (subscribe_group's lead)


async def _start(env: BotEnv):
    await env.seed(small_paper("demo"))
    await env.start()
    fast(env)
    lead, group = await subscribe_group(env)
    await lead.send("/daily now", chat=group)
    await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="five questions")
    await env.idle()
    ann = env.api.user(ANN, "Ann")
    group.add_members(ANN)
    return lead, group, ann


async def _shuffled(env, group):
    """Today's sent choice question whose key the group saw under another letter than the bank's: its
    message, its shown order, and the stored question."""
    sent = [i for i in await delivery.items(env.db, (await the_delivery(env.db)).id) if i.message_id is not None]
    stored = await get_questions(env.db, [i.question_id for i in sent])
    for item in sent:
        q = stored[item.question_id]
        if q.kind == Kind.single and item.option_order.index(q.answer) != LETTERS.index(q.answer):
            return next(m for m in group.chat() if m.message_id == item.message_id), item.option_order, q
    raise AssertionError("no single-choice question today shows its key under another letter")


def _seen(order: str, q, stored_letter: str) -> tuple[str, str]:
    """(the letter the group saw the stored option under, its text)."""
    return LETTERS[order.index(stored_letter)], q.options[LETTERS.index(stored_letter)]


async def test_a_shuffled_group_question_is_fixed_in_the_letters_the_group_saw(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=True)
    try:
        lead, group, ann = await _start(env)
        msg, order, q = await _shuffled(env, group)
        key_letter, key_text = _seen(order, q, q.answer)
        # the option the group saw under the bank's own key letter: another option
        wrong_stored = order[LETTERS.index(q.answer)]
        assert wrong_stored != q.answer
        await ann.send(f"/dispute the key should be {q.answer}", chat=group, reply_to=msg)
        await ann.wait_message(lambda m: "dispute #1" in (m.text or ""), chat=group)
        await lead.send("/bankstats")  # in private: a configured admin's, of every team
        stats = await lead.wait_message(lambda m: "Open disputes" in (m.text or ""))
        await (await lead.press(stats, "Uphold #1")).wait()
        prompt = await lead.wait_message(lambda m: "/keyfix 1" in (m.text or ""))
        assert f"(now: {key_letter} · {key_text}, in the letters the disputer saw)" in prompt.text
        # Ann meant the option the group saw under the letter she named: the lead types that letter
        await lead.send(f"/keyfix 1 {q.answer}")
        await lead.wait_message(lambda m: "key version 2" in (m.text or ""))
        fixed = await get_question(env.db, q.id)
        assert fixed.answer == wrong_stored  # the option the group saw under that letter, not the bank's
        assert fixed.options[LETTERS.index(fixed.answer)] == q.options[LETTERS.index(wrong_stored)]
    finally:
        await env.close()


async def test_the_desk_shows_and_fixes_the_key_in_the_letters_the_group_saw(tmp_path):
    env = DeskEnv(tmp_path, admins=(ADMIN,), shuffle=True)
    client = None
    try:
        lead, group, ann = await _start(env)
        msg, order, q = await _shuffled(env, group)
        key_letter, key_text = _seen(order, q, q.answer)
        wrong_stored = order[LETTERS.index(q.answer)]
        await ann.send(f"/dispute the key should be {q.answer}", chat=group, reply_to=msg)
        await ann.wait_message(lambda m: "dispute #1" in (m.text or ""), chat=group)
        client = DeskClient(env)
        await client.login(ADMIN, "Lea")
        assert (await client.post("/desk/items", {"action": "uphold", "target": "1"}))[0] == 303
        _, html, _ = await client.get("/desk/items")
        assert f"Key now: {key_letter} · {key_text}, in the letters the disputer saw" in html
        assert "New key, in the same letters" in html
        status, location = await client.post("/desk/items", {"action": "key_fix", "target": "1", "key": q.answer,
                                                             "kind": "key"})
        assert status == 303 and "done=d_it_key_fixed" in location
        assert (await get_question(env.db, q.id)).answer == wrong_stored
    finally:
        if client is not None:
            await client.close()
        await env.close()


async def test_the_desk_shows_a_candidate_s_choice_in_the_letters_they_saw(tmp_path):
    env = DeskEnv(tmp_path, admins=(ADMIN,), shuffle=True)
    client = None
    try:
        await env.seed(small_paper("demo"))
        await env.start()
        ann = env.api.user(ANN, "Ann")
        screen = await start_exam(env, ann)
        sheet = await load_sheet(env.db, (await the_attempt(env.db, ANN)).id)
        q, order = sheet.questions[sheet.current.question_id], sheet.current.option_order
        assert q.kind == Kind.single
        # a letter under which Ann sees another option than the bank stores under it
        pressed = next(c for i, c in enumerate(LETTERS[:len(order)]) if order[i] != c)
        text = q.options[LETTERS.index(order[LETTERS.index(pressed)])]
        await ann.press(screen, pressed)
        await env.idle()
        await ann.press(attempt_message(ann.chat()), "Finish")
        confirm = await env.api.wait_for(
            lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts and not m.deleted), None),
            what="the finish question")
        await ann.press(confirm, "Yes, finish")
        await ann.wait_message(lambda m: "Score:" in (m.text or ""))
        client = DeskClient(env)
        await client.login(ADMIN, "Lea")
        status, html, _ = await client.get("/desk/candidate", team="all", user=str(ANN))
        assert status == 200
        assert f'<td class="response">{pressed} · {text}</td>' in html
        status, csv, _ = await client.get("/desk/candidate.csv", team="all", user=str(ANN))
        assert f"{pressed} · {text}" in csv
    finally:
        if client is not None:
            await client.close()
        await env.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_key_kept_without_its_order_is_said_to_be_in_the_bank_s_letters(lang):
    q = Question(number=1, kind=Kind.multi, stem="?", options=["数据并行", "模型并行", "流水线", "张量"], answer="AC")
    old = key_words(key_as_seen(q, None), lang)  # a dispute raised before its order was kept
    seen = key_words(key_as_seen(q, "CBAD"), lang)  # shown C, B, A, D
    if lang == "en":
        assert old == "A · 数据并行, C · 流水线, in the bank's letters"
        assert seen == "A · 流水线, C · 数据并行, in the letters the disputer saw"
    else:
        assert old == "A · 数据并行、C · 流水线，按题库中的选项字母"
        assert seen == "A · 流水线、C · 数据并行，按申诉人看到的选项字母"


def test_a_review_card_says_a_choice_answer_in_the_letters_the_candidate_saw():
    seen = (SeenOption("B", "流水线"), SeenOption("D", "数据并行"))
    pending = Pending(attempt_id=1, pos=0, user_id=7, name="Ann", title="Demo", question_id=3, stem="哪些？",
                      response="AC", reference="?", score=0, max_score=2, remaining=1, code="P1", seen=seen)
    text, _ = review_card(pending, "en", None, 0)
    assert "B · 流水线, D · 数据并行" in text and "AC" not in text
