"""/editq (and `proctor bank edit --key`) read a typed key as /newquestion does (bank.formats.sheet's 答案
cell): blanks separated by |, accepted forms of one blank by ;, numbers with a tolerance or a range."""

from __future__ import annotations

import pytest

from bank.authoring.draft import Draft, Step, give_key
from bank.kinds import Kind
from bank.models import Paper, Question, Section
from bank.paper_store import get_question, load_paper
from proctor.teams import question_edit as qe
from tests.papers_fixture import save_paper


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0


def _paper() -> Paper:
    return Paper(slug="keys", title="Keys", sections=[
        Section(kind=Kind.fill, title="填空题", questions=[
            Question(number=1, kind=Kind.fill, stem="A ____ and a ____.", answer=[["cat"], ["dog"]])]),
        Section(kind=Kind.numerical, title="计算题", questions=[
            Question(number=1, kind=Kind.numerical, stem="π to two decimals?", answer=[["3.14", "0"]])])])


@pytest.mark.parametrize(("kind", "typed"), [
    (Kind.fill, "mouse;rat | hamster"),  # two blanks, the first with two accepted forms
    (Kind.fill, "猫;狸|狗"),
    (Kind.numerical, "3.14±0.01"),
    (Kind.numerical, "3..3.2 | 6.28"),
])
async def test_a_key_newquestion_takes_is_taken_by_editq_and_stored_the_same(db, kind, typed):
    await save_paper(db, _paper(), T0)
    q = next(x for x in (await load_paper(db, "keys")).questions() if x.kind == kind)
    drafted = give_key(Draft(id=1, user_id=1, chat_id=1, step=Step.key, kind=kind, stem=q.stem), typed).key
    await qe.edit_question(db, q.id or 0, qe.Edit(qe.EditField.key, typed), actor=10, now=T0, chat_id=None)
    assert (await get_question(db, q.id or 0)).answer == drafted


async def test_a_key_that_does_not_fit_the_question_is_refused(db):
    await save_paper(db, _paper(), T0)
    fill = next(x for x in (await load_paper(db, "keys")).questions() if x.kind == Kind.fill)
    with pytest.raises(qe.BadKey, match=r"one answer per blank \(2\)"):
        await qe.edit_question(db, fill.id or 0, qe.Edit(qe.EditField.key, "mouse;rat"), actor=10, now=T0, chat_id=None)
    with pytest.raises(qe.BadKey):
        await qe.edit_question(db, fill.id or 0, qe.Edit(qe.EditField.key, "mouse | "), actor=10, now=T0, chat_id=None)
    assert (await get_question(db, fill.id or 0)).version == 1
