"""The desk's "Mastery by topic" on the bundled bank: its columns are topics (a question's own, else its
paper's subject: 梯度累积, 混合精度数值稳定性, …), never a section's heading (二、单项选择题), on the
page and in its CSV."""

import csv
import io
import re

import pytest

from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.harness import T0
from tests.proctor.test_leads_data import Crafted


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path)  # the bundled bank
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def _singles(env: DeskEnv, code: str) -> list[int]:
    rows = await env.db.fetchall("SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id "
                                 "WHERE p.code=? AND q.kind='single' ORDER BY q.id LIMIT 2", (code,))
    return [r[0] for r in rows]


async def test_the_mastery_columns_are_the_bundled_papers_subjects(env):
    c = Crafted(env.db)
    for uid, name in ((ANN, "Ann"), (BOB, "Bob")):
        await c.user(uid, name)
    await c.group(ALPHA, "Alpha", members=(LEAD_A, ANN, BOB))
    await c.roster(ALPHA, ANN, BOB)
    env.in_group(ALPHA, (LEAD_A, "Lea"), (ANN, "Ann"), (BOB, "Bob"))
    qids = await _singles(env, "P1") + await _singles(env, "P3")
    await c.daily(ALPHA, "2027-01-15", qids, [(ANN, pos, 1, T0 - 600 + pos) for pos in range(4)]
                  + [(BOB, pos, 0, T0 - 300 + pos) for pos in range(4)])
    sections = {r[0] for r in await env.db.fetchall("SELECT title FROM sections")}
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        status, html, _ = await lea.get("/desk/team", team=str(ALPHA), period="all")
        assert status == 200
        heads = re.findall(r'<th data-type="num">([^<]*)</th>', re.search(
            r'<table id="heatmap".*?</thead>', html, re.S).group(0))
        assert heads == ["梯度累积", "混合精度数值稳定性"]
        assert not any(title in html for title in sections)
        assert {row[0]: row[1:] for row in table_rows(html, "heatmap")} == {"Ann": ["100%", "100%"],
                                                                            "Bob": ["0%", "0%"]}
        _, body, _ = await lea.get("/desk/team.csv", team=str(ALPHA), period="all", table="mastery")
        assert next(csv.reader(io.StringIO(body.lstrip("\ufeff")))) == ["user_id", "name", "梯度累积", "混合精度数值稳定性"]
    finally:
        await lea.close()
