"""A hiring paper (exam-only or invite-only) shows its candidate the score only unless it says
otherwise; any other paper shows everything. Every reader of the option agrees: the paper's settings,
the database's read, and practice feedback's read of the sheet."""

import pytest

from bank.kinds import ReviewOption, review_option
from bank.models import PaperSettings
from bank.paper_settings import review_option as stored_review_option
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.exams.steps import Action, Recorded, take_step
from proctor.people.users import ensure_user
from proctor.teams.curation import update_settings
from tests.papers_fixture import save_paper, small_paper


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0


@pytest.mark.parametrize(("hiring", "review", "expected"), [
    (False, None, ReviewOption.full),
    (True, None, ReviewOption.score),
    (True, "full", ReviewOption.full),
    (False, "sections", ReviewOption.sections),
    (True, "none", ReviewOption.none),
])
def test_the_default_review_of_a_hiring_paper_is_the_score(hiring, review, expected):
    assert review_option(hiring, review) == expected


@pytest.mark.parametrize(("exam_only", "invite_only", "expected"), [
    (False, False, ReviewOption.full),
    (True, False, ReviewOption.score),  # exam-only is a hiring paper too
    (True, True, ReviewOption.score),
])
def test_paper_settings_say_the_same(exam_only, invite_only, expected):
    assert PaperSettings(exam_only=exam_only, invite_only=invite_only).review_option == expected


async def test_an_exam_only_paper_reads_score_from_the_database_and_in_practice_feedback(db):
    paper = await save_paper(db, small_paper("hire"), T0)
    await ensure_user(db, 5, "U", None, T0)
    practice = await attempts.start_attempt(db, user_id=5, chat_id=5, paper_id=paper, mode=AttemptMode.practice,
                                            now=T0, shuffle=False)
    assert await stored_review_option(db, paper) == ReviewOption.full
    await update_settings(db, "hire", actor=0, now=T0, exam_only=True)  # while the practice attempt runs
    assert await stored_review_option(db, paper) == ReviewOption.score
    step = await take_step(db, practice.id, 5, Action.answer, 0, "2", T0 + 5)
    assert isinstance(step, Recorded) and step.review == ReviewOption.score
    await update_settings(db, "hire", actor=0, now=T0, review="full")  # the paper says otherwise
    assert await stored_review_option(db, paper) == ReviewOption.full
