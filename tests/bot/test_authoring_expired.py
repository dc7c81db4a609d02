"""A wizard's stored step is decoded once when it is read. A session or draft this release cannot read
(a step an older release wrote, a garbled row) makes the wizard say it expired and start over: no
traceback, no "something went wrong". A session an older release wrote in today's shape goes on."""

import json
import logging

import pytest

from bank.authoring.draft import Step, load_draft
from bank.paper_store import get_question
from proctor.teams.authoring import Editq, EditqStep, NewPaper, NewPaperStep, get_session
from proctor.teams.question_edit import EditField
from tests.harness import BotEnv
from tests.papers_fixture import small_paper
from tests.reads import question_ids
from tests.stored import shown_ref

LEAD = 10
OOPS = "something went wrong"


@pytest.fixture
async def env(tmp_path, caplog, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text  # no traceback logged


@pytest.fixture
def lead(env):
    return env.api.user(LEAD, "Lea", language_code="en")


async def _single(env) -> int:
    return (await question_ids(env.db, "demo", "single"))[0]


async def _store(env, kind: str, state: str) -> None:
    """The lead's session row as an older release (or a damaged file) left it."""
    await env.db.run_write(lambda conn: conn.execute(
        "UPDATE authoring_sessions SET kind=?, state=? WHERE user_id=?", (kind, state, LEAD)))


async def _say(lead, text: str, expect: str):
    await lead.send(text)
    return await lead.wait_message(lambda m: expect in (m.text or ""), timeout=15)


def _no_oops(lead) -> None:
    assert not [m.text for m in lead.chat() if OOPS in (m.text or "")]


UNREADABLE_EDITQ = [
    pytest.param('{{"q": {q}, "v": 1, "step": "confirm", "field": "stem"}}', id="a step it no longer has"),
    pytest.param('{{"q": {q}, "v": 1, "step": "text", "field": "hint"}}', id="a field it no longer has"),
    pytest.param('{{"q": {q}, "v": 1, "step": "preview"}}', id="a preview of nothing"),
    pytest.param('{{"q": {q}, "v"', id="cut short"),
    pytest.param('[{q}]', id="not an object"),
]


@pytest.mark.parametrize("state", UNREADABLE_EDITQ)
async def test_a_press_on_an_unreadable_editq_says_it_expired_and_opens_the_card_again(env, lead, state):
    qid = await _single(env)
    ref = await shown_ref(env.db, qid)
    card = await _say(lead, f"/editq {qid}", f"✏️ {ref} ·")
    await lead.press(card, "Stem")
    asked = await lead.wait_message(lambda m: "Send the new stem" in (m.text or ""))
    await _store(env, "editq", state.format(q=qid))
    await lead.press(asked, "◀ Back")
    told = await lead.wait_message(lambda m: "had expired" in (m.text or ""))
    assert f"/editq of {ref}" in told.text and "starts over" in told.text
    again = await lead.wait_message(lambda m: f"✏️ {ref} ·" in (m.text or "") and "Stem" in m.button_texts)
    version = (await get_question(env.db, qid)).version
    assert await get_session(env.db, LEAD) == Editq(qid, version)
    await lead.press(again, "Stem")  # and it goes on from there
    await env.api.wait_for(lambda: "Send the new stem" in (again.text or ""), what="the stem asked for")
    assert await get_session(env.db, LEAD) == Editq(qid, version, EditqStep.text, EditField.stem)
    _no_oops(lead)


async def test_text_for_an_unreadable_editq_says_it_expired_and_how_to_start_again(env, lead):
    qid = await _single(env)
    ref = await shown_ref(env.db, qid)
    card = await _say(lead, f"/editq {qid}", f"✏️ {ref} ·")
    await lead.press(card, "Stem")
    await lead.wait_message(lambda m: "Send the new stem" in (m.text or ""))
    await _store(env, "editq", json.dumps({"q": qid, "v": 1, "step": "typing", "field": "stem"}))
    told = await _say(lead, "A new stem", "had expired")
    assert "Start again with /editq <question> or /newpaper" in told.text
    assert await get_session(env.db, LEAD) is None
    assert (await get_question(env.db, qid)).stem != "A new stem"
    _no_oops(lead)


async def test_text_for_an_unreadable_newpaper_asks_for_the_title_again_and_goes_on(env, lead):
    await _say(lead, "/newpaper", "Send its title")
    await _store(env, "newpaper", '{"step": "name"}')  # a step an older release had
    told = await _say(lead, "Week 5 check", "had expired")
    assert "/newpaper" in told.text and "Send its title" in told.text and told.button_texts == ["✖ Cancel"]
    assert await get_session(env.db, LEAD) == NewPaper()
    await _say(lead, "Week 5 check", "time limit")
    assert await get_session(env.db, LEAD) == NewPaper(NewPaperStep.minutes, "Week 5 check")
    _no_oops(lead)


async def test_a_press_on_a_session_of_an_unknown_command_starts_the_pressed_one_over(env, lead):
    await _say(lead, "/newpaper", "Send its title")
    minutes = await _say(lead, "Week 5 check", "time limit")
    await _store(env, "newquiz", "{}")  # a command this release does not have
    await lead.press(minutes, "◀ Back")
    told = await lead.wait_message(lambda m: "had expired" in (m.text or ""))
    assert "/newpaper" in told.text and "Send its title" in told.text
    assert await get_session(env.db, LEAD) == NewPaper()
    _no_oops(lead)


async def test_cancel_on_an_unreadable_session_closes_it(env, lead):
    asked = await _say(lead, "/newpaper", "Send its title")
    await _store(env, "newpaper", '{"step": "minutes"}')  # minutes, yet no title
    await lead.press(asked, "✖ Cancel")
    await lead.wait_message(lambda m: m.text == "Cancelled: nothing changed.")
    assert await get_session(env.db, LEAD) is None
    _no_oops(lead)


async def test_cancel_closes_an_unreadable_session(env, lead):
    await _say(lead, "/newpaper", "Send its title")
    await _store(env, "newpaper", "not json")
    said = await _say(lead, "/cancel", "closed")
    assert said.text == "Your unfinished /editq or /newpaper is closed; nothing changed."
    assert await get_session(env.db, LEAD) is None
    _no_oops(lead)


async def test_an_editq_an_older_release_left_in_today_s_shape_goes_on(env, lead):
    """The shape the release of 2026-12-03 stored (tests/fixtures/release_2026_12_03.sql)."""
    qid = await _single(env)
    version = (await get_question(env.db, qid)).version
    await _say(lead, f"/editq {qid}", f"✏️ {await shown_ref(env.db, qid)} ·")
    await _store(env, "editq", json.dumps({"q": qid, "v": version, "step": "text", "field": "stem", "option": 0,
                                           "ticks": ""}))
    assert await get_session(env.db, LEAD) == Editq(qid, version, EditqStep.text, EditField.stem)
    preview = await _say(lead, "Which function accumulates gradients?", "Preview of P")
    assert "Which function accumulates gradients?" in preview.text and "💾 Save" in preview.button_texts


async def _garble_draft(env, step: str, data: str | None = None) -> None:
    await env.db.run_write(lambda conn: conn.execute(
        "UPDATE question_drafts SET step=?, data=COALESCE(?, data) WHERE user_id=?", (step, data, LEAD)))


@pytest.mark.parametrize(("step", "data"), [
    pytest.param("hint", None, id="a step it no longer has"),
    pytest.param("stem", '{"kind": "essay"}', id="a kind it no longer has"),
    pytest.param("stem", '{"kind": "single", "colour": "red"}', id="a field it no longer has"),
    pytest.param("stem", "{", id="cut short"),
])
async def test_text_for_an_unreadable_newquestion_draft_starts_a_new_one(env, lead, step, data):
    kind = await _say(lead, "/newquestion", "What kind?")
    await lead.press(kind, "Single choice")
    await lead.wait_message(lambda m: "Send the question's text." in (m.text or ""))
    await _garble_draft(env, step, data)
    await _say(lead, "Which optimiser keeps a velocity?", "What kind?")
    assert any("Your draft had expired" in (m.text or "") for m in lead.chat())
    draft = await load_draft(env.db, LEAD)
    assert draft is not None and draft.step is Step.kind and draft.stem == ""
    _no_oops(lead)


async def test_a_press_on_an_unreadable_newquestion_draft_starts_a_new_one(env, lead):
    kind = await _say(lead, "/newquestion", "What kind?")
    await _garble_draft(env, "hint")
    await lead.press(kind, "Single choice")
    await lead.wait_message(lambda m: "Your draft had expired" in (m.text or ""))
    fresh = await lead.wait_message(lambda m: "What kind?" in (m.text or "") and m.message_id > kind.message_id)
    await lead.press(fresh, "Single choice")  # the new draft goes on
    await lead.wait_message(lambda m: "Send the question's text." in (m.text or ""))
    _no_oops(lead)


async def test_cancel_discards_an_unreadable_newquestion_draft(env, lead):
    await _say(lead, "/newquestion", "What kind?")
    await _garble_draft(env, "hint", "[]")
    said = await _say(lead, "/cancel", "discarded")
    assert said.text == "/newquestion: your draft is discarded; nothing was saved."
    _no_oops(lead)
