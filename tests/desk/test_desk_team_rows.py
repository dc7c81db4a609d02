"""The team page shows the first rows of the leaderboard (a phone screen) and links to everyone;
who has not practised this week is still counted over the whole team."""

import pytest

import desk.team
from tests.bot.test_leads_flow import ALPHA, LEAD_A, crafted_teams
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.papers_fixture import small_paper


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path)
    await e.seed(small_paper())
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def test_the_first_rows_then_everyone(env, monkeypatch):
    c = await crafted_teams(env)
    await c.member(ALPHA, 77)
    await c.roster(ALPHA, 77)  # on the team, never answered
    env.in_group(ALPHA, (77, "u77"))
    monkeypatch.setattr(desk.team, "SHOWN", 2)
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        _, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="all")
        assert [r[1] for r in table_rows(html, "board")] == ["Bob", "Ann"]
        assert "Show everyone (1 more)" in html and "Not practised this week: 1" in html
        _, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="all", rows="all")
        assert [r[1] for r in table_rows(html, "board")] == ["Bob", "Ann", "Lea"] and 'id="show-all"' not in html
        _, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="week")
        assert "Not practised this week: 1" in html
    finally:
        await lea.close()
