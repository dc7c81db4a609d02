"""A regrade stores each score exactly as answering did: a key edited to itself changes no score and
tells nobody, a partial credit of 1/3 included (answering keeps 4 decimals, not 2). An attempt's total
is summed one way (proctor.exams.scoring.ATTEMPT_TOTAL): at the hand-in, a review and a regrade."""

from __future__ import annotations

from datetime import date

import pytest

from bank.kinds import Kind, MultiPolicy
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import load_paper
from proctor import outbox
from proctor.daily import delivery as dstore
from proctor.daily import private_next
from proctor.daily import steps as daily
from proctor.daily import subscriptions as subs
from proctor.daily.plan import create_or_resume
from proctor.exams.visibility import Role, Viewer
from proctor.people.users import ensure_user
from proctor.teams import question_edit as qe
from proctor.teams.review import set_final
from tests.papers_fixture import save_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import attempts_of, graded_answers, outbox_record


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
ANN, LEAD = 7, 10


def _thirds() -> Paper:
    """One multiple choice with three right options of four, weighted: one right tick earns 1/3."""
    return Paper(slug="thirds", title="Thirds", settings=PaperSettings(multi_policy=MultiPolicy.weighted), sections=[
        Section(kind=Kind.multi, title="多项选择题", questions=[
            Question(number=1, kind=Kind.multi, stem="Which are even?", options=["2", "4", "6", "7"],
                     answer="ABC", points=1)])])


async def test_a_partial_daily_answer_regraded_to_the_same_key_changes_nothing(db):
    await save_paper(db, _thirds(), T0)
    [q] = (await load_paper(db, "thirds")).questions()
    await subs.ensure_chat(db, ANN, "private", "", T0)
    await ensure_user(db, ANN, "Ann", None, 0)
    d, _ = await create_or_resume(db, ANN, True, date(2027, 1, 15), 1, T0 + 3600, T0, shuffle=False)
    [item] = await dstore.items(db, d.id)
    ask = await db.run_write(lambda conn: private_next.next_in(conn, d, summary=False))  # as the push does
    assert ask.item == item
    await dstore.mark_sent_and_open(db, d.id, item.pos, 100, T0)
    here = (ANN, 100)
    await daily.answer_step(db, d.id, item.pos, ANN, "toggle", "0", T0, message=here)  # A only
    answered = await daily.answer_step(db, d.id, item.pos, ANN, "submit", None, T0, message=here)
    assert isinstance(answered, daily.Recorded) and answered.grade.verdict.value == "partial"
    [before] = await graded_answers(db, q.id or 0)
    assert 0.33 < before.score < 0.34

    done = await qe.edit_question(db, q.id or 0, qe.Edit(qe.EditField.key, "ABC"), actor=LEAD, now=T0 + 10,
                                  chat_id=None, regrade=True)
    assert (done.answers, done.changes) == (1, [])
    [after] = await graded_answers(db, q.id or 0)
    assert (after.score, after.key_version) == (before.score, 2)
    assert await outbox_record(db, outbox.Kind.key_fix_notice, f"q{q.id}v2:{ANN}") is None  # nobody is told of a change


async def test_a_reviewed_attempts_total_is_summed_as_the_hand_in_sums_it(db):
    c = Crafted(db)
    pid, [[single, *_], [short, *_]] = await c.paper()
    await c.user(ANN)
    aid = await c.exam(ANN, pid, [(single, 0.1, 1, 1), (short, 0, 5, 0)], T0 - 600, T0 - 60)
    done = await set_final(db, aid, 1, 0.2, viewer=Viewer(Role.admin, LEAD), scope=None, now=T0)
    # 0.1 + 0.2 summed as floats is 0.30000000000000004: the hand-in rounds the total to 2 decimals
    assert done.attempt_score == 0.3
    assert [a.score for a in await attempts_of(db) if a.id == aid] == [0.3]
