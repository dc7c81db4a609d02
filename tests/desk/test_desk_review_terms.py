"""The review card shows the key terms the provisional score looked for: found ones and missing ones."""

import re

import pytest

from bank.grading.subjective import term_coverage
from bank.paper_store import get_question
from tests.bot.test_leads_flow import ALPHA, LEAD_A, crafted_teams, pending_exam
from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper
from tests.reads import question_ids


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
    short = (await question_ids(env.db, "demo", "short"))[0]  # the exam's written question, at position 1
    terms = (await get_question(env.db, short)).key_terms
    assert terms is not None and len(terms) >= 2
    # Ann's answer names the first key term and nothing else
    await pending_exam(env, c, responses=["my answer 0", f"I think <b>{terms[0]}</b> matters"])
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
