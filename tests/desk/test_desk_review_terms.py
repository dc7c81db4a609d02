"""The review card shows the key terms the provisional score looked for: found ones and missing ones."""

import json
import re

import pytest

from bank.grading.subjective import term_coverage
from tests.bot.test_leads_flow import ALPHA, LEAD_A, crafted_teams, pending_exam
from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper


def test_term_coverage_folds_case_width_and_punctuation():
    assert term_coverage(["梯度", "batch"], "ＢＡＴＣＨ, size!") == (["batch"], ["梯度"])
    assert term_coverage([], "anything") == ([], [])


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path)
    await e.seed(small_paper())
    await e.start()
    e.api.user(LEAD_A, "Lea")
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


async def test_the_review_card_lists_found_and_missing_key_terms(env):
    c = await crafted_teams(env)
    attempt = await pending_exam(env, c)
    qid = await env.db.scalar("SELECT question_id FROM answers WHERE attempt_id=? AND pos=1", (attempt,))
    terms = json.loads(await env.db.scalar("SELECT key_terms FROM questions WHERE id=?", (qid,)))
    assert len(terms) >= 2
    async with env.db.write() as conn:  # Ann's answer names the first key term and nothing else
        await conn.execute("UPDATE answers SET response=? WHERE attempt_id=? AND pos=1",
                           (json.dumps(f"I think <b>{terms[0]}</b> matters"), attempt))
    lea = DeskClient(env)
    try:
        await lea.login(LEAD_A)
        status, html, _ = await lea.get("/desk/review", team=str(ALPHA))
    finally:
        await lea.close()
    assert status == 200
    found = re.findall(r'class="term found"[^>]*>✓ ([^<]+)</mark>', html)
    missing = re.findall(r'class="term missing"[^>]*>✗ ([^<]+)</span>', html)
    assert found == [terms[0]] and missing == terms[1:]
    assert "&lt;b&gt;" in html and "<b>" not in html  # the answer is escaped
