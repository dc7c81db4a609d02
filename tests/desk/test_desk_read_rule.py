"""The desk asks the read rule (proctor/exams/visibility.py) on every page, through a real desk session
over HTTP: a team not verified for a hiring paper reads none of its facts (the Items page, its CSVs,
the candidate page, the team page, the audit log), a verified team reads them, and a team that loses
its verification loses them at its next request. The "similar answer" evidence names another
candidate, and shows their answer, only when the team may see them."""

from __future__ import annotations

import csv
import io
import re

import pytest

from proctor import hiring
from proctor.audit import AuditAction, record_audit
from proctor.exams import service as attempts
from proctor.exams.held import change_detail
from proctor.exams.states import AttemptMode, FinishReason
from proctor.people.users import ensure_user
from proctor.teams import audit
from proctor.teams.curation import confirm_key, update_settings
from proctor.teams.disputes import raise_dispute
from tests.bank.test_quarantine import doubtful_paper
from tests.bot.test_leads_flow import ALPHA, ANN, BOB, LEAD_A, crafted_teams
from tests.desk_helpers import DeskClient, DeskEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_integrity_signals import COPIED, WRITTEN, sit_exam
from tests.reads import paper_id, question_ids
from tests.stored import shown_ref

ADMIN = 1
ZED = 99  # on no team's roster
REASON = "the key should be B, not A"  # a dispute's words name a key
TOPIC = "招聘"  # the hiring paper's sections and subject start with it: no practice paper has such a name


def hiring_paper():
    """A paper with section titles and a subject of its own (the practice paper's sections are the same
    as small_paper's; it has no subject)."""
    paper = small_paper("hire")
    return paper.model_copy(update={"subject": f"{TOPIC}科目",
                                    "sections": [s.model_copy(update={"title": f"{TOPIC}{s.title}"})
                                                 for s in paper.sections]})


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,))
    await e.seed(small_paper(), hiring_paper(), doubtful_paper())
    await e.start()
    for slug in ("hire", "held"):  # exam-only: hiring papers
        await update_settings(e.db, slug, actor=ADMIN, now=e.clock.now(), exam_only=True)
    for uid, name in ((ADMIN, "Boss"), (LEAD_A, "Lea"), (ANN, "Ann"), (BOB, "Bob")):
        e.api.user(uid, name)
    e.api.group(ALPHA, "Alpha").set_admins([LEAD_A])
    await crafted_teams(e)
    yield e
    await e.close()


@pytest.fixture
async def browser(env):
    clients = []

    async def signed_in(user_id: int, name: str) -> DeskClient:
        clients.append(DeskClient(env))
        assert await clients[-1].login(user_id, name) == 200
        return clients[-1]

    yield signed_in
    for c in clients:
        await c.close()


def rows_of(body: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))


async def test_the_items_page_and_its_files_give_a_hiring_papers_facts_to_verified_teams_only(env, browser):
    held = await paper_id(env.db, "held")
    sitting = await attempts.start_attempt(env.db, user_id=ANN, chat_id=ANN, paper_id=held, mode=AttemptMode.exam,
                                           now=env.clock.now(), shuffle=False)  # a dispute needs the question asked
    await attempts.finish_attempt(env.db, sitting.id, env.clock.now(), FinishReason.submitted)
    qids = [i.question_id for i in (await attempts.load_sheet(env.db, sitting.id)).items]
    dispute = await raise_dispute(env.db, question_id=qids[0], user_id=ANN, chat_id=ALPHA, reason=REASON,
                                  now=env.clock.now())
    admin = await browser(ADMIN, "Boss")
    assert (await admin.post("/desk/items", {"action": "uphold", "target": str(dispute)}))[0] == 303
    lea = await browser(LEAD_A, "Lea")
    team = str(ALPHA)

    async def read() -> tuple[str, str, str]:
        status, page, _ = await lea.get("/desk/items", team=team)
        assert status == 200
        items, disputes = (await lea.get("/desk/items.csv", team=team))[1], (await lea.get("/desk/disputes.csv", team=team))[1]
        return page, items, disputes

    def holds_facts(page: str, items: str, disputes: str) -> list[bool]:
        return [any(f'<tr id="q{q}">' in page for q in qids), "speaks for C" in page, "Key now: A" in page,
                REASON in page, any(r["paper"] == "Held paper" for r in rows_of(items)), "speaks for C" in items,
                REASON in disputes]

    # not verified: nothing of the paper, its statistics, doubted key, current key or disputes
    page, items, disputes = await read()
    assert holds_facts(page, items, disputes) == [False] * 7
    assert "Demo paper demo" in page  # the practice paper's rows are there
    status, page, _ = await lea.get("/desk/items", team=team, paper="held")
    assert status == 403 and "“Held paper” is a hiring paper" in page and "speaks for" not in page
    status, body, _ = await lea.get("/desk/items.csv", team=team, paper="held")
    assert status == 403 and "speaks for" not in body
    assert not await audit.recent(env.db, action=AuditAction.key_read)
    # verified: all of it, and the read of its current key is written down
    await hiring.verify(env.db, ALPHA, [held], actor=ADMIN, now=env.clock.now())
    assert holds_facts(*await read()) == [True] * 7
    status, page, _ = await lea.get("/desk/items", team=team, paper="held")
    assert status == 200 and "speaks for C" in page
    read_keys = await audit.recent(env.db, action=AuditAction.key_read)
    assert read_keys and {(e.actor_id, e.chat_id, e.target, tuple(e.detail["questions"])) for e in read_keys} == {
        (LEAD_A, ALPHA, f"paper:{held}", (qids[0],))}
    # undone: gone at the session's next request
    await hiring.unverify(env.db, ALPHA, [held], actor=ADMIN, now=env.clock.now())
    assert holds_facts(*await read()) == [False] * 7
    assert (await lea.get("/desk/items", team=team, paper="held"))[0] == 403
    # a configured admin reads everything (and the key read is audited as the admin's)
    _, page, _ = await admin.get("/desk/items")
    assert "speaks for C" in page and "Key now: A" in page and REASON in page
    assert (ADMIN, None) in {(e.actor_id, e.chat_id) for e in await audit.recent(env.db, action=AuditAction.key_read)}


async def test_the_candidate_page_shows_a_hiring_papers_sitting_to_a_verified_team_until_it_is_undone(env, browser):
    hire = await paper_id(env.db, "hire")
    sat = await sit_exam(env.db, hire, ANN, short=WRITTEN, start=env.clock.now() + 60, step=30)
    lea = await browser(LEAD_A, "Lea")
    query = {"team": str(ALPHA), "user": str(ANN)}

    async def seen() -> tuple[bool, bool]:
        _, page, _ = await lea.get("/desk/candidate", **query)
        _, body, _ = await lea.get("/desk/candidate.csv", **query)
        return f'id="attempt-{sat}"' in page and TOPIC in page, any(r["attempt"] == str(sat) for r in rows_of(body))

    assert await seen() == (False, False)
    await hiring.verify(env.db, ALPHA, [hire], actor=ADMIN, now=env.clock.now())
    assert await seen() == (True, True)  # its sections, per-question results and answers
    _, page, _ = await lea.get("/desk/candidate", **query)
    assert re.findall(r'<li class="cell (\w+)"', page)[:2] == ["correct", "correct"]
    await hiring.unverify(env.db, ALPHA, None, actor=ADMIN, now=env.clock.now())
    assert await seen() == (False, False)


async def test_the_team_page_shows_a_hiring_papers_topics_and_board_to_a_verified_team_only(env, browser):
    hire = await paper_id(env.db, "hire")
    await sit_exam(env.db, hire, ANN, short=WRITTEN, start=env.clock.now() - 3600, step=30)
    lea = await browser(LEAD_A, "Lea")

    async def seen() -> tuple[bool, bool, int]:
        _, page, _ = await lea.get("/desk/team", team=str(ALPHA), period="all")
        _, body, _ = await lea.get("/desk/team.csv", team=str(ALPHA), period="all", table="mastery")
        status, _, _ = await lea.get("/desk/team", team=str(ALPHA), paper="hire")
        return TOPIC in page, TOPIC in body, status

    assert await seen() == (False, False, 403)
    status, page, _ = await lea.get("/desk/team", team=str(ALPHA), paper="hire")
    assert "“Demo paper hire” is a hiring paper" in page and "Ann" not in page
    await hiring.verify(env.db, ALPHA, [hire], actor=ADMIN, now=env.clock.now())
    assert await seen() == (True, True, 200)
    await hiring.unverify(env.db, ALPHA, [hire], actor=ADMIN, now=env.clock.now())
    assert await seen() == (False, False, 403)


async def test_the_audit_log_shows_a_hiring_papers_key_to_its_verified_teams_only(env, browser):
    held = await paper_id(env.db, "held")
    doubted = (await question_ids(env.db, "held", "multi"))[0]  # key AB, held for the doubt
    assert await confirm_key(env.db, doubted, actor=ADMIN, now=env.clock.now(), chat_id=ALPHA)  # in Alpha's chat
    regraded = change_detail(question=doubted, old=7.0, new=5.0, answer_old=2.0, answer_new=0.0, from_version=1,
                             to_version=2)  # and a regrade of Ann's sitting, written from Alpha's chat
    await env.db.run_write(lambda c: record_audit(c, at=env.clock.now(), actor=ADMIN, chat_id=ALPHA,
                                                  action=AuditAction.regrade, target="attempt:1", target_user=ANN,
                                                  **regraded))
    lea = await browser(LEAD_A, "Lea")

    async def shown() -> tuple[bool, bool, bool]:
        _, page, _ = await lea.get("/desk/audit", team=str(ALPHA))
        _, body, _ = await lea.get("/desk/audit.csv", team=str(ALPHA))
        [row] = [r for r in rows_of(body) if r["action"] == "confirm_key"]
        ref = await shown_ref(env.db, doubted)
        assert f"confirmed the key of {ref}" in page and f"on {ref}: answer " in page
        return (f"{ref}: AB" in page, "AB" in row["detail"] or "AB" in row["what"],
                "answer 2 → 0, total 7 → 5" in page)

    assert await shown() == (False, False, False)
    _, page, _ = await lea.get("/desk/audit", team=str(ALPHA))
    assert f"{await shown_ref(env.db, doubted)}: 🔒" in page and "answer 🔒 → 🔒, total 🔒 → 🔒" in page
    await hiring.verify(env.db, ALPHA, [held], actor=ADMIN, now=env.clock.now())
    assert await shown() == (True, True, True)
    assert {(e.actor_id, e.target) for e in await audit.recent(env.db, action=AuditAction.key_read)} == {
        (LEAD_A, f"paper:{held}")}
    await hiring.unverify(env.db, ALPHA, [held], actor=ADMIN, now=env.clock.now())
    assert await shown() == (False, False, False)


async def test_a_similar_answer_shows_another_candidates_answer_only_when_the_team_may_see_them(env, browser):
    await ensure_user(env.db, ZED, "Zed", None, env.clock.now())
    demo, start = await paper_id(env.db, "demo"), env.clock.now() + 60
    ann = await sit_exam(env.db, demo, ANN, short=WRITTEN, start=start, step=60)
    await sit_exam(env.db, demo, ZED, short=COPIED, start=start, step=60)  # Zed copied Ann's answer
    lea = await browser(LEAD_A, "Lea")
    status, page, _ = await lea.get("/desk/candidate", team=str(ALPHA), user=str(ANN))
    assert status == 200 and f'id="signals-{ann}"' in page
    [line] = re.findall(r'<li class="signal similar">(.*?)</li>', page, re.S)
    assert "near-identical" in line and "another candidate&#39;s" in line
    assert COPIED not in page and "Zed" not in page and 'class="side-by-side"' not in page
    admin = await browser(ADMIN, "Boss")  # every team: the configured admins see whom and what
    _, page, _ = await admin.get("/desk/candidate", team="all", user=str(ANN))
    assert COPIED in page and "to Zed&#39;s" in page


async def test_a_lead_sitting_a_paper_reads_none_of_its_results_doubts_or_disputes_until_handing_in(env, browser):
    demo = await paper_id(env.db, "demo")
    ann = await sit_exam(env.db, demo, ANN, short=WRITTEN, start=env.clock.now() + 60, step=30)
    qid = (await question_ids(env.db, "demo"))[0]
    await raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ALPHA, reason=REASON, now=env.clock.now())
    lea = await browser(LEAD_A, "Lea")

    async def seen() -> tuple[int, bool, bool]:
        _, page, _ = await lea.get("/desk/candidate", team=str(ALPHA), user=str(ANN))
        assert f'id="attempt-{ann}"' in page  # the sitting and its sections stay
        _, items, _ = await lea.get("/desk/items", team=str(ALPHA))
        return len(re.findall(r'<li class="cell ', page)), REASON in page, REASON in items

    cells, *_ = before = await seen()
    assert cells > 0 and before == (cells, True, True)
    sitting = await attempts.start_attempt(env.db, user_id=LEAD_A, chat_id=LEAD_A, paper_id=demo, mode="exam",
                                           now=env.clock.now(), shuffle=False)  # Lea sits the paper herself
    assert await seen() == (0, False, False)
    await attempts.finish_attempt(env.db, sitting.id, env.clock.now() + 1, "submitted")
    assert await seen() == before
