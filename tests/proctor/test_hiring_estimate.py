"""A hiring sitting's ability estimate (proctor/exams/ability.py): the invite report and the inviting
lead's card read it at report time against the questions' difficulties as answers outside the round
measured them (priors where none counted), the same for every candidate: a candidate's answers move no
question, so who sat first changes nobody's estimate. Shown only where the read rule shows the lead
per-question results."""

from __future__ import annotations

import pytest

from proctor import hiring
from proctor.exams import invited
from proctor.exams.states import AttemptMode
from proctor.exams.visibility import Role, Viewer
from proctor.invite_cards import load_lead_card
from proctor.invites import store
from proctor.invites_report import candidates
from proctor.storage.db import Database
from tests.rating_world import LEAD, T0, TEAM, join, paper, people, sit, sums
from tests.reads import held_ratings, lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ADMIN, X, Y = 50, 7, 8
CALIBRATION = {1: {0, 1, 2, 3}, 2: {0, 1}, 3: {0, 1, 2, 3, 4}}  # who sat it through /exam, right where


async def _round(db, order: tuple[int, ...]) -> dict[int, tuple[int, int, int]]:
    """Three people sit the hiring paper through /exam; then the candidates in `order` sit it by invite
    (X four right of six, Y two). Each candidate's estimate with its band, from the report as each one's
    sitting ended and at the end (they must agree), the questions unmoved by the round."""
    await people(db, *((u, f"p{u}") for u in (*CALIBRATION, X, Y, LEAD)))
    hire = await paper(db, sums("hire", 6, exam_only=True))
    for u, right in CALIBRATION.items():
        await sit(db, u, hire, right, T0 + 1000 * u)
    before = await held_ratings(db)
    estimates: dict[int, tuple[int, int, int]] = {}
    for n, who in enumerate(order):
        [(invite, token)] = await store.create(db, paper_id=hire, team=None, lead=ADMIN, now=T0 + 10_000 * (n + 1),
                                               window=3600, admin=True)
        await invited.open_link(db, token, user_id=who, username=None, now=T0 + 10_000 * (n + 1))
        await sit(db, who, hire, {0, 1, 2, 3} if who == X else {0, 1}, T0 + 10_000 * (n + 1), mode=AttemptMode.exam,
                  invite_id=invite.id)
        rows = {c.invite.candidate_id: c.ability for c in await candidates(db, await lead_lens(db, None), T0 + 99_999)}
        for uid, ability in rows.items():
            assert ability is not None
            estimates.setdefault(uid, (ability.rating, ability.low, ability.high))
            assert estimates[uid] == (ability.rating, ability.low, ability.high)  # the same whenever read
    assert await held_ratings(db) == before  # the round moved no question, and rated nobody
    return estimates


async def test_every_candidate_is_read_against_the_same_difficulties_whoever_sat_first(db, tmp_path):
    first = await _round(db, (X, Y))
    other = await Database.open(tmp_path / "other.db")
    try:
        second = await _round(other, (Y, X))
    finally:
        await other.close()
    assert first == second
    (x, x_low, x_high), (y, y_low, y_high) = first[X], first[Y]
    assert x > y and x_low < x < x_high and y_low < y < y_high  # four right of six beats two, each with its band


async def test_the_card_shows_the_estimate_only_to_a_team_that_may_read_per_question_results(db):
    await people(db, (X, "Xi"), (LEAD, "Lea"), (1, "p1"))
    hire = await paper(db, sums("hire", 4, exam_only=True))
    await join(db, LEAD, T0)
    await hiring.verify(db, TEAM, [hire], actor=ADMIN, now=T0)
    [(invite, token)] = await store.create(db, paper_id=hire, team=TEAM, lead=LEAD, now=T0, window=3600)
    await invited.open_link(db, token, user_id=X, username=None, now=T0)
    attempt = await sit(db, X, hire, {0, 1}, T0 + 10, invite_id=invite.id)
    card = await load_lead_card(db, attempt, invite.id, Viewer(Role.lead, LEAD))
    assert card.ability is not None and card.ability.low < card.ability.rating < card.ability.high
    assert [c.ability for c in await candidates(db, await lead_lens(db, TEAM, LEAD), T0 + 500)] == [card.ability]
    await hiring.unverify(db, TEAM, [hire], actor=ADMIN, now=T0 + 1000)  # which answers were right is theirs no more
    assert (await load_lead_card(db, attempt, invite.id, Viewer(Role.lead, LEAD))).ability is None
    assert [c.ability for c in await candidates(db, await lead_lens(db, TEAM, LEAD), T0 + 1500)] == [None]
