"""Issue 22.9: /cancel ends whatever is open (a /newquestion draft, an /editq or /newpaper session, a file
waiting for Import, the exam after its confirmation) and says what it ended; the next text is no draft's."""

import pytest

from bank.authoring.draft import load_draft
from bank.authoring.upload import UploadStatus
from proctor.teams.authoring import get_session
from tests.harness import BotEnv, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import answers_of, question_count, question_ids, uploads_of
from tests.stored import shown_ref

LEAD, ANN = 10, 30
GIFT = "::g1:: What is 2 + 2? {=four ~three ~five}\n"


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def say(user, text: str, expect: str = ""):
    await user.send(text)
    return await user.wait_message(lambda m: expect in (m.text or ""), timeout=15)


async def test_cancel_discards_a_newquestion_draft_and_the_next_text_is_not_its_stem(env):
    lead = env.api.user(LEAD, "Lea")
    kind = await say(lead, "/newquestion", "What kind?")
    await lead.press(kind, "Single choice")
    await lead.wait_message(lambda m: "Send the question's text." in (m.text or ""))
    said = await say(lead, "/cancel")
    assert said.text == "/newquestion: your draft is discarded; nothing was saved.", said.text
    assert await load_draft(env.db, LEAD) is None
    after = await say(lead, "Which optimiser keeps a velocity?")
    assert "Send option A" not in after.text, after.text
    assert await load_draft(env.db, LEAD) is None


async def test_cancel_closes_an_open_newpaper_and_editq(env):
    lead = env.api.user(LEAD, "Lea")
    await say(lead, "/newpaper", "Send its title")
    assert (await say(lead, "/cancel")).text == "/newpaper is closed; no paper was made."
    assert await get_session(env.db, LEAD) is None
    qid = (await question_ids(env.db, "demo", "single"))[0]
    ref = await shown_ref(env.db, qid)
    await say(lead, f"/editq {qid}", f"✏️ {ref} ·")
    assert (await say(lead, "/cancel")).text == f"/editq of {ref} is closed; nothing changed."
    assert await get_session(env.db, LEAD) is None


async def test_cancel_drops_a_file_waiting_for_import(env):
    lead = env.api.user(LEAD, "Lea")
    before = await question_count(env.db)
    await lead.send_document(GIFT.encode(), "quiz.gift")
    await lead.wait_message(lambda m: "✅ Import" in m.button_texts, timeout=15)
    assert (await say(lead, "/cancel")).text == "Cancelled: nothing from quiz.gift was written."
    assert [u.status for u in await uploads_of(env.db, LEAD)] == [UploadStatus.cancelled]
    assert await question_count(env.db) == before


async def test_cancel_with_nothing_open_says_so_and_an_exam_still_asks_first(env):
    ann = env.api.user(ANN, "Ann")
    said = await say(ann, "/cancel")
    assert said.text == "Nothing to cancel: you have no exam, practice, draft or edit open."
    await start_exam(env, ann)
    confirm = await say(ann, "/cancel", "Cancel “")
    assert "Yes, cancel" in confirm.button_texts


async def test_keep_going_on_the_cancel_prompt_shows_the_exam_again_and_its_buttons_work(env):
    """Issue 22: "Keep going" only said "OK, your exam goes on: /resume"; the exam screen comes back."""
    ann = env.api.user(ANN, "Ann")
    first = await start_exam(env, ann)
    confirm = await say(ann, "/cancel", "Cancel “")
    await ann.press(confirm, "Keep going")
    await env.idle()
    screen = attempt_message(ann.chat())
    assert screen is not None and screen.message_id != first.message_id  # posted below the prompt
    assert "goes on" in (confirm.text or "") and not confirm.buttons
    toast = await ann.press(screen, "C")
    assert not await toast.wait()
    await env.idle()
    assert list(await answers_of(env.db)) != []
