"""While a candidate's exam runs, no key or explanation of its questions reaches them, by any path:
the private daily quiz, the group quiz's feedback and close, reviews of earlier attempts, and the
lead's /review and /bankstats. After the hand-in everything is visible again."""


import pytest

from bank.kinds import Kind
from bank.paper_store import get_question, load_paper
from proctor.daily import delivery
from proctor.exams import service as attempts
from proctor.exams.seal import sealed_anywhere, sealed_for
from proctor.teams import disputes as dsp
from tests.bot.test_daily_support import fast, questions, run_job, subscribe_group
from tests.harness import BotEnv, attempt_message, pick_paper
from tests.papers_fixture import save_paper, small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import items_to, paper_of_question, question_ids, the_delivery

ANN, BOB, LEAD = 7, 8, 1
DEMO = "Demo paper demo"


async def _env(tmp_path, db_location, *slugs: str) -> BotEnv:
    env = BotEnv(tmp_path, location=db_location, admins=(LEAD,))
    await env.seed(*(small_paper(s) for s in slugs))
    await env.start()
    fast(env)
    return env


@pytest.fixture
async def env(tmp_path, db_location):
    e = await _env(tmp_path, db_location, "demo", "other")
    yield e
    await e.close()


async def _paper_of_items(env, chat_id: int, *, sent_only: bool = False) -> list[str]:
    papers = await paper_of_question(env.db)
    items = sorted(await items_to(env.db, chat_id), key=lambda i: i.pos)
    return [papers[i.question_id].slug for i in items if not sent_only or i.message_id is not None]


async def _start(env, user, title: str = DEMO):
    """/exam → the paper → Start; unlike the harness's, it waits for this paper's own rules card."""
    await user.send("/exam")
    await pick_paper(user, title)
    rules = await user.wait_message(lambda m: "▶️ Start" in m.button_texts and title in (m.text or ""))
    await user.press(rules, "▶️ Start")
    await env.api.wait_for(lambda: (m := attempt_message(user.chat())) and m.message_id > rules.message_id,
                           what="attempt message")
    await env.idle()


async def _hand_in(env, user) -> None:
    await user.press(attempt_message(user.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if not m.deleted and "Yes, finish" in m.button_texts), None))
    await user.press(confirm, "Yes, finish")
    await user.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()


SECRETS = ("梯度累积可模拟大批次", "图形处理器", "低秩近似")  # an explanation and typed keys of the papers


# --- the domain rule -----------------------------------------------------------------------------

async def test_what_a_running_exam_seals(db):
    ids = [await save_paper(db, small_paper(s), 0) for s in ("demo", "other", "third")]
    await Crafted(db).user(ANN)
    paper_q = {pid: {q.id for q in (await load_paper(db, pid, include_retired=True)).questions()} for pid in ids}
    assert not await sealed_for(db, ANN)
    # a paper exam seals every question of its paper (the unaskable one too), and nothing else
    exam = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=ids[0], mode="exam", now=0,
                                        shuffle=False)
    seal = await sealed_for(db, ANN)
    assert seal.questions == paper_q[ids[0]] and seal.papers == {ids[0]}
    assert not await sealed_for(db, BOB)
    assert (await sealed_anywhere(db)).questions == paper_q[ids[0]]
    await attempts.finish_attempt(db, exam.id, 1, "submitted")
    assert not await sealed_for(db, ANN)
    # practice reveals its own keys anyway: it seals nothing
    practice = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=ids[1], mode="practice",
                                            now=2, shuffle=False)
    assert not await sealed_for(db, ANN)
    await attempts.finish_attempt(db, practice.id, 3, "submitted")
    # a random mock paper seals exactly the questions on its sheet, not all of their papers
    mock = await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=None, mode="exam", now=4,
                                        shuffle=False, blueprint={Kind.single: 2, Kind.truefalse: 1}, seed=1)
    on_sheet = {i.question_id for i in (await attempts.load_sheet(db, mock.id)).items}
    seal = await sealed_for(db, ANN)
    assert seal.questions == on_sheet and len(on_sheet) == 3
    papers = await paper_of_question(db)
    assert seal.papers == {papers[q].id for q in on_sheet}


# --- the private daily quiz ----------------------------------------------------------------------

async def test_daily_now_during_an_exam_draws_no_question_of_that_paper(env):
    ann = env.api.user(ANN, "Ann")
    await _start(env, ann)
    await ann.send("/daily now")
    await ann.wait_message(lambda m: (m.text or "").startswith("📅 Daily quiz · 1/5"))
    assert set(await _paper_of_items(env, ANN)) == {"other"}  # the running paper is not drawn


async def test_the_private_quiz_waits_for_the_hand_in_when_nothing_else_is_askable(tmp_path, db_location):
    env = await _env(tmp_path, db_location, "demo")
    try:
        ann = env.api.user(ANN, "Ann")
        await _start(env, ann)
        await ann.send("/daily now")
        wait = await ann.wait_message(lambda m: "waits until your exam is handed in" in (m.text or ""))
        assert questions(ann.chat()) == []  # nothing of the running paper is sent
        await ann.send("/daily now")  # asking again says the same, still sends nothing
        await ann.wait_message(lambda m: m.message_id > wait.message_id and "waits" in (m.text or ""))
        assert questions(ann.chat()) == []
        await _hand_in(env, ann)
        await ann.wait_message(lambda m: (m.text or "").startswith("📅 Daily quiz · 1/5"))
        assert len(questions(ann.chat())) == 1
    finally:
        await env.close()


async def test_a_question_sent_before_the_exam_is_answered_without_its_key(env):
    ann = env.api.user(ANN, "Ann")
    await ann.send("/daily now")
    first = await ann.wait_message(lambda m: (m.text or "").startswith("📅 Daily quiz · 1/5"))
    await env.idle()
    slug = (await _paper_of_items(env, ANN, sent_only=True))[0]
    await _start(env, ann, f"Demo paper {slug}")
    if first.buttons:
        toast = await ann.press(first, first.button_texts[0])
        if first.button_texts[-1] == "✅ Submit":
            await toast.wait()
            toast = await ann.press(first, "✅ Submit")
        assert (await toast.wait()).startswith("✍️ Recorded.")
    else:
        await ann.send("不知道", reply_to=first)
    await env.api.wait_for(lambda: "Recorded. The key and the explanation wait" in first.text, what="sealed fb")
    assert "Answer:" not in first.text and "Your answer" not in first.text and "💡" not in first.text
    assert "Correct" not in first.text and "Not quite" not in first.text
    await env.idle()
    # whatever follows while the exam runs is of the other paper
    assert set((await _paper_of_items(env, ANN, sent_only=True))[1:]) <= ({"demo", "other"} - {slug})
    await _hand_in(env, ann)
    await env.api.wait_for(lambda: len(questions(ann.chat())) == 2, what="the next question, at the latest now")


# --- the group quiz ------------------------------------------------------------------------------

async def test_group_feedback_and_close_withhold_the_key_of_a_running_exam(tmp_path, db_location):
    env = await _env(tmp_path, db_location, "demo")
    try:
        lead, group = await subscribe_group(env)
        ann = env.api.user(ANN, "Ann")
        group.add_members(ANN)
        await _start(env, ann)
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda: len(questions(group.chat())) == 5, what="five questions")
        await env.idle()
        quiz = await the_delivery(env.db)
        items = await delivery.items(env.db, quiz.id)
        kinds = {q.id: q.kind for q in (await load_paper(env.db, "demo")).questions()}
        first = next(i for i in items if kinds[i.question_id] == "single")
        msg = next(m for m in group.chat() if m.message_id == first.message_id)
        toast = await ann.press(msg, "A")
        assert (await toast.wait()).startswith("✍️ Recorded.")
        assert "Answer:" not in toast.text and "Correct" not in toast.text and "Not quite" not in toast.text
        fill = next((i for i in items if kinds[i.question_id] == "fill"), None)
        if fill is not None:
            fmsg = next(m for m in group.chat() if m.message_id == fill.message_id)
            await ann.send("不知道", chat=group, reply_to=fmsg)
            dm = await ann.wait_message(lambda m: "Daily quiz in" in (m.text or ""))
            assert "Recorded. The key" in dm.text and "图形处理器" not in dm.text and "Answer:" not in dm.text
        env.clock.set(quiz.closes_at)
        await run_job(env, f"daily-close:{quiz.id}")
        close = group.last_message()
        assert close.text.startswith("🔑 Daily quiz")
        assert close.text.count("key withheld") == 5
        for secret in SECRETS:
            assert secret not in close.text
    finally:
        await env.close()


# --- reviews of earlier attempts -----------------------------------------------------------------

async def test_reviews_of_an_earlier_attempt_are_refused_while_a_new_one_runs(env):
    ann = env.api.user(ANN, "Ann", language_code="en")
    await _start(env, ann)
    await _hand_in(env, ann)
    card = next(m for m in reversed(ann.chat()) if "Score:" in (m.text or ""))
    await _start(env, ann)
    toast = await ann.press(card, "Review wrong answers")
    assert "once your running exam is handed in" in await toast.wait()
    await env.idle()
    assert not any((m.text or "").startswith("Review 1/") for m in ann.chat())
    # handed in: the review opens again
    await _hand_in(env, ann)
    await ann.press(card, "Review wrong answers")
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
    assert "Answer:" in page.text


async def test_an_exam_on_another_paper_does_not_close_this_papers_review(env):
    ann = env.api.user(ANN, "Ann", language_code="en")
    await _start(env, ann)
    await _hand_in(env, ann)
    card = next(m for m in reversed(ann.chat()) if "Score:" in (m.text or ""))
    await _start(env, ann, "Demo paper other")
    toast = await ann.press(card, "Review wrong answers")
    assert not (await toast.wait() or "").startswith("🔒")
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
    assert "Answer:" in page.text


# --- the lead's views ----------------------------------------------------------------------------

async def test_a_lead_with_a_running_exam_sees_no_key_of_that_paper(env):
    c = Crafted(env.db)
    paper = await load_paper(env.db, "demo")
    demo = paper.id
    short = next(q.id for q in paper.questions() if q.kind == "short" and q.number == 1)
    single = (await question_ids(env.db, "demo", "single"))[0]
    reference = (await get_question(env.db, short)).answer
    await c.user(BOB, "Bob")
    await c.exam(BOB, demo, [(short, 2, 5, 0), (single, 0, 2, 1)], 0, 60)  # a written answer awaiting review
    await dsp.raise_dispute(env.db, question_id=single, user_id=BOB, chat_id=BOB, reason="the key should be B",
                            now=1)
    lead = env.api.user(LEAD, "Lea", language_code="en")
    await _start(env, lead)

    await lead.send("/review")
    none = await lead.wait_message()
    assert reference[:10] not in none.text and "Bob" not in none.text
    await lead.send("/bankstats")
    stats = await lead.wait_message(lambda m: m.message_id > none.message_id)
    assert "the key should be B" not in stats.text and f"#{single}" not in stats.text
    await lead.send("/bankstats demo")
    paper = await lead.wait_message(lambda m: m.message_id > stats.message_id)
    assert paper.text == "🔒 This paper's statistics are hidden while your own exam on it runs."

    await _hand_in(env, lead)
    await lead.send("/review")
    card = await lead.wait_message(lambda m: reference[:10] in (m.text or ""))
    assert "Bob" in card.text
    await lead.send("/bankstats")
    await lead.wait_message(lambda m: "the key should be B" in (m.text or ""))
    await lead.send("/bankstats demo")
    await lead.wait_message(lambda m: "demo" in (m.text or "") and "hidden" not in m.text)


async def test_a_mock_exam_seals_its_questions_not_the_whole_bank(env):
    ann = env.api.user(ANN, "Ann")
    await Crafted(env.db).user(ANN)
    mock = await attempts.start_attempt(env.db, user_id=ANN, chat_id=ANN, paper_id=None, mode="exam",
                                        now=env.clock.now(), shuffle=False,
                                        blueprint={Kind.single: 2, Kind.truefalse: 2}, seed=5)
    sheet = {i.question_id for i in (await attempts.load_sheet(env.db, mock.id)).items}
    await ann.send("/daily now")
    await ann.wait_message(lambda m: (m.text or "").startswith("📅 Daily quiz · 1/"))
    drawn = {i.question_id for i in await items_to(env.db, ANN)}
    assert drawn and not drawn & sheet  # both papers still feed the quiz, minus the mock's questions
