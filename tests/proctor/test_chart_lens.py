"""The team chart's accuracy by paper follows the read rule (proctor/exams/visibility.py): posted in a
group (its audience's lens) it shows no hiring paper; a lead's own (the desk) shows one once the team
is verified for it."""

from __future__ import annotations

import pytest

from proctor import hiring
from proctor.exams.visibility import AUDIENCE, Role, Viewer, lens
from proctor.local_time import zone
from proctor.teams.charts import chart_data
from proctor.teams.leaderboard import period_bounds
from tests.proctor.test_leads_data import Crafted


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

TEAM, ANN, LEAD = -7, 1, 9


async def test_a_chart_in_a_group_shows_no_hiring_paper(db):
    c = Crafted(db)
    await c.group(TEAM, members=(ANN,))
    await c.roster(TEAM, ANN)
    practice, pq = await c.paper("open")
    hire, hq = await c.paper("hire")
    await db.run_write(lambda conn: conn.execute("UPDATE papers SET exam_only=1 WHERE id=?", (hire,)))
    for pid, qs in ((practice, pq), (hire, hq)):  # Ann's exams on both
        await c.exam(ANN, pid, [(qs[0][0], 1, 1, 1)], 100, 200)
    period = period_bounds("all", 10_000, zone("UTC"))

    async def charted(viewer) -> list[str]:
        return [title for title, *_ in (await chart_data(db, await lens(db, viewer, TEAM), period, "t")).papers]

    assert await charted(AUDIENCE) == ["Paper open"]
    assert await charted(Viewer(Role.lead, LEAD)) == ["Paper open"]  # a lead not verified for it
    await hiring.verify(db, TEAM, [hire], actor=0, now=0)
    assert await charted(Viewer(Role.lead, LEAD)) == ["Paper open", "Paper hire"]
    assert await charted(AUDIENCE) == ["Paper open"]  # a group's post: never a hiring paper
