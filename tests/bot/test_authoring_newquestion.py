"""/newquestion as a lead uses it: kind, stem, options, key, explanation, points, paper, preview, Save;
Back and Cancel; bad input stays on its step; a restart mid-draft; the saved question is asked."""

import re

import pytest

from bank.authoring.draft import load_draft
from bank.paper_store import get_question, list_papers
from bank.question_ref import QuestionRef, question_id
from proctor.teams import audit
from tests.harness import BotEnv, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, question_count

LEAD, ANN = 10, 30


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


class Lead:
    """The lead's side of the chat: each action waits for the bot's next message."""

    def __init__(self, env, user):
        self.env, self.user = env, user

    def _mark(self) -> int:
        return max((m.message_id for m in self.user.chat()), default=0)

    async def _next(self, mark: int, contains: str):
        return await self.user.wait_message(lambda m: m.message_id > mark and contains in (m.text or ""), timeout=15)

    async def send(self, text: str, expect: str):
        mark = self._mark()
        await self.user.send(text)
        return await self._next(mark, expect)

    async def press(self, message, button: str, expect: str):
        mark = self._mark()
        await self.user.press(message, button)
        return await self.env.api.wait_for(
            lambda: next((m for m in reversed(self.user.chat())
                          if m.from_bot and m.message_id > mark and expect in (m.text or "")), None),
            timeout=15, what=expect)


async def test_a_single_choice_question_end_to_end_with_back_bad_input_and_a_restart(env):
    lead = Lead(env, env.api.user(LEAD, "Lea", language_code="en"))
    kind = await lead.send("/newquestion", "What kind?")
    assert "✖ Cancel" in kind.button_texts and "◀ Back" not in kind.button_texts
    stem = await lead.press(kind, "Single choice", "Send the question's text.")
    opts = await lead.send("Which optimiser keeps a velocity?", "Send option A")
    await lead.send("SGD with momentum", "Send option B")
    back = await lead.press(opts, "◀ Back", "Send the question's text.")  # back to the stem
    assert back.message_id > stem.message_id
    again = await lead.send("Which optimiser keeps a velocity term?", "Send option B")  # options kept
    assert again.text.startswith("A. SGD with momentum\n")
    await lead.send("Plain gradient descent", "Send option C")
    last = await lead.send("Adagrad", "Send option D")
    key = await lead.press(last, "Done ✔", "Which option is right?")
    assert "A. SGD with momentum\nB. Plain gradient descent\nC. Adagrad" in key.text
    await lead.press(key, "A", "Send the explanation")
    points = await lead.send("Momentum accumulates a velocity.", "How many points?")
    bad = await lead.send("lots", "Send a number of points above 0")  # stays on the step
    assert bad.message_id > points.message_id
    paper = await lead.send("2", "Which paper does it go in?")
    section = await lead.press(paper, "Demo paper demo", "Which section of Demo paper demo?")
    # issue 22 (rough edges): only the sections of its kind; the multiple-choice one was offered too
    assert section.button_texts[:2] == ["Single choice (2)", "➕ New section"], section.button_texts
    assert "Its sections of Single choice, or a new one" in section.text
    preview = await lead.press(section, "Single choice (2)", "Preview, as a candidate will see it:")
    assert ("New question · Single choice · 2 pts\n\nWhich optimiser keeps a velocity term?\nA. SGD with momentum\n"
            "B. Plain gradient descent\nC. Adagrad") in preview.text
    assert "Key: A" in preview.text and "Why: Momentum accumulates a velocity." in preview.text
    assert "paper: Demo paper demo · section: Single choice" in preview.text
    before = await question_count(env.db)

    await env.restart()  # mid-draft: the draft is in SQLite, the preview's buttons still work
    old = env.api.state.message_to_api(preview)
    save = next(b.callback_data for row in preview.buttons for b in row if b.text == "💾 Save")
    saved = await lead.press(preview, "💾 Save", "Saved as P")
    found = re.search(r"Saved as (P\d+) · Q(\d+) in Demo paper demo · Single choice\.", saved.text)
    assert found, saved.text  # its reference, given as it was written: the paper's next n
    assert await question_count(env.db) == before + 1
    assert await load_draft(env.db, LEAD) is None
    qid = await question_id(env.db, QuestionRef(found.group(1), int(found.group(2))))
    q = await get_question(env.db, qid)
    assert (q.kind.value, q.answer, q.points, q.options[0], q.askable) == ("single", "A", 2.0, "SGD with momentum", True)
    entries = await audit.recent(env.db, action="add_question")
    assert [(e.actor_id, e.action, e.target) for e in entries] == [(LEAD, "add_question", f"question {qid}")]
    env.api.inject_update({"callback_query": {  # a second press on the keyboard the chat showed
        "id": "again", "from": {"id": LEAD, "is_bot": False, "first_name": "Lea", "language_code": "en"},
        "message": old, "chat_instance": "1", "data": save}})
    toast = await env.api.wait_for(lambda: [c for c in env.api.calls if c.method == "answerCallbackQuery"
                                            and c.params.get("callback_query_id") == "again"], what="toast")
    assert "draft is gone" in toast[0].params["text"]
    assert await question_count(env.db) == before + 1

    # a candidate meets it in an exam: the paper's third single-choice question
    ann = env.api.user(ANN, "Ann", language_code="en")
    msg = await start_exam(env, ann)
    for _ in range(2):
        await ann.press(msg, "Skip ▶")
        await env.idle()
        msg = attempt_message(ann.chat())
    assert "Which optimiser keeps a velocity term?\nA. SGD with momentum" in msg.text
    await ann.press(msg, "A")
    await env.idle()
    assert [a.score for a in (await answers_of(env.db, ANN)).values() if a.question_id == qid] == [2.0]


async def test_a_fill_in_question_into_a_new_paper_then_practised(env):
    lead = Lead(env, env.api.user(LEAD, "Lea", language_code="en"))
    kind = await lead.send("/newquestion", "What kind?")
    await lead.press(kind, "Fill in the blank", "Send the question's text.")
    await lead.send("The capital of France is ____.", "Send the answer of each blank")
    await lead.send("   ", "That was empty")  # bad input: stays on the key step
    expl = await lead.send("Paris;巴黎", "Send the explanation")
    points = await lead.press(expl, "Skip ▶", "How many points?")
    paper = await lead.press(points, "1", "Which paper")
    title = await lead.press(paper, "➕ New paper", "Send the new paper's title.")
    assert title
    preview = await lead.send("Geography", "Preview, as a candidate will see it:")
    assert "The capital of France is ____." in preview.text and "Type your answer" in preview.text
    assert "paper: Geography (new) · section: Fill in the blank (the last of its kind, or a new one)" in preview.text
    await lead.press(preview, "💾 Save", "Saved as P")
    papers = {p.title: p for p in await list_papers(env.db)}
    q = papers["Geography"].questions()[0]
    assert q.answer == [["Paris", "巴黎"]] and q.explanation == ""

    ann = env.api.user(ANN, "Ann", language_code="en")
    await ann.send("/practice Geography")
    msg = await env.api.wait_for(lambda: attempt_message(ann.chat()), what="attempt")  # practice: no rules card
    assert "The capital of France is ____." in msg.text
    await ann.send("巴黎")
    await env.api.wait_for(lambda: "Correct" in (attempt_message(ann.chat()).text or ""), what="verdict", timeout=15)


async def test_cancel_discards_the_draft_and_non_admins_are_refused(env):
    lead = Lead(env, env.api.user(LEAD, "Lea", language_code="en"))
    kind = await lead.send("/newquestion", "What kind?")
    stem = await lead.press(kind, "True / false", "Send the question's text.")
    key = await lead.send("Adam uses momentum.", "true or false")
    await lead.press(key, "✔ True", "Send the explanation")
    draft = await load_draft(env.db, LEAD)
    assert draft is not None and draft.step == "explanation"
    await lead.press(stem, "✖ Cancel", "Draft discarded; nothing was saved.")
    assert await load_draft(env.db, LEAD) is None
    before = await question_count(env.db)
    await lead.send("Just chatting", "")  # no draft: the text is not taken as a step
    assert await question_count(env.db) == before

    ann = env.api.user(ANN, "Ann", language_code="en")
    await ann.send("/newquestion")
    refused = (await ann.wait_message()).text
    assert "Only the bot's admins" in refused and "PROCTOR" not in refused  # no setting's name (issue 22)
    assert await load_draft(env.db, ANN) is None and await load_draft(env.db, LEAD) is None


async def test_a_running_exam_keeps_its_typed_answers_while_a_draft_waits(env):
    lead = Lead(env, env.api.user(LEAD, "Lea", language_code="en"))
    kind = await lead.send("/newquestion", "What kind?")
    await lead.press(kind, "Short answer", "Send the question's text.")
    msg = await start_exam(env, lead.user)
    assert "梯度累积的主要作用是" in msg.text
    await lead.user.send("C")  # a typed answer to the exam's question, not the draft's stem
    await env.idle()
    assert len(await answers_of(env.db, LEAD)) == 1
    draft = await load_draft(env.db, LEAD)
    assert draft is not None and draft.step == "stem"


async def test_a_paper_without_a_section_of_its_kind_says_where_the_question_goes(env):
    """Issue 22 (rough edges): /newquestion offered every section, of any kind; with none of the question's
    kind it now says it goes into a new section (as the README says), and a forged press is refused."""
    lead = Lead(env, env.api.user(LEAD, "Lea", language_code="en"))
    kind = await lead.send("/newquestion", "What kind?")
    await lead.press(kind, "Numerical", "Send the question's text.")
    await lead.send("How many bits in a byte?", "Send the right number")
    await lead.send("8", "Send the explanation")
    explanation = env.api.last_message(LEAD)
    points = await lead.press(explanation, "Skip ▶", "How many points?")
    paper = await lead.press(points, "1", "Which paper does it go in?")
    section = await lead.press(paper, "Demo paper demo", "has no Numerical section")
    assert section.text == ("Demo paper demo has no Numerical section: the question goes into a new section, "
                            "“Numerical”, at the end.")
    assert section.button_texts[0] == "➕ New section"
    draft = await load_draft(env.db, LEAD)
    forged = section.buttons[0][0].callback_data.rsplit(":", 1)[0] + ":1"  # section 1 holds single choice
    record = env.api.state.new_callback(LEAD, section, forged)
    env.api.inject_update({"callback_query": {"id": record.id, "from": lead.user.info.to_api(),
                                              "message": env.api.state.message_to_api(section),
                                              "chat_instance": "1", "data": forged}})
    await env.api.wait_for(lambda: record.answered)
    assert (await load_draft(env.db, LEAD)).step == draft.step  # still choosing a section


async def test_the_bank_refuses_a_section_of_another_kind(env):
    from bank.authoring.add import BadTarget
    from bank.grading.terms import SegmentIn
    from bank.kinds import Kind
    from bank.models import Question
    from proctor.teams.curation import add_question
    from tests.reads import paper_id

    q = Question(number=1, kind=Kind.numerical, stem="Bits in a byte?", answer="8", points=1)
    with pytest.raises(BadTarget, match="holds single questions"):
        await add_question(env.db, q, paper_id=await paper_id(env.db, "demo"), section=1, actor=LEAD, now=1.0,
                           segment_in=SegmentIn.THIS_PROCESS)
