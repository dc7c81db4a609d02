"""An /editq or /newpaper session is decoded once when it is read: each step and field to its enum,
the row a release stored read back as it was written; a row this release cannot read is `Unreadable`
(with its command, when that is known), never an exception."""

import pytest

from proctor.teams.authoring import (
    Editq,
    EditqStep,
    NewPaper,
    NewPaperStep,
    Unreadable,
    Wizard,
    end_session,
    get_session,
    put_session,
)
from proctor.teams.question_edit import EditField


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

LEAD = 7


async def _row(db, kind: str, state: str) -> None:
    await db.run_write(lambda conn: conn.execute(
        "INSERT INTO authoring_sessions (user_id, kind, state, updated_at) VALUES (?,?,?,0)", (LEAD, kind, state)))


@pytest.mark.parametrize("session", [
    Editq(12, 3),
    Editq(12, 3, EditqStep.text, EditField.option, option=2),
    Editq(12, 3, EditqStep.preview, EditField.key, ticks="AC", value="AC"),
    NewPaper(),
    NewPaper(NewPaperStep.minutes, "Week 3 check"),
    NewPaper(NewPaperStep.preview, "周测", 45, "single 5 2", exam_only=True, per_candidate=True),
])
async def test_a_session_reads_back_as_it_was_put(db, session):
    await put_session(db, LEAD, session, 1.0)
    read = await get_session(db, LEAD)
    assert read == session and type(read.step) is type(session.step)
    assert not isinstance(read, Editq) or read.field is None or type(read.field) is EditField
    assert await end_session(db, LEAD) == session and await get_session(db, LEAD) is None


@pytest.mark.parametrize(("kind", "state", "session"), [
    ("editq", '{"q": 1, "v": 2, "step": "text", "field": "stem", "option": 0, "ticks": ""}',
     Editq(1, 2, EditqStep.text, EditField.stem)),
    ("editq", '{"q": 1, "v": 2, "step": "field", "field": null, "option": 0, "ticks": ""}', Editq(1, 2)),
    ("editq", '{"q": 1, "v": 2, "step": "field"}', Editq(1, 2)),
    ("newpaper", '{"step": "title"}', NewPaper()),
    ("newpaper", '{"step": "parts", "title": "W", "minutes": 30}', NewPaper(NewPaperStep.parts, "W", 30)),
    ("newpaper", '{"step": "preview", "title": "W", "minutes": 30, "parts": "single 2", "each": true}',
     NewPaper(NewPaperStep.preview, "W", 30, "single 2", per_candidate=True)),
])
async def test_rows_an_older_release_stored_are_read(db, kind, state, session):
    """As tests/fixtures/release_2026_12_03.sql has them, and /newpaper's before its switches were pressed."""
    await _row(db, kind, state)
    assert await get_session(db, LEAD) == session


@pytest.mark.parametrize(("kind", "state", "wizard"), [
    ("editq", '{"q": 1, "v": 2, "step": "confirm"}', Wizard.editq),  # a step this release does not have
    ("editq", '{"q": 1, "v": 2, "step": "text", "field": "hint"}', Wizard.editq),  # nor this field
    ("editq", '{"q": 1, "v": 2, "step": "text"}', Wizard.editq),  # text for no field
    ("editq", '{"v": 2, "step": "field"}', Wizard.editq),  # no question
    ("editq", '{"q": "one", "v": 2, "step": "field"}', Wizard.editq),
    ("editq", '{"q": 1', Wizard.editq),
    ("editq", "[1, 2]", Wizard.editq),
    ("editq", "null", Wizard.editq),
    ("newpaper", "{}", Wizard.newpaper),
    ("newpaper", '{"step": "name"}', Wizard.newpaper),
    ("newpaper", '{"step": "minutes"}', Wizard.newpaper),  # no title
    ("newpaper", '{"step": "preview", "title": "W", "minutes": 30}', Wizard.newpaper),  # no blueprint
    ("newpaper", '{"step": "parts", "title": "W", "minutes": "soon"}', Wizard.newpaper),
    ("newquiz", '{"step": "title"}', None),  # a command this release does not have
])
async def test_a_row_this_release_cannot_read_is_unreadable(db, kind, state, wizard):
    await _row(db, kind, state)
    assert await get_session(db, LEAD) == Unreadable(wizard)
    assert await end_session(db, LEAD) == Unreadable(wizard) and await get_session(db, LEAD) is None
