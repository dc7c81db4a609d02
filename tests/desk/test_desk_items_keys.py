"""The desk's Items page: questions held out of use are shown and an admin confirms their key (the
/bankstats and `proctor bank confirm` function); an upheld dispute leads to the key fix with the
regrade (/keyfix's function), and the candidates are told in the chat."""

import re

import pytest

from bank.paper_store import get_question
from bank.question_checks import held_questions
from bot.outbox import flush
from proctor.daily.candidates import candidates
from proctor.teams import audit
from proctor.teams.disputes import raise_dispute
from tests.bank.test_quarantine import doubtful_paper
from tests.bot.test_leads_flow import ALPHA, ANN, LEAD_A, crafted_teams, questions
from tests.desk_helpers import DeskClient, DeskEnv
from tests.harness import attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import question_ids
from tests.stored import shown_ref

ADMIN = 1


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper(), doubtful_paper())
    await e.start()
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (ANN, "Ann")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    yield e
    await e.close()


@pytest.fixture
async def clients(env):
    made = []

    def make():
        made.append(DeskClient(env))
        return made[-1]

    yield make
    for c in made:
        await c.close()


async def test_held_questions_are_shown_and_an_admin_confirms_the_key(env, clients):
    await crafted_teams(env)
    held = next(h.question_id for h in await held_questions(env.db) if h.held == "key")
    assert held not in {c.id for c in await candidates(env.db)}
    lea, admin = clients(), clients()
    await lea.login(LEAD_A)
    await admin.login(ADMIN, "Boss")
    _, html, _ = await lea.get("/desk/items", team=str(ALPHA), paper="held")
    row = re.search(rf'<tr id="q{held}">(.*?)</tr>', html, re.S).group(1)
    assert "held: key in doubt" in row and 'value="confirm_key"' not in row  # group admins only look
    assert "speaks for C, in the bank&#39;s letters" in row  # a doubt names the bank's letters, and says so
    assert (await lea.post("/desk/items", {"action": "confirm_key", "target": str(held)}))[0] == 403
    _, html, _ = await admin.get("/desk/items", paper="held")
    row = re.search(rf'<tr id="q{held}">(.*?)</tr>', html, re.S).group(1)
    assert 'value="confirm_key"' in row
    dup = re.search(r'<tr id="q\d+">((?:(?!</tr>).)*held: same stem as P\d+ · Q\d+(?:(?!</tr>).)*)</tr>', html, re.S)
    assert dup and 'value="confirm_key"' not in dup.group(1)  # a duplicate stays asked once
    status, location = await admin.post("/desk/items", {"action": "confirm_key", "target": str(held),
                                                        "paper": "held"})
    assert status == 303 and "done=d_it_key_confirmed" in location
    _, html, _ = await admin.get(location)
    assert "Key confirmed: the question is asked again." in html
    assert held in {c.id for c in await candidates(env.db)}
    [entry] = await audit.recent(env.db, limit=1)
    assert (entry.actor_id, entry.action) == (ADMIN, "confirm_key")
    status, location = await admin.post("/desk/items", {"action": "confirm_key", "target": str(held)})
    assert "done=d_it_key_not_held" in location  # once


async def test_upholding_a_dispute_leads_to_the_key_fix_and_the_candidates_are_told(env, clients):
    await crafted_teams(env)
    qid = (await questions(env))[0]  # Ann answered A in the daily quiz and scored 1
    dispute = await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason="B is right",
                                  now=env.clock.now())
    admin = clients()
    await admin.login(ADMIN, "Boss")
    status, location = await admin.post("/desk/items", {"action": "uphold", "target": str(dispute)})
    assert status == 303
    _, html, _ = await admin.get(location)
    assert "Dispute upheld." in html and f'id="fix-{dispute}"' in html and "Key now: C" in html
    status, csv = (await admin.get("/desk/disputes.csv"))[:2]
    assert status == 200 and f"{dispute},{qid}," in csv and ",upheld,B is right" in csv
    # without the session's CSRF token: refused, nothing changes
    assert (await admin.post("/desk/items", {"action": "key_fix", "target": str(dispute), "key": "B"},
                             csrf=None))[0] == 403
    # a key the question cannot have: refused with the reason, nothing changes
    status, html = await admin.post("/desk/items", {"action": "key_fix", "target": str(dispute), "key": "Z"})
    assert status == 400 and "doesn&#39;t fit the question" in html
    assert (await get_question(env.db, qid)).answer == "C"
    status, location = await admin.post("/desk/items", {"action": "key_fix", "target": str(dispute), "key": "B",
                                                        "kind": "key"})
    assert status == 303 and "done=d_it_key_fixed" in location
    _, html, _ = await admin.get(location)
    assert f'id="fix-{dispute}"' not in html  # fixed: off the list
    assert (await get_question(env.db, qid)).answer == "B"
    told = await env.api.user(ANN, "Ann").wait_message(lambda m: "was upheld" in (m.text or ""))
    assert f"dispute #{dispute}" in told.text and "1 → 0" in told.text
    q = (await get_question(env.db, qid)).source  # the question as she met it: its reference and paper
    assert f"on {await shown_ref(env.db, qid)} ({q.paper_title}) was upheld" in told.text, told.text
    actions = [e.action for e in reversed(await audit.recent(env.db, limit=100))]
    assert actions == ["dispute_upheld", "key_fix"]


async def test_the_desks_key_fix_waits_for_an_uphold_and_for_a_running_exams_hand_in(env, clients):
    await crafted_teams(env)
    qid = (await questions(env))[0]  # Ann answered it in the daily quiz and scored 1
    dispute = await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason="B is right",
                                  now=env.clock.now())
    admin = clients()
    await admin.login(ADMIN, "Boss")
    status, html = await admin.post("/desk/items", {"action": "key_fix", "target": str(dispute), "key": "B"})
    assert status == 409 and "still open: uphold it first" in html  # an open dispute is upheld first
    assert (await get_question(env.db, qid)).answer == "C"
    assert (await admin.post("/desk/items", {"action": "uphold", "target": str(dispute)}))[0] == 303
    ann = env.api.user(ANN, "Ann")
    await start_exam(env, ann)  # Ann sits the paper: nothing about its keys reaches her before she hands in
    status, _ = await admin.post("/desk/items", {"action": "key_fix", "target": str(dispute), "key": "B"})
    assert status == 303 and (await get_question(env.db, qid)).answer == "B"
    await flush(env.app)  # every notice due now is sent when this returns
    assert not [m for m in ann.chat() if "upheld" in (m.text or "")]
    await ann.press(attempt_message(ann.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in ann.chat() if "Yes, finish" in m.button_texts and not m.deleted), None),
        what="the finish question")
    await ann.press(confirm, "Yes, finish")
    told = await ann.wait_message(lambda m: "was upheld" in (m.text or ""))
    assert f"dispute #{dispute}" in told.text and "1 → 0" in told.text


async def test_the_items_page_says_a_question_s_flags_in_words(env, clients):
    truncated = (await question_ids(env.db, "demo", "short"))[1]  # small_paper's cut-off question
    admin = clients()
    await admin.login(ADMIN, "Boss")
    _, html, _ = await admin.get("/desk/items", paper="demo")
    row = re.search(rf'<tr id="q{truncated}">(.*?)</tr>', html, re.S).group(1)
    assert '<td class="flags">cut off</td>' in row and "truncated" not in row
