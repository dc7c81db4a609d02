"""The desk's Hiring page over HTTP: a configured admin verifies a team for a hiring paper and undoes
it (audited, with the CSRF token); a group's lead sees no verification there and is refused by form,
and their review queue holds no answer (and no key) of a hiring paper their team is not verified for."""

from __future__ import annotations

import re

import pytest

from proctor.teams import audit
from proctor.teams.curation import update_settings
from tests.bot.test_invites import ADMIN, ALPHA, BETA, CID, LEAD, LEAD_B, finish, make_invite, take
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.harness import T0
from tests.papers_fixture import small_paper
from tests.reads import paper_id, the_attempt

REFERENCE = "不立即更新模型参数"
WRITTEN = "梯度累积是把梯度累加后再更新参数。"


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper(), small_paper("hire"))
    await e.start()
    await update_settings(e.db, "hire", actor=ADMIN, now=T0, invite_only=True)
    for uid, name in ((ADMIN, "Ada"), (LEAD, "Lea"), (LEAD_B, "Bea"), (CID, "Cid")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    e.api.group(BETA, "Beta").set_admins([LEAD_B])
    yield e
    await e.close()


@pytest.fixture
async def browser(env):
    clients = []

    def make():
        clients.append(DeskClient(env))
        return clients[-1]

    yield make
    for c in clients:
        await c.close()


def team_actions(entries) -> list[tuple[str, int, int | None, dict]]:
    return [(e.action, e.actor_id, e.chat_id, e.detail) for e in reversed(entries) if e.action.startswith("team_")]


async def test_an_admin_verifies_and_undoes_on_the_desk_and_an_unverified_lead_reviews_nothing_of_it(env, browser):
    lead = env.api.user(LEAD, "Lea")
    await lead.send("/invites", chat=ALPHA)  # the bot meets the team
    await env.idle()
    admin, lea = browser(), browser()
    await admin.login(ADMIN, "Ada")
    await lea.login(LEAD, "Lea")
    status, html, _ = await admin.get("/desk/hiring")
    assert status == 200 and 'id="none-verified"' in html and '<option value="-100">Alpha</option>' in html
    assert 'href="/desk/hiring?team=all"' in html
    # the hiring papers by their codes and titles, never their slugs
    assert '<option value="P2">P2 Demo paper hire</option>' in html and "(hire)" not in html
    hire = await paper_id(env.db, "hire")
    # a group's lead sees the team's candidates there, not the verifications, and is refused by form;
    # a form without the CSRF token too
    status, html, _ = await lea.get("/desk/hiring")
    assert status == 200 and 'id="verify"' not in html and 'id="none-verified"' not in html
    assert 'href="/desk/hiring?team=-100"' in (await lea.get("/desk/team", team=str(ALPHA)))[1]
    assert (await lea.post("/desk/hiring", {"action": "verify", "team": str(ALPHA), "paper": "hire"}))[0] == 403
    assert (await admin.post("/desk/hiring", {"action": "verify", "team": str(ALPHA), "paper": "hire"},
                             csrf=None))[0] == 403
    assert (await admin.post("/desk/hiring", {"action": "promote", "team": str(ALPHA)}))[0] == 400
    assert team_actions(await audit.recent(env.db, limit=50)) == []
    # verified on the desk: audited, listed, and the team may invite
    status, location = await admin.post("/desk/hiring", {"action": "verify", "team": str(ALPHA), "paper": "hire"})
    assert (status, location) == (303, "/desk/hiring?done=d_hv_verified")
    _, html, _ = await admin.get("/desk/hiring", done="d_hv_verified")
    assert "Verified." in html
    [row] = table_rows(html, "verified")
    assert row[:3] == ["Alpha (-100)", "P2 Demo paper hire", "1"]  # its code and title, never its slug
    assert '<input type="hidden" name="paper" value="P2">' in html  # undone by its code
    cid = env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire")
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    # undone on the desk: the lead's queue has nothing of it, the admin's has it
    status, _ = await admin.post("/desk/hiring", {"action": "unverify", "team": str(ALPHA), "paper": "hire"})
    assert status == 303
    _, html, _ = await admin.get("/desk/hiring")
    assert table_rows(html, "unverified") == [["Alpha (-100)", "P2 Demo paper hire", "1"]]
    _, html, _ = await lea.get("/desk/review", team=str(ALPHA))
    assert 'id="queue-empty"' in html and REFERENCE not in html and WRITTEN not in html
    assert ('<p class="hint" id="withheld">🔒 Written answers on “Demo paper hire” wait for a configured admin: '
            'this team is not verified for that hiring paper.</p>') in html
    _, html, _ = await admin.get("/desk/review", team="all")
    assert REFERENCE in html and WRITTEN in html
    pos = re.search(r'data-pos="(\d+)"', html).group(1)
    # a score posted by hand for that answer is refused too
    attempt = (await the_attempt(env.db, CID)).id
    status, html = await lea.post("/desk/review", {"team": str(ALPHA), "attempt": str(attempt), "pos": pos,
                                                   "score": "5"})
    assert status == 403 and REFERENCE not in html
    assert team_actions(await audit.recent(env.db, limit=50)) == [
        ("team_verify", ADMIN, ALPHA, {"papers": [hire]}), ("team_unverify", ADMIN, ALPHA, {"papers": [hire]})]
    # verified for every hiring paper: the lead's queue has it
    assert (await admin.post("/desk/hiring", {"action": "verify", "team": str(ALPHA), "paper": "all"}))[0] == 303
    _, html, _ = await lea.get("/desk/review", team=str(ALPHA))
    assert REFERENCE in html and WRITTEN in html
