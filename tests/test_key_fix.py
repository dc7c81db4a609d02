"""Upholding a dispute opens the key fix: a new key version, everyone who answered regraded in one
transaction, the disputer and whoever's score changed told (outbox), the leaderboards following."""

import json
from zoneinfo import ZoneInfo

import pytest
from test_leads_data import Crafted

from bank.errors import NotFound
from proctor.teams import disputes as dsp
from proctor.teams import key_fix as kf
from proctor.teams.leaderboard import full_ranking, period_bounds
from tests.harness import T0, BotEnv
from tests.papers_fixture import small_paper

ALPHA, LEAD, ANN, BOB, DAN = -100, 10, 30, 40, 50


@pytest.fixture
async def env(tmp_path):
    e = BotEnv(tmp_path, admins=(LEAD,))
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
    qid, pid = (tuple(r) for r in await env.db.fetchall(
        "SELECT id, paper_id FROM questions WHERE kind='single' ORDER BY id LIMIT 1")).__next__()
    ann = await c.exam(ANN, pid, [(qid, 0, 2, 1)], T0 - 600, T0 - 60)
    bob = await c.exam(BOB, pid, [(qid, 2, 2, 1)], T0 - 600, T0 - 60)
    await c.daily(ALPHA, "2027-01-15", [qid], [(DAN, 0, 0, T0 - 30)])
    async with env.db.write() as conn:
        await conn.execute("UPDATE answers SET response=? WHERE attempt_id=?", (json.dumps("B"), ann))
        await conn.execute("UPDATE answers SET response=? WHERE attempt_id=?", (json.dumps("C"), bob))
        await conn.execute("UPDATE daily_answers SET response=? WHERE user_id=?", (json.dumps("B"), DAN))
    return qid, ann, bob


async def test_uphold_opens_the_key_fix_which_regrades_and_tells_everyone(env):
    qid, ann_attempt, bob_attempt = await _answered(env)
    ann, bob, dan, lead = (env.api.user(u, n) for u, n in ((ANN, "Ann"), (BOB, "Bob"), (DAN, "Dan"), (LEAD, "Lea")))
    await ann.send(f"/dispute {qid} the key should be B")
    await ann.wait_message(lambda m: "dispute #1" in (m.text or ""))
    await lead.send("/bankstats", chat=ALPHA)
    stats = await lead.wait_message(lambda m: "Open disputes" in (m.text or ""), chat=ALPHA)
    await (await lead.press(stats, "Uphold #1")).wait()
    prompt = await lead.wait_message(lambda m: "/keyfix 1" in (m.text or ""), chat=ALPHA)
    assert "Dispute #1 upheld." in prompt.text and "(now: C)" in prompt.text
    await ann.send("/keyfix 1 B")  # not an admin, and their own dispute besides
    assert "admin" in (await ann.wait_message(lambda m: "/keyfix" not in (m.text or "") and "admin" in (m.text or ""))).text
    await lead.send("/keyfix 1 E", chat=ALPHA)
    assert "doesn't fit" in (await lead.wait_message(lambda m: "fit" in (m.text or ""), chat=ALPHA)).text
    assert await env.db.scalar("SELECT answer FROM questions WHERE id=?", (qid,)) == json.dumps("C")  # no partial write

    await lead.send("/keyfix 1 B", chat=ALPHA)
    done = await lead.wait_message(lambda m: "key version 2" in (m.text or ""), chat=ALPHA)
    assert "3 answers regraded, 3 scores changed" in done.text
    told_ann = await ann.wait_message(lambda m: "upheld" in (m.text or ""))
    assert "Your dispute #1" in told_ann.text and "your score 0 → 2 (of 2)" in told_ann.text
    assert "your score 2 → 0" in (await bob.wait_message(lambda m: "regraded" in (m.text or ""))).text
    assert "your score 0 → 1" in (await dan.wait_message(lambda m: "regraded" in (m.text or ""))).text
    # versioned and audited; attempts' totals and the daily board follow
    assert await env.db.scalar("SELECT key_version FROM questions WHERE id=?", (qid,)) == 2
    assert [tuple(r) for r in await env.db.fetchall("SELECT attempt_id, score, key_version FROM answers "
                                                    "ORDER BY attempt_id")] == [(ann_attempt, 2, 2), (bob_attempt, 0, 2)]
    assert [tuple(r) for r in await env.db.fetchall("SELECT id, score FROM attempts ORDER BY id")] == [
        (ann_attempt, 2), (bob_attempt, 0)]
    assert await env.db.scalar("SELECT key_version FROM daily_answer_keys WHERE user_id=?", (DAN,)) == 2
    row = await env.db.fetchone("SELECT answer, previous, dispute_id, actor, regraded FROM key_versions")
    assert tuple(row) == (json.dumps("B"), json.dumps("C"), 1, LEAD, 3)
    assert await env.db.scalar("SELECT COUNT(*) FROM audit_log WHERE action='key_fix'") == 1
    board = await full_ranking(env.db, ALPHA, period_bounds("all", T0, ZoneInfo("UTC")))
    assert [(r.user_id, r.points) for r in board] == [(DAN, 1)]
    # a fixed dispute is fixed once
    await lead.send("/keyfix 1 C", chat=ALPHA)
    assert "no key to fix" in (await lead.wait_message(lambda m: "no key" in (m.text or ""), chat=ALPHA)).text


async def test_nobody_fixes_their_own_dispute_and_alternatives_are_for_blanks(env):
    qid, _, _ = await _answered(env)
    await Crafted(env.db).user(LEAD)
    did = await dsp.raise_dispute(env.db, question_id=qid, user_id=LEAD, chat_id=LEAD, reason="x", now=T0)
    with pytest.raises(dsp.OwnDispute):
        await kf.fix_key(env.db, did, actor=LEAD, now=T0, chat_id=None, key="B")
    with pytest.raises(kf.BadKey):
        await kf.fix_key(env.db, did, actor=ANN, now=T0, chat_id=None, alternative="B")
    with pytest.raises(NotFound):
        await kf.fix_key(env.db, 999, actor=ANN, now=T0, chat_id=None, key="B")
    fill = await env.db.scalar("SELECT id FROM questions WHERE kind='fill' ORDER BY id LIMIT 1")
    did = await dsp.raise_dispute(env.db, question_id=fill, user_id=BOB, chat_id=BOB, reason="y", now=T0)
    fix = await kf.fix_key(env.db, did, actor=LEAD, now=T0, chat_id=None, alternative="GPU", regrade=False)
    assert fix.version == 2 and fix.answers == 0
    assert json.loads(await env.db.scalar("SELECT answer FROM questions WHERE id=?", (fill,))) == [["图形处理器", "GPU"]]
