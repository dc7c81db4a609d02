"""Times on the desk have one formatter (proctor/local_time.py): a page tells a moment in the team's
zone (the desk's default for every team), the zone named; a CSV cell holds it in ISO 8601 with its
offset. The bot here runs in Asia/Shanghai: T0 (08:00 UTC) is 16:00 CST."""

from __future__ import annotations

import csv
import io

import pytest

from proctor import hiring
from proctor.local_time import iso, moment, time_of_day, zone
from proctor.teams.curation import update_settings
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, finish, make_invite, take
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.harness import T0
from tests.papers_fixture import small_paper
from tests.reads import paper_id

SHANGHAI = "Asia/Shanghai"


def test_one_formatter_for_screens_and_files():
    tz = zone(SHANGHAI)
    assert moment(T0, tz) == "2027-01-15 16:00 CST"
    assert time_of_day(T0 + 5, tz) == "16:00:05 CST"
    assert iso(T0, tz) == "2027-01-15T16:00:00+08:00" and iso(None, tz) == ""


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,), timezone=SHANGHAI)
    await e.seed(small_paper(), small_paper("hire"))
    await e.start()
    await update_settings(e.db, "hire", actor=ADMIN, now=T0, invite_only=True)
    for uid, name in ((ADMIN, "Ada"), (LEAD, "Lea"), (CID, "Cid")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


async def test_the_desk_tells_times_in_the_teams_zone_and_its_files_in_iso_with_the_offset(env):
    await hiring.verify(env.db, ALPHA, [await paper_id(env.db, "hire")], actor=ADMIN, now=env.clock.now())
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire")
    await take(env, cid, payload)
    env.clock.advance(9 * 60)
    await finish(env, cid)
    admin = DeskClient(env)
    try:
        await admin.login(ADMIN, "Ada")
        _, html, _ = await admin.get("/desk/hiring", team=str(ALPHA))
        history = table_rows(html, "candidates")[0][-1]
        assert history.startswith("2027-01-15 16:00 CST created") and "16:09 CST handed in" in history, history
        _, body, _ = await admin.get("/desk/hiring.csv", team=str(ALPHA))
        [row] = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
        assert (row["created_at"], row["finished_at"]) == ("2027-01-15T16:00:00+08:00", "2027-01-15T16:09:00+08:00")
        assert row["history"].startswith("created 2027-01-15T16:00:00+08:00") and "UTC" not in body
        _, html, _ = await admin.get("/desk/candidate", team="all", user=str(CID))
        assert "2027-01-15 16:09 CST · " in html and "UTC" not in html
        _, body, _ = await admin.get("/desk/candidate.csv", team="all", user=str(CID))
        assert {r["finished_at"] for r in csv.DictReader(io.StringIO(body.lstrip("\ufeff")))} == {
            "2027-01-15T16:09:00+08:00"}
        _, html, _ = await admin.get("/desk/items", team="all")
        assert "Figures as of 2027-01-15 16:" in html and " CST (refreshed" in html and "UTC" not in html
    finally:
        await admin.close()
