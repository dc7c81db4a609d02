"""The Items page reads question statistics from a cache (bank.item_stats.refresh_cache /
cached_stats): the same figures as item_stats, computed on the first visit and refreshed in the
background once older than ten minutes; a question's status is read live."""

import re

import pytest

from bank.item_stats import cached_stats
from proctor.teams.item_stats import item_stats, refresh_cache
from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A, crafted_teams, questions
from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper

ADMIN = 1


async def test_cached_stats_are_item_stats_as_of_their_refresh(db):
    from tests.papers_fixture import save_paper

    await save_paper(db, small_paper(), 0)
    assert (await cached_stats(db))[1] is None
    await refresh_cache(db, 100.0)
    stats, at = await cached_stats(db)
    assert at == 100.0 and stats == await item_stats(db)


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper())
    await e.start()
    e.api.user(ADMIN, "Boss")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


def responses(html: str, qid: int) -> str:
    return re.findall(r"<td>(\d+)</td>", re.search(rf'<tr id="q{qid}">(.*?)</tr>', html, re.S).group(1))[0]


async def test_the_items_page_refreshes_stale_figures_in_the_background(env):
    c = await crafted_teams(env)
    q = (await questions(env))[0]
    admin = DeskClient(env)
    try:
        await admin.login(ADMIN, "Boss")
        _, html, _ = await admin.get("/desk/items")
        before = responses(html, q)
        assert int(before) > 0 and "Figures as of" in html
        await c.daily(ALPHA, "2027-01-16", [q], [(ANN, 0, 1, 1), (BOB, 0, 0, 2)])
        _, html, _ = await admin.get("/desk/items")
        assert responses(html, q) == before  # fresh enough: the cache
        # a retirement shows at once: the status is not cached
        await admin.post("/desk/items", {"action": "retire", "target": str(q)})
        _, html, _ = await admin.get("/desk/items")
        assert 'value="restore"' in re.search(rf'<tr id="q{q}">(.*?)</tr>', html, re.S).group(1)
        env.clock.advance(601)
        _, html, _ = await admin.get("/desk/items")  # stale: shown, and refreshed behind it
        assert responses(html, q) == before
        await env.desk_context.stats_refresh
        _, html, _ = await admin.get("/desk/items")
        assert int(responses(html, q)) == int(before) + 2
    finally:
        await admin.close()
