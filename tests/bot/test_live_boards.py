"""Live-round points on the group's boards: /leaderboard live, the desk's team page (its own
column), and each round's podium in /report live."""

from __future__ import annotations

import re

import pytest

from proctor.live.plan import COUNTDOWN
from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A, crafted_teams, say
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.live_support import live_paper, polls, right_options, tick
from tests.papers_fixture import small_paper


@pytest.fixture
async def env(tmp_path, db_location):
    e = DeskEnv(tmp_path, location=db_location, shuffle=False)
    await e.seed(small_paper(), live_paper("live", 4))
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def _play(env) -> None:
    """A one-question round in Alpha: Ann right at once (1000), Bob wrong."""
    await crafted_teams(env)
    lead, group = env.api.user(LEAD_A, "Lea"), env.api.group(ALPHA)
    await lead.send("/live live 1q 10s", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    await tick(env, COUNTDOWN)
    poll = polls(env, ALPHA)[-1]
    await env.api.user(ANN, "Ann").answer_poll(poll, right_options(poll))
    await env.api.user(BOB, "Bob").answer_poll(poll, [i for i in range(3) if i not in right_options(poll)][:1])
    await env.idle()
    await tick(env, 10)


async def test_leaderboard_live_ranks_live_points_and_the_daily_board_stays_daily(env):
    await _play(env)
    ann = env.api.user(ANN, "Ann")
    lines = (await say(env, ann, "/leaderboard live all", chat=ALPHA)).text.splitlines()
    assert lines[1] == "Live-round points; ties: who got there first."
    assert [ln for ln in lines if ln[:2] in ("1.", "2.")] == ["1. Ann — 1000 · 1/1 right", "2. Bob — 0 · 0/1 right"]
    assert lines[-1] == "You: #1 of 2 — 1000"
    daily = (await say(env, ann, "/leaderboard all", chat=ALPHA)).text
    assert "1000" not in daily and "Daily-quiz points" in daily


async def test_report_live_shows_each_rounds_podium(env):
    await _play(env)
    lead = env.api.user(LEAD_A, "Lea")
    text = (await say(env, lead, "/report live", chat=ALPHA)).text
    assert text.startswith("🏁 Live rounds · Alpha · this month")
    assert "🥇 Ann 1000" in text and "Bob 0" not in text  # no medal for 0 points
    assert re.search(r"\n\d{4}-\d\d-\d\d \d\d:\d\d UTC: 🥇 Ann", text), text  # the team's zone, named
    member = env.api.user(BOB, "Bob")
    assert "lead" in (await say(env, member, "/report live", chat=ALPHA)).text.lower()


async def test_the_desk_team_page_has_a_live_column(env):
    await _play(env)
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        _, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="all")
        assert "<th data-type=\"num\">Live</th>" in html
        rows = {r[1]: r for r in table_rows(html, "board")}
        assert rows["Ann"][6] == "1000" and rows["Bob"][6] == "0" and rows["Lea"][6] == "0"
    finally:
        await lea.close()
