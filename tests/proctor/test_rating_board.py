"""Who sees which rating (docs/ratings.md): a person's own from every counted answer; a team's view of a
member from only the answers the team may read (joined with consent, while in the group, done after
joining; a hiring paper's only when the team is verified for it), against the questions as they stand;
a topic narrows it; settled ratings ranked, provisional ones apart; the group's board names only the
members who chose it; /forgetme forgets the rating and the choice."""

from __future__ import annotations

import pytest

from proctor import hiring
from proctor.exams.states import AttemptMode
from proctor.people.forget import forget_user
from proctor.ratings.listing import is_listed, set_listed
from proctor.ratings.shown import own
from proctor.teams import consent
from proctor.teams.rating_board import team_board
from tests.rating_world import LEAD, T0, TEAM, join, paper, people, sit, sums


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ANN, BOB, CAI, DAN = 1, 2, 3, 4
ADMIN = 50


async def test_a_team_rates_a_member_only_from_the_answers_it_may_read(db):
    await people(db, (ANN, "Ann"), (LEAD, "Lea"))
    before, after = await paper(db, sums("before", 6)), await paper(db, sums("after", 6, topic="algebra"))
    hire = await paper(db, sums("hire", 6, exam_only=True))
    await sit(db, ANN, before, None, T0)  # all right, before she joined
    assert (await team_board(db, TEAM, T0 + 200)).place(ANN) is None
    await join(db, ANN, T0 + 1000)
    await sit(db, ANN, after, {0}, T0 + 2000)  # one right of six, after joining
    await sit(db, ANN, hire, None, T0 + 3000)  # a hiring paper the team is not verified for
    mine = (await own(db, ANN, T0 + 4000)).shown
    seen = (await team_board(db, TEAM, T0 + 4000)).place(ANN)
    assert mine is not None and seen is not None
    assert (mine.answers, seen.shown.answers) == (18, 6)  # the team: the paper done after joining only
    assert seen.shown.rating < 1500 < mine.rating  # one right of six, against twelve right of twelve
    assert seen.rank is None and seen.shown.provisional  # six answers: listed apart
    # verified for the hiring paper, the team reads its answers too
    await hiring.verify(db, TEAM, [hire], actor=ADMIN, now=T0 + 5000)
    assert (await team_board(db, TEAM, T0 + 5000)).place(ANN).shown.answers == 12
    # a topic (bank/topics.py): the questions whose own topic, else their paper's subject, the words name
    assert (await team_board(db, TEAM, T0 + 5000, "ALGEBRA")).place(ANN).shown.answers == 6
    assert (await team_board(db, TEAM, T0 + 5000, "geometry")).place(ANN) is None
    assert (await team_board(db, TEAM, T0 + 5000, "填空")).place(ANN) is None  # a section's heading is no topic
    # she leaves the group: the team sees nothing of her from then on
    await consent.record_checks(db, TEAM, {ANN: False}, now=T0 + 6000)
    assert (await team_board(db, TEAM, T0 + 6000)).place(ANN) is None
    assert (await own(db, ANN, T0 + 6000)).shown.answers == 18


async def test_settled_ratings_are_ranked_provisional_ones_apart_and_the_group_names_who_chose_it(db):
    await people(db, (ANN, "Ann"), (BOB, "Bob"), (CAI, "Cai"), (DAN, "Dan"), (LEAD, "Lea"))
    pid = await paper(db, sums("long", 40))
    for uid in (ANN, BOB, CAI, DAN):
        await join(db, uid, T0)
    for n, (uid, right) in enumerate(((ANN, 32), (BOB, 20), (DAN, 30))):
        await sit(db, uid, pid, set(range(right)), T0 + 1000 * (n + 1))
    short = await paper(db, sums("short", 4))
    await sit(db, CAI, short, {0, 1, 2}, T0 + 5000)  # four answers: provisional
    board = await team_board(db, TEAM, T0 + 6000)
    assert [(r.rank, r.user_id) for r in board.ranked] == [(1, ANN), (2, DAN), (3, BOB)]
    assert [r.user_id for r in board.provisional] == [CAI]
    assert all(not r.shown.provisional and r.shown.low < r.shown.rating < r.shown.high for r in board.ranked)
    assert board.ranked[0].shown.rating > board.ranked[1].shown.rating > board.ranked[2].shown.rating
    # the group's board names only who chose it, ranked among themselves
    assert board.named().ranked == [] and board.named().provisional == []
    await set_listed(db, DAN, True, T0 + 7000)
    await set_listed(db, CAI, True, T0 + 7000)
    named = (await team_board(db, TEAM, T0 + 7000)).named()
    assert [(r.rank, r.user_id) for r in named.ranked] == [(1, DAN)]
    assert [r.user_id for r in named.provisional] == [CAI]
    await set_listed(db, DAN, False, T0 + 8000)
    assert [r.user_id for r in (await team_board(db, TEAM, T0 + 8000)).named().ranked] == []


async def test_forgetting_a_person_forgets_their_rating_and_their_choice(db):
    await people(db, (ANN, "Ann"), (BOB, "Bob"), (LEAD, "Lea"))
    pid = await paper(db, sums("demo", 6))
    await join(db, ANN, T0)
    await sit(db, ANN, pid, {0, 1, 2}, T0 + 100, mode=AttemptMode.practice)
    await sit(db, BOB, pid, {0}, T0 + 200)
    await set_listed(db, ANN, True, T0 + 300)
    assert (await own(db, ANN, T0 + 400)).listed and (await own(db, ANN, T0 + 400)).shown is not None
    await forget_user(db, ANN)
    assert await own(db, ANN, T0 + 500) == type(await own(db, ANN, T0 + 500))(None, False)
    assert not await is_listed(db, ANN)
    assert (await team_board(db, TEAM, T0 + 500)).place(ANN) is None
    assert (await own(db, BOB, T0 + 500)).shown.answers == 6


async def test_a_topic_on_the_board_is_the_questions_own_else_the_papers_subject_in_either_script(db):
    await people(db, (ANN, "Ann"), (LEAD, "Lea"))
    await join(db, ANN, T0)
    own_topic = await paper(db, sums("own", 6, topic="机器学习"))  # its questions' own topic
    by_subject = sums("subj", 6)
    by_subject.subject = "數據庫"  # no topic of their own: the paper's subject, in Traditional
    by_subject = await paper(db, by_subject)
    await sit(db, ANN, own_topic, {0, 1}, T0 + 1000)
    await sit(db, ANN, by_subject, {0}, T0 + 2000)
    assert (await team_board(db, TEAM, T0 + 3000)).place(ANN).shown.answers == 12
    assert (await team_board(db, TEAM, T0 + 3000, "機器學習")).place(ANN).shown.answers == 6  # typed Traditional
    assert (await team_board(db, TEAM, T0 + 3000, "数据库")).place(ANN).shown.answers == 6  # typed Simplified
    assert (await team_board(db, TEAM, T0 + 3000, "学习")).place(ANN).shown.answers == 6  # a part of one
    assert (await team_board(db, TEAM, T0 + 3000, "Sums")).place(ANN) is None  # a title is no topic either
