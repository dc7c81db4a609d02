"""The desk's Hiring page lists every invited candidate of the lead's team, one row each, with the
same data as `/report invites` (its CSV is that report's): score, sections (withheld from a team not
verified for the hiring paper), time used, extra time, signals and the invite's history, in the
lead's language and the team's time zone."""

from __future__ import annotations

import csv
import io
import re

from proctor import hiring
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, finish, make_invite, take
from tests.desk.test_desk_hiring import browser, env  # noqa: F401 (fixtures)
from tests.desk_helpers import table_rows
from tests.reads import paper_id

SECTION = "单项选择题"


async def _sat(e):
    """Alpha (verified) invited Cid with 15 minutes' extra time; Cid sat 9 minutes. Returns the lead."""
    await hiring.verify(e.db, ALPHA, [await paper_id(e.db, "hire")], actor=ADMIN, now=e.clock.now())
    lead, cid = e.api.user(LEAD, "Lea"), e.api.user(CID, "Cid")
    payload, _ = await make_invite(e, lead, "hire +15m")
    await make_invite(e, lead, "hire")  # not opened yet
    await take(e, cid, payload)
    e.clock.advance(9 * 60)
    await finish(e, cid)
    return lead


async def test_a_lead_sees_one_row_per_candidate_and_an_unverified_team_sees_no_sections(env, browser):  # noqa: F811
    await _sat(env)
    lea, admin = browser(), browser()
    await lea.login(LEAD, "Lea")
    await admin.login(ADMIN, "Ada")
    status, html, _ = await lea.get("/desk/hiring", team=str(ALPHA))
    assert status == 200
    rows = table_rows(html, "candidates")
    assert [r[:5] for r in rows] == [["2", "—", "P2 Demo paper hire", "⚪ open", ""],
                                     ["1", "Cid", "P2 Demo paper hire", "🟢 finished", rows[1][4]]]
    _, _, _, _, score, ability, sections, used, extra, signals, history = rows[1]
    assert re.fullmatch(r"\d+ \(very likely \d+–\d+\)", ability), ability
    assert score.endswith("/15") and sections.startswith(f"{SECTION} ") and used == "0:09:00"
    assert (extra, signals) == ("+15 min", "0")
    assert history == ("2027-01-15 08:00 UTC created, +15 min extra time2027-01-15 08:00 UTC link opened"
                       "2027-01-15 08:00 UTC started2027-01-15 08:09 UTC handed in: " + score)
    # the same rows as the report: its CSV
    status, body, headers = await lea.get("/desk/hiring.csv", team=str(ALPHA))
    assert status == 200 and headers["Content-Disposition"] == 'attachment; filename="invites-Alpha.csv"'
    [second, first] = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert (first["invite"], first["time_used"], first["extra_min"], first["sections"]) == (
        "1", "0:09:00", "15", sections)
    # unverified: the total, never the sections (on the page and in its CSV); the admin still sees them
    await hiring.unverify(env.db, ALPHA, None, actor=ADMIN, now=env.clock.now())
    _, html, _ = await lea.get("/desk/hiring", team=str(ALPHA))
    row = table_rows(html, "candidates")[1]
    assert row[4] == score and row[6] == "🔒 for verified teams" and SECTION not in html
    _, body, _ = await lea.get("/desk/hiring.csv", team=str(ALPHA))
    assert SECTION not in body and list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))[1]["score"]
    _, html, _ = await admin.get("/desk/hiring", team="all")
    assert table_rows(html, "candidates")[1][6] == sections and 'id="verify"' in html


async def test_the_rows_in_chinese(env, browser):  # noqa: F811
    await _sat(env)
    lea = browser()
    await lea.login(LEAD, "Lea", lang="zh")
    _, html, _ = await lea.get("/desk/hiring", team=str(ALPHA))
    row = table_rows(html, "candidates")[1]
    assert row[3] == "🟢 已完成" and row[8] == "+15 分钟"
    assert row[10].startswith("2027-01-15 08:00 UTC 创建，延长 15 分钟2027-01-15 08:00 UTC 打开链接")
    assert "受邀候选人 · Alpha" in html
