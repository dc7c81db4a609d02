"""Upholding a dispute opens the key fix: a new key version, everyone who answered regraded in one
transaction, the disputer and whoever's score changed told (outbox), the leaderboards following."""

from zoneinfo import ZoneInfo

import pytest

from bank.errors import NotFound
from bank.paper_store import get_question
from proctor.teams import disputes as dsp
from proctor.teams import key_fix as kf
from proctor.teams.leaderboard import full_ranking, period_bounds
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import attempts_of, audit_count, graded_answers, key_history, paper_id, question_ids

ALPHA, LEAD, ANN, BOB, DAN = -100, 10, 30, 40, 50


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,))
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


async def _answered(env):
    """Ann answered the first single-choice question B (wrong: the key says C), Bob C (right); Dan
    answered it B in Alpha's daily quiz. Returns the question id and the attempts."""
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(ANN, BOB, DAN))
    await c.roster(ALPHA, ANN, BOB, DAN)
    env.in_group(ALPHA, (ANN, "Ann"), (BOB, "Bob"), (DAN, "Dan"))
    pid = await paper_id(env.db, "demo")
    qid = (await question_ids(env.db, "demo", "single"))[0]
    ann = await c.exam(ANN, pid, [(qid, 0, 2, 1)], T0 - 600, T0 - 60, responses=["B"])
    bob = await c.exam(BOB, pid, [(qid, 2, 2, 1)], T0 - 600, T0 - 60, responses=["C"])
    await c.daily(ALPHA, "2027-01-15", [qid], [(DAN, 0, 0, T0 - 30)], response="B")
    return qid, ann, bob


async def test_uphold_opens_the_key_fix_which_regrades_and_tells_everyone(env):
    qid, ann_attempt, bob_attempt = await _answered(env)
    ann, bob, dan, lead = (env.api.user(u, n) for u, n in ((ANN, "Ann"), (BOB, "Bob"), (DAN, "Dan"), (LEAD, "Lea")))
    await ann.send(f"/dispute {qid} the key should be B")
    await ann.wait_message(lambda m: "dispute #1" in (m.text or ""))
    await lead.send("/bankstats", chat=ALPHA)  # the statistics go to the lead's private chat
    stats = await lead.wait_message(lambda m: "Open disputes" in (m.text or ""))
    await (await lead.press(stats, "Uphold #1")).wait()
    prompt = await lead.wait_message(lambda m: "/keyfix 1" in (m.text or ""))  # with the key, privately
    # Ann's crafted sheet kept no order: she saw the bank's letters
    now = "(now: C · 模拟大批次训练, in the letters the disputer saw)"
    assert now in prompt.text and any(m.text == "Dispute #1 upheld." for m in lead.chat())
    assert not any("(now: C" in (m.text or "") for m in env.api.chat_view(ALPHA))
    await ann.send("/keyfix 1 B")  # not an admin, and their own dispute besides
    assert "admin" in (await ann.wait_message(lambda m: "/keyfix" not in (m.text or "") and "admin" in (m.text or ""))).text
    await lead.send("/keyfix 1 E", chat=ALPHA)
    assert "doesn't fit" in (await lead.wait_message(lambda m: "fit" in (m.text or ""), chat=ALPHA)).text
    assert (await get_question(env.db, qid)).answer == "C"  # no partial write

    await lead.send("/keyfix 1 B", chat=ALPHA)
    done = await lead.wait_message(lambda m: "key version 2" in (m.text or ""), chat=ALPHA)
    assert "3 answers regraded, 3 scores changed" in done.text
    told_ann = await ann.wait_message(lambda m: "upheld" in (m.text or ""))
    assert "Your dispute #1" in told_ann.text and "your score 0 → 2 (of 2)" in told_ann.text
    assert "your score 2 → 0" in (await bob.wait_message(lambda m: "regraded" in (m.text or ""))).text
    assert "your score 0 → 1" in (await dan.wait_message(lambda m: "regraded" in (m.text or ""))).text
    # versioned and audited; attempts' totals and the daily board follow
    assert (await get_question(env.db, qid)).version == 2
    graded = await graded_answers(env.db, qid)
    assert [(g.attempt_id, g.score, g.key_version) for g in graded if g.attempt_id is not None] == [
        (ann_attempt, 2, 2), (bob_attempt, 0, 2)]
    assert [(a.id, a.score) for a in await attempts_of(env.db)] == [(ann_attempt, 2), (bob_attempt, 0)]
    assert [(g.user_id, g.key_version) for g in graded if g.attempt_id is None] == [(DAN, 2)]
    [fix] = await key_history(env.db, qid)
    assert (fix.version, fix.answer, fix.previous, fix.dispute_id, fix.actor, fix.changed) == (2, "B", "C", 1, LEAD, 3)
    assert await audit_count(env.db, action="key_fix") == 1
    board = await full_ranking(env.db, ALPHA, period_bounds("all", T0, ZoneInfo("UTC")))
    assert [(r.user_id, r.points) for r in board] == [(DAN, 1)]
    # a fixed dispute is fixed once
    await lead.send("/keyfix 1 C", chat=ALPHA)
    assert "no key to fix" in (await lead.wait_message(lambda m: "no key" in (m.text or ""), chat=ALPHA)).text


async def test_nobody_fixes_their_own_dispute_and_alternatives_are_for_blanks(env):
    qid, _, _ = await _answered(env)
    c, pid = Crafted(env.db), await paper_id(env.db, "demo")
    fill = (await question_ids(env.db, "demo", "fill"))[0]
    await c.user(LEAD)
    await c.exam(LEAD, pid, [(qid, 0, 2, 1)], T0 - 600, T0 - 60)  # a dispute is of a question one was asked
    await c.exam(BOB, pid, [(fill, 0, 2, 1)], T0 - 600, T0 - 60)
    did = await dsp.raise_dispute(env.db, question_id=qid, user_id=LEAD, chat_id=LEAD, reason="x", now=T0)
    with pytest.raises(dsp.OwnDispute):
        await kf.fix_key(env.db, did, actor=LEAD, now=T0, chat_id=None, key="B")
    await dsp.resolve(env.db, did, upheld=True, lead=ANN, chat_id=None, now=T0)
    with pytest.raises(kf.BadKey):
        await kf.fix_key(env.db, did, actor=ANN, now=T0, chat_id=None, alternative="B")
    with pytest.raises(NotFound):
        await kf.fix_key(env.db, 999, actor=ANN, now=T0, chat_id=None, key="B")
    did = await dsp.raise_dispute(env.db, question_id=fill, user_id=BOB, chat_id=BOB, reason="y", now=T0)
    with pytest.raises(dsp.NotUpheld):  # an open dispute is upheld first
        await kf.fix_key(env.db, did, actor=LEAD, now=T0, chat_id=None, alternative="GPU", regrade=False)
    await dsp.resolve(env.db, did, upheld=True, lead=LEAD, chat_id=None, now=T0)
    fix = await kf.fix_key(env.db, did, actor=LEAD, now=T0, chat_id=None, alternative="GPU", regrade=False)
    assert fix.version == 2 and fix.answers == 0
    assert (await get_question(env.db, fill)).answer == [["图形处理器", "GPU"]]


async def test_a_refused_second_dispute_takes_no_number_on_either_engine(env):
    """Dispute numbers are shown to people: one refused as already open must not make the next skip one
    (a refused insert would take a number of PostgreSQL's sequence)."""
    qid, other = (await question_ids(env.db, "demo", "single"))[:2]
    c = Crafted(env.db)
    await c.user(ANN, "Ann")
    await c.exam(ANN, await paper_id(env.db, "demo"), [(qid, 0, 2, 1), (other, 0, 2, 1)], T0 - 600, T0 - 60,
                 responses=["B", "A"])
    first = await dsp.raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ANN, reason="B, not C", now=T0)
    with pytest.raises(dsp.AlreadyDisputed):
        await dsp.raise_dispute(env.db, question_id=qid, user_id=ANN, chat_id=ANN, reason="again", now=T0)
    second = await dsp.raise_dispute(env.db, question_id=other, user_id=ANN, chat_id=ANN, reason="and this", now=T0)
    assert second == first + 1
