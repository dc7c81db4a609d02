"""The attempt service on a real record, SQLite and PostgreSQL: start, answer, finish, score by section."""

import pytest

from bank.kinds import Kind
from proctor.exams import service as attempts
from proctor.exams.blueprint import Blueprint, DrawSize, Part, drawn_size
from proctor.exams.model import compute_result
from proctor.exams.service import AlreadyRunning, AttemptLimitReached
from proctor.exams.sittings import sittings
from proctor.exams.steps import Action, Closed, take_step
from proctor.people.users import ensure_user
from tests.answering import answer
from tests.papers_fixture import save_paper, small_paper
from tests.reads import attempts_of

T0 = 1_800_000_000.0


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db


async def _setup(db, **kw):
    paper = small_paper(**kw)
    pid = await save_paper(db, paper, T0)
    await ensure_user(db, 7, "Ann", None, 0)
    await ensure_user(db, 8, "Bob", None, 0)
    return pid


async def test_start_skips_unaskable_and_sets_deadline(db):
    pid = await _setup(db)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    assert len(sheet.items) == 7  # the truncated question is never asked
    assert a.deadline == T0 + 3600
    assert sheet.attempt.max_score == 2 + 2 + 2 + 2 + 1 + 1 + 5


async def test_one_running_attempt_per_user(db):
    pid = await _setup(db)
    await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    with pytest.raises(AlreadyRunning):
        await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    assert len(await attempts_of(db)) == 1


async def test_right_keys_score_full_objective_marks_by_section(db):
    pid = await _setup(db)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=True,
                                     seed=3)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    for item in sheet.items:
        q = sheet.question(item)
        key = {"single": q.answer, "multi": q.answer, "truefalse": q.answer,
               "fill": "、".join(b[0] for b in q.answer) if isinstance(q.answer, list) else None,
               "short": q.answer}[q.kind.value]
        await answer(db, a.id, item.pos, key, T0 + 10)
    done = await attempts.finish_attempt(db, a.id, T0 + 100, "submitted")
    assert done is not None
    attempt, result = done
    objective = [s for s in result.sections if s.title != "简答题"]
    assert all(s.score == s.max_score for s in objective)
    assert result.pending_review == 1
    assert attempt.status == "finished" and attempt.score == pytest.approx(result.score)
    # finishing twice counts once
    assert await attempts.finish_attempt(db, a.id, T0 + 200, "timeout") is None


async def test_wrong_answers_score_zero_and_closed_attempt_refuses(db):
    pid = await _setup(db)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    await answer(db, a.id, 0, "A", T0)
    await answer(db, a.id, 2, "ACD", T0)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    result = compute_result(sheet.items, sheet.answers)
    assert result.score == 0
    await attempts.finish_attempt(db, a.id, T0 + 5, "submitted")
    assert await take_step(db, a.id, 7, Action.answer, 1, "2", T0 + 6) == Closed()  # C, as shown
    assert (await attempts.load_sheet(db, a.id)).answers.keys() == {0, 2}


async def test_attempt_limit(db):
    paper = small_paper()
    paper.settings.attempts_allowed = 1
    pid = await save_paper(db, paper, T0)
    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    await attempts.finish_attempt(db, a.id, T0 + 1, "submitted")
    with pytest.raises(AttemptLimitReached):
        await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)


async def test_foreign_attempt_is_refused(db):
    from proctor.exams.service import NotYourAttempt

    pid = await _setup(db)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    with pytest.raises(NotYourAttempt):
        await attempts.own_sheet(db, a.id, 8)


async def test_mock_card_count_is_what_the_mock_sheet_holds(db):
    """Issue 22: the card promised the blueprint's 45 while the sheet held the 42 the bank had: the
    card counts what a draw gives from this bank."""
    await _setup(db)  # a small bank: fewer questions of each kind than the mock asks for
    promised = (await attempts.mock_size(db)).questions
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=None, mode="exam", now=T0, shuffle=False)
    assert len((await attempts.load_sheet(db, a.id, positions="all")).items) == promised
    assert promised < sum(attempts.MOCK_BLUEPRINT.values())


async def test_stats_count_cancelled_attempts_as_used_and_flag_answers_awaiting_review(db):
    """Issue 22: /mystats left a cancelled exam out though the attempt limit counts it, and showed a
    best score that a pending review could still change as if it were final."""
    pid = await _setup(db)
    first = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0, shuffle=False)
    await attempts.finish_attempt(db, first.id, T0 + 10, "cancelled")
    second = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=T0 + 20,
                                          shuffle=False)
    sheet = await attempts.load_sheet(db, second.id, positions="all")
    short = next(i for i in sheet.items if sheet.question(i).kind.value == "short")
    await answer(db, second.id, short.pos, "an essay", T0 + 30)
    await attempts.finish_attempt(db, second.id, T0 + 40, "submitted")
    [row] = await attempts.user_stats(db, 7)
    assert (row["used"], row["cancelled"]) == (2, 1) == ((await sittings(db, 7, pid)).used, 1)
    assert row["best"] == row["last"] == 0 and row["pending"] == row["last_pending"] == 1
    assert await attempts.user_stats(db, 8) == []


async def test_a_draw_says_the_points_it_can_be_worth(db):
    """Issue 22: /exam random's card had no max; draws of questions worth different points differ."""
    paper = small_paper()
    paper.sections[0].questions[1].points = 3  # singles worth 2 and 3; fills 1 and 1
    await save_paper(db, paper, T0)
    one_single = Blueprint((Part(Kind.single, 1), Part(Kind.fill, 2)))
    assert await drawn_size(db, one_single) == DrawSize(3, 2 + 1 + 1, 3 + 1 + 1)
    assert await drawn_size(db, Blueprint((Part(Kind.single, 5, points=4),))) == DrawSize(2, 8, 8)
