"""proctor/teams/consent.py: every roster-scoped view shows a member's record made after they joined,
while they are in the group, and nothing of one who was only invited; leaving the group ends consent,
so nothing done while away (or before) is shown once they are back and consent again."""

from __future__ import annotations

import pytest

from proctor.exams.visibility import Role, Viewer, lens
from proctor.teams import consent, reports, review, roster
from proctor.teams import leaderboard as lb
from proctor.teams.candidate import attempts as record_of
from proctor.teams.roster import Outcome, Standing
from tests.proctor.test_leads_data import Crafted
from tests.reads import lead_lens


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

TEAM, LEAD, ANN = -7, 9, 1


async def views(db, paper_id: int) -> dict[str, object]:
    """What the team's lead sees of Ann in each view."""
    period = lb.period_bounds("all", 10_000, lb.zone("UTC"))
    _, rows = await reports.team_rows(db, await lead_lens(db, TEAM), period)
    pending = await review.next_pending(db, await lens(db, Viewer(Role.lead, LEAD), TEAM), now=1)
    since = await consent.seen_since(db, TEAM, ANN)
    return {
        "review": None if pending is None else pending.remaining,
        "report": [(r.user_id, r.exams) for r in rows],
        "board": [r.user_id for r in await lb.paper_board(db, paper_id, [TEAM], invited=True)],
        "desk": None if since is None else len(await record_of(db, ANN, await lens(db, Viewer(Role.lead, LEAD), TEAM), since=since)),
    }


async def test_what_a_team_sees_of_a_member_follows_consent_the_join_and_the_group(db):
    c = Crafted(db)
    await c.group(TEAM, members=(ANN,))
    pid, qs = await c.paper(sections=(("short", 1),), points=(5.0,))
    await c.exam(ANN, pid, [(qs[0][0], 2, 5, 0)], 100, 160)  # before she joined
    await c.roster(TEAM, ANN, joined_at=None)  # invited, never agreed (or added before consent was asked)
    assert await views(db, pid) == {"review": None, "report": [], "board": [], "desk": None}
    await c.roster(TEAM, ANN, joined_at=200)  # she joined at 200
    assert await views(db, pid) == {"review": None, "report": [(ANN, 0)], "board": [], "desk": 0}
    await c.exam(ANN, pid, [(qs[0][0], 3, 5, 0)], 300, 360)  # after
    assert await views(db, pid) == {"review": 1, "report": [(ANN, 1)], "board": [ANN], "desk": 1}
    # Telegram says she left the group: her consent ends, she drops off every view
    assert await consent.due_checks(db, TEAM, now=400) == [ANN]
    await consent.record_checks(db, TEAM, {ANN: False}, now=400)
    assert await consent.due_checks(db, TEAM, now=400 + consent.CHECK_EVERY - 1) == []
    assert await views(db, pid) == {"review": None, "report": [], "board": [], "desk": None}
    assert await roster.standing(db, TEAM, ANN) is Standing.invited
    await c.exam(ANN, pid, [(qs[0][0], 4, 5, 0)], 500, 560)  # while she is away
    # back in the group: Telegram saying so changes nothing (she is not asked about again)
    assert await consent.due_checks(db, TEAM, now=400 + 2 * consent.CHECK_EVERY) == []
    await consent.record_checks(db, TEAM, {ANN: True}, now=400 + 2 * consent.CHECK_EVERY)
    assert await views(db, pid) == {"review": None, "report": [], "board": [], "desk": None}
    # she consents again: seen from then on, nothing before it (away or not)
    back = 400 + 2 * consent.CHECK_EVERY + 10
    assert await roster.request(db, TEAM, ANN, in_group=True, now=back) is Outcome.joined
    assert await views(db, pid) == {"review": None, "report": [(ANN, 0)], "board": [], "desk": 0}
    await c.exam(ANN, pid, [(qs[0][0], 5, 5, 0)], back + 100, back + 160)
    assert await views(db, pid) == {"review": 1, "report": [(ANN, 1)], "board": [ANN], "desk": 1}
    # and she takes herself off: nothing at all
    assert await roster.leave(db, TEAM, ANN, now=back + 200)
    assert await views(db, pid) == {"review": None, "report": [], "board": [], "desk": None}
    assert not await roster.leave(db, TEAM, ANN, now=back + 201)
