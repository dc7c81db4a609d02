"""/dispute needs the person to have been asked the question (issue 36, D2b): on a sheet of their own
attempt, in a daily quiz sent to them or to a group they are a known member of, in a live round they
answered. Any other id, an exam-only paper's included, gets the same line as an id no question has: the
reply tells nothing of the bank."""

from __future__ import annotations

import pytest

from bank.question_ref import question_ref
from bot.i18n import question_text
from proctor.exams.visibility import OPERATOR, lens
from proctor.teams.candidate import raised_disputes
from tests.harness import BotEnv, start_exam
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import question_ids

ANN, BOB, DAN, ALPHA = 7, 8, 9, -100


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper(), small_paper("hire", exam_only=True), small_paper("other"))
    await e.start()
    yield e
    await e.close()


async def _dispute(user, qid: int, chat=None) -> str:
    await user.send(f"/dispute {qid} the key should be B", chat=chat)
    return (await user.wait_message(chat=chat)).text


def _unknown(qid: int) -> str:
    return f"I don't know a question “bank id #{qid}”. Name it by its reference, such as P3 Q43."


async def test_a_question_never_asked_is_as_unknown_as_one_that_does_not_exist(env):
    ann = env.api.user(ANN, "Ann")
    hire = (await question_ids(env.db, "hire", "single"))[0]  # an exam-only paper's, by its id
    demo = (await question_ids(env.db, "demo", "single"))[0]
    assert await _dispute(ann, 999_999) == _unknown(999_999)
    assert await _dispute(ann, hire) == _unknown(hire)
    assert await _dispute(ann, demo) == _unknown(demo)
    assert await raised_disputes(env.db, ANN, await lens(env.db, OPERATOR, None)) == []
    # asked on her own exam's sheet: recorded
    await start_exam(env, ann)
    ref = question_text(await question_ref(env.db, demo), "en")
    assert (await _dispute(ann, demo)).startswith(f"Thanks — dispute #1 on {ref} is recorded")
    assert [d.question_id for d in await raised_disputes(env.db, ANN, await lens(env.db, OPERATOR, None))] == [demo]


async def test_a_group_quiz_asks_its_known_members_only(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(BOB,))  # Bob wrote in Alpha; Dan never did
    other = (await question_ids(env.db, "other", "single"))[0]
    await c.daily(ALPHA, "2027-01-15", [other], [])  # the group's quiz asked it
    bob, dan = env.api.user(BOB, "Bob"), env.api.user(DAN, "Dan")
    assert await _dispute(dan, other) == _unknown(other)
    assert (await _dispute(bob, other)).startswith("Thanks — dispute #1")
    assert [d.question_id for d in await raised_disputes(env.db, BOB, await lens(env.db, OPERATOR, None))] == [other]
    assert await raised_disputes(env.db, DAN, await lens(env.db, OPERATOR, None)) == []
