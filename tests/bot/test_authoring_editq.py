"""/editq through the fake Bot API, as a lead and candidates use it: a key change with a regrade (the
candidates whose score changes are told, the paper's board follows) or keeping past scores; a stem edit
while an old answer keeps the version it was shown; refusals; a re-import keeps an edited question."""

import json

import pytest

from bank.formats.files import FileFormat, export
from bank.importer import import_files
from bank.kinds import Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import get_question, list_papers
from bank.question_versions import versions_in
from bot.lint_lines import lint_message
from proctor.exams import service as attempts
from proctor.exams.steps import take_step
from proctor.teams import audit
from proctor.teams.leaderboard import paper_board
from tests.harness import T0, BotEnv, at_place, attempt_message, start_exam
from tests.reads import graded_answers, key_history, the_attempt
from tests.stored import shown_ref

LEAD, ANN, BOB = 10, 30, 40
TITLE = "Edit paper"


def edit_paper(slug: str = "edit") -> Paper:
    return Paper(slug=slug, title=TITLE, settings=PaperSettings(time_limit_min=30), sections=[
        Section(kind=Kind.single, title="单项选择题", points_each=2, questions=[
            Question(number=1, kind=Kind.single, stem="Which letter comes third?", options=["A1", "B2", "C3", "D4"],
                     answer="C", explanation="C is third.", points=2)]),
        Section(kind=Kind.truefalse, title="判断题", points_each=1, questions=[
            Question(number=1, kind=Kind.truefalse, stem="The sky is green.", answer=False, points=1)]),
    ])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(edit_paper())
    await e.start()
    yield e
    await e.close()


async def _qid(env, kind: str) -> int:
    return next(q.id for q in await _questions(env) if q.kind == kind)


async def _questions(env) -> list[Question]:
    """Every question of the one paper, as stored now."""
    [paper] = await list_papers(env.db)
    return paper.questions()


async def take(env, user, letter: str, tf: str = "✘ False") -> None:
    """Take the paper as a person would: the letter for Q1, True/False for Q2, then finish."""
    msg = await start_exam(env, user, TITLE)
    await user.press(msg, letter)
    await env.api.wait_for(lambda: at_place(attempt_message(user.chat()).text, 2, 2), what="question 2")
    await user.press(attempt_message(user.chat()), tf)
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if "Yes, finish" in m.button_texts and not m.deleted), None),
        what="the finish question")
    await user.press(confirm, "Yes, finish")
    await user.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()


async def press_raw(env, user, message, data: str) -> str:
    """Press a button with any data, as a forged or stale client would."""
    record = env.api.state.new_callback(user.id, message, data)
    env.api.inject_update({"callback_query": {"id": record.id, "from": user.info.to_api(),
                                              "message": env.api.state.message_to_api(message),
                                              "chat_instance": "1", "data": data}})
    await env.api.wait_for(lambda: record.answered)
    return record.text or ""


async def _editq(env, lead, qid: int):
    await lead.send(f"/editq {qid}")
    ref = await shown_ref(env.db, qid)
    return await lead.wait_message(lambda m: f"✏️ {ref} · version" in (m.text or ""))


async def test_key_change_with_regrade_tells_the_candidates_and_the_board_follows(env):
    ann, bob, lead = env.api.user(ANN, "Ann"), env.api.user(BOB, "Bob"), env.api.user(LEAD, "Lea")
    await take(env, ann, "B")  # wrong by the key C: 1 point (the true/false right)
    await take(env, bob, "C")  # right: 3 points
    [pid] = [p.id for p in await list_papers(env.db)]
    assert [(r.user_id, r.score) for r in await paper_board(env.db, pid, None, invited=True)] == [(BOB, 3), (ANN, 1)]
    qid = await _qid(env, "single")

    card = await _editq(env, lead, qid)
    assert "version 1" in card.text and "Which letter comes third?" in card.text
    assert f"✏️ {await shown_ref(env.db, qid)} · version 1" in card.text  # its reference, never its bank id
    assert "\nEdit paper · Single choice · Single choice · 2 points\n" in card.text and "#" not in card.text  # no file name
    assert {"Key", "Stem", "Explanation", "Option A", "Option D", "✖ Cancel"} <= set(card.button_texts)
    await lead.press(card, "Key")
    picker = await env.api.wait_for(lambda: card if "Pick the new key" in (card.text or "") else None,
                                    what="the key picker")
    await lead.press(picker, "B")
    preview = await env.api.wait_for(lambda: card if "Preview" in (card.text or "") else None, what="preview")
    assert "Before: C" in preview.text and "After: B" in preview.text and "2 so far" in preview.text
    assert (await get_question(env.db, qid)).answer == "C"  # not yet
    await lead.press(preview, "💾 Save and regrade")
    done = await env.api.wait_for(lambda: card if "now at version 2" in (card.text or "") else None, what="saved")
    assert "2 answers regraded, 2 scores changed" in done.text

    assert "your score 0 → 2 (of 2)" in (await ann.wait_message(lambda m: "regraded" in (m.text or ""))).text
    assert "your score 2 → 0 (of 2)" in (await bob.wait_message(lambda m: "regraded" in (m.text or ""))).text
    assert [(r.user_id, r.score) for r in await paper_board(env.db, pid, None, invited=True)] == [(ANN, 3), (BOB, 1)]
    assert (await get_question(env.db, qid)).version == 2
    [fix] = await key_history(env.db, qid)
    assert (fix.field, fix.answer, fix.previous, fix.actor) == ("key", "B", "C", LEAD)
    [entry] = await audit.recent(env.db, action="question_edit")
    assert entry.actor_id == LEAD and entry.detail["changed"] == 2


async def test_key_change_keeping_past_scores_leaves_them_graded_by_the_version_shown(env):
    ann, lead = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lea")
    await take(env, ann, "B")
    qid = await _qid(env, "single")
    card = await _editq(env, lead, qid)
    await lead.press(card, "Key")
    await env.api.wait_for(lambda: "Pick the new key" in (card.text or ""), what="the key picker")
    await lead.press(card, "B")
    await env.api.wait_for(lambda: "Preview" in (card.text or ""), what="preview")
    await lead.press(card, "💾 Save, keep past scores")
    await env.api.wait_for(lambda: "keep their scores" in (card.text or ""), what="saved")
    assert (await the_attempt(env.db, ANN)).score == 1
    assert [(g.score, g.key_version) for g in await graded_answers(env.db, qid)] == [(0, 1)]
    # the candidate's review shows the key their answer was graded against (version 1's C)
    aid = (await the_attempt(env.db, ANN)).id
    sheet = await attempts.load_sheet(env.db, aid, positions="all")
    assert sheet.question(sheet.items[0]).answer == "C"
    # a new attempt is graded by the new key
    bob = env.api.user(BOB, "Bob")
    await take(env, bob, "B")
    assert (await the_attempt(env.db, BOB)).score == 3
    await env.idle()
    assert not [m for m in ann.chat() if "regraded" in (m.text or "")]  # nobody told: no score changed


async def test_stem_edit_while_a_sheet_shows_the_old_version(env):
    """Ann's practice sheet shows version 1; the lead edits the stem, then the key (keeping scores):
    her answer is graded against what she was shown, and her review shows the old stem."""
    ann, lead = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lea")
    [pid] = [p.id for p in await list_papers(env.db)]
    qid = await _qid(env, "single")
    await ann.send("/start")
    await ann.wait_message()
    running = await attempts.start_attempt(env.db, user_id=ANN, chat_id=ANN, paper_id=pid, mode="practice",
                                           now=T0, shuffle=False)

    card = await _editq(env, lead, qid)
    await lead.press(card, "Stem")
    await env.api.wait_for(lambda: "new stem" in (card.text or ""), what="the stem prompt")
    await lead.send("Which letter comes second?")
    preview = await lead.wait_message(lambda m: "Preview" in (m.text or ""))
    assert "Before: Which letter comes third?" in preview.text and "After: Which letter comes second?" in preview.text
    await lead.press(preview, "💾 Save")
    await env.api.wait_for(lambda: "now at version 2" in (preview.text or ""), what="saved")
    assert (await get_question(env.db, qid)).stem == "Which letter comes second?"
    card = await _editq(env, lead, qid)
    await lead.press(card, "Key")
    await env.api.wait_for(lambda: "Pick the new key" in (card.text or ""), what="the key picker")
    await lead.press(card, "B")
    await env.api.wait_for(lambda: "Preview" in (card.text or ""), what="preview")
    await lead.press(card, "💾 Save, keep past scores")
    await env.api.wait_for(lambda: "now at version 3" in (card.text or ""), what="saved")

    outcome = await take_step(env.db, running.id, ANN, "answer", 0, "2", T0 + 60)  # she picks C, as shown
    assert outcome.answer.score == 2 and outcome.answer.key_version == 1
    sheet = await attempts.load_sheet(env.db, running.id, positions="all")
    assert sheet.question(sheet.items[0]).stem == "Which letter comes third?"
    # a sheet drawn now shows and grades version 3
    assert (await attempts.load_sheet(env.db, running.id)).attempt.id == running.id
    stored = await env.db.run(lambda conn: versions_in(conn, [(qid, v) for v in (1, 2, 3, 4)]))
    assert [(v, r["stem"], json.loads(r["answer"])) for (_, v), r in sorted(stored.items())] == [
        (1, "Which letter comes third?", "C"), (2, "Which letter comes second?", "C"),
        (3, "Which letter comes second?", "B")]


async def test_refusals_are_short_messages(env):
    ann, lead = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lea")
    qid = await _qid(env, "single")
    await ann.send(f"/editq {qid}")  # not an admin
    assert "admin" in (await ann.wait_message()).text
    await lead.send("/editq")
    assert "Usage: /editq" in (await lead.wait_message()).text
    await lead.send("/editq twelve")
    assert "There is no question “twelve”" in (await lead.wait_message()).text
    await lead.send("/editq 9999")
    assert "There is no question “9999”" in (await lead.wait_message()).text
    await lead.send("/editq P9 Q1")
    assert "There is no question “P9 Q1”" in (await lead.wait_message()).text
    # garbled input: an option the question hasn't, an empty text, a forged button
    card = await _editq(env, lead, qid)
    await lead.press(card, "Option A")
    await env.api.wait_for(lambda: "option A" in (card.text or ""), what="the option prompt")
    await lead.send("x" * 3001)
    assert "at most 3000 characters" in (await lead.wait_message()).text
    assert "no longer open" in await press_raw(env, lead, card, f"a:e:{qid + 1}:f:s")  # another question's
    assert "not valid" in await press_raw(env, lead, card, "a:e:x:zz")
    await lead.press(card, "✖ Cancel")
    await env.api.wait_for(lambda: "Cancelled" in (card.text or ""), what="cancelled")
    # a sealed question: on Ann's running exam
    msg = await start_exam(env, ann, TITLE)
    assert msg is not None
    await lead.send(f"/editq {qid}")
    assert "running exam" in (await lead.wait_message()).text
    # a non-admin pressing an editq button
    assert "admin" in await press_raw(env, ann, card, f"a:e:{qid}:c")
    assert (await get_question(env.db, qid)).version == 1


async def test_a_multiple_choice_key_is_ticked_by_the_one_toggle(tmp_path):
    """/editq's ticks go through the exam's and the daily quiz's toggle (proctor.exams.drafts.toggled):
    a press ticks or unticks its option, a press past the options or garbled changes nothing."""
    env = BotEnv(tmp_path, admins=(LEAD,))
    await env.seed(Paper(slug="multi", title="Multi paper", sections=[Section(kind=Kind.multi, title="多项选择题", questions=[
        Question(number=1, kind=Kind.multi, stem="Which are even?", options=["1", "2", "3", "4"], answer="BD")])]))
    await env.start()
    try:
        lead = env.api.user(LEAD, "Lea")
        qid = await _qid(env, "multi")
        card = await _editq(env, lead, qid)
        await lead.press(card, "Key")
        await env.api.wait_for(lambda: "Tick every right option" in (card.text or ""), what="the ticks")
        assert {"☐ A", "☐ B", "☐ C", "☐ D"} <= set(card.button_texts)
        for box, after in (("☐ A", "☑ A"), ("☐ C", "☑ C"), ("☑ A", "☐ A")):
            await lead.press(card, box)
            await env.api.wait_for(lambda after=after: after in card.button_texts, what=after)
        for forged in (f"a:e:{qid}:t:4", f"a:e:{qid}:t:x"):
            await press_raw(env, lead, card, forged)
        await env.idle()
        assert {"☐ A", "☐ B", "☑ C", "☐ D"} <= set(card.button_texts)
        await lead.press(card, "Done")
        preview = await env.api.wait_for(lambda: card if "Preview" in (card.text or "") else None, what="preview")
        assert "Before: BD" in preview.text and "After: C" in preview.text
    finally:
        await env.close()


async def test_a_key_typed_for_a_blank_and_a_bad_key(tmp_path):
    env = BotEnv(tmp_path, admins=(LEAD,))
    await env.seed(Paper(slug="fill", title="Fill paper", sections=[Section(kind=Kind.fill, title="填空题", questions=[
        Question(number=1, kind=Kind.fill, stem="A ____ and a ____.", answer=[["cat"], ["dog"]])])]))
    await env.start()
    try:
        lead = env.api.user(LEAD, "Lea")
        qid = await _qid(env, "fill")
        card = await _editq(env, lead, qid)
        await lead.press(card, "Key")
        await env.api.wait_for(lambda: "new key" in (card.text or ""), what="the key prompt")
        await lead.send("mouse")
        assert "one answer per blank (2)" in (await lead.wait_message()).text
        await lead.send("mouse | rat")
        preview = await lead.wait_message(lambda m: "Preview" in (m.text or ""))
        assert "Before: cat、dog" in preview.text and "After: mouse、rat" in preview.text
        await lead.press(preview, "💾 Save and regrade")
        await env.api.wait_for(lambda: "now at version 2" in (preview.text or ""), what="saved")
        assert (await get_question(env.db, qid)).answer == [["mouse"], ["rat"]]
    finally:
        await env.close()


async def test_a_reimport_keeps_the_edited_question_and_says_so(env, tmp_path):
    lead = env.api.user(LEAD, "Lea")
    qid = await _qid(env, "single")
    card = await _editq(env, lead, qid)
    await lead.press(card, "Explanation")
    await env.api.wait_for(lambda: "new explanation" in (card.text or ""), what="the prompt")
    await lead.send("C is the third letter.")
    preview = await lead.wait_message(lambda m: "Preview" in (m.text or ""))
    await lead.press(preview, "💾 Save")
    await env.api.wait_for(lambda: "now at version 2" in (preview.text or ""), what="saved")

    changed = edit_paper()
    changed.sections[0].questions[0].stem = "A new stem from the file"
    changed.sections[1].questions[0].stem = "The sky is blue."
    path = tmp_path / "edit.json"
    data, _ = export([changed], FileFormat.json)
    path.write_text(data, encoding="utf-8")
    papers = await import_files(env.db, [path], T0 + 100)
    ref = await shown_ref(env.db, qid)
    assert any(f"{ref} keeps its edit" in lint_message(n.code, n.params, "en") for n in papers[0].notes)
    kept = await get_question(env.db, qid)
    assert (kept.stem, kept.explanation, kept.version) == ("Which letter comes third?", "C is the third letter.", 2)
    # a question nobody edited takes the file's text
    assert [q.stem for q in await _questions(env) if q.kind == "truefalse"] == ["The sky is blue."]


async def test_a_reference_answer_edit_finds_its_own_key_terms_only(tmp_path):
    from bank.grading.terms import SegmentIn, terms_for

    env = BotEnv(tmp_path, admins=(LEAD,))
    await env.seed(Paper(slug="short", title="Short paper", sections=[Section(kind=Kind.short, title="简答题", questions=[
        Question(number=n, kind=Kind.short, stem=f"简述 {n}", answer=f"参考答案 {n}", points=5) for n in (1, 2)])]))
    await env.start()
    try:
        first, other = (q.id for q in await _questions(env))

        def transaction(conn):  # the other as a bank imported before key terms were stored
            conn.execute("UPDATE questions SET key_terms=NULL WHERE id=?", (other,))

        await env.db.run_write(transaction)
        lead = env.api.user(LEAD, "Lea")
        card = await _editq(env, lead, first)
        await lead.press(card, "Key")
        await env.api.wait_for(lambda: "new key" in (card.text or ""), what="the key prompt")
        reference = "张量并行把权重矩阵切分到多个设备上"
        await lead.send(reference)
        preview = await lead.wait_message(lambda m: "Preview" in (m.text or ""))
        await lead.press(preview, "💾 Save and regrade")
        # the save segments the new reference in a child process: the first one starts the readers'
        # zygote and loads jieba's dictionary (seconds of CPU, more on a loaded machine)
        await env.api.wait_for(lambda: "now at version 2" in (preview.text or ""), timeout=60, what="saved")
        edited = await get_question(env.db, first)
        terms = terms_for([reference], segment_in=SegmentIn.THIS_PROCESS)[0]
        assert (edited.answer, edited.key_terms) == (reference, terms)
        assert (await get_question(env.db, other)).key_terms is None  # the rest of the bank is left alone
    finally:
        await env.close()
