"""/keyfix while the paper runs: the key changes for everyone at once, but nothing about it reaches a
candidate sitting that paper before they hand in (no notice, no score, no verdict); their attempt
is graded with the key in force at the hand-in (Finish, or the deadline job), also across a restart.
An open dispute is upheld before its key is fixed."""

from __future__ import annotations

import pytest

from bot.outbox import flush
from proctor.exams import service as attempts
from proctor.teams import audit
from tests.harness import BotEnv, attempt_message, fire_deadline, start_exam
from tests.papers_fixture import small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import answers_in, attempts_of, paper_id, question_ids

ALPHA, ADMIN, ANN, BOB, DAN = -100, 10, 30, 40, 50
TOLD = ("regraded", "upheld", "重新评分", "采纳")


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=False)
    await e.seed(small_paper())
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([ADMIN])
    yield e
    await e.close()


def told(user) -> list[str]:
    return [m.text for m in user.chat() if m.from_bot and any(w in (m.text or "") for w in TOLD)]


async def finish(env, user) -> None:
    await user.press(attempt_message(user.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if "Yes, finish" in m.button_texts and not m.deleted), None),
        what="the finish question")
    await user.press(confirm, "Yes, finish")
    await user.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()


async def test_a_fix_during_the_exam_waits_for_the_hand_in(env):
    c = Crafted(env.db)
    await c.group(ALPHA, "Alpha", members=(ANN, BOB, DAN))
    await c.roster(ALPHA, ANN, BOB, DAN)
    env.in_group(ALPHA, (ANN, "Ann"), (BOB, "Bob"), (DAN, "Dan"))  # what getChatMember answers for them
    pid = await paper_id(env.db, "demo")
    qid = (await question_ids(env.db, "demo", "single"))[0]  # its key is C
    ann_before = await c.exam(ANN, pid, [(qid, 0, 2, 1)], 0, 60, responses=["B"], title="Demo paper demo")
    bob_before = await c.exam(BOB, pid, [(qid, 0, 2, 1)], 0, 60, responses=["B"], title="Demo paper demo")
    ann, bob, dan, admin = (env.api.user(u, n) for u, n in ((ANN, "Ann"), (BOB, "Bob"), (DAN, "Dan"),
                                                            (ADMIN, "Boss")))
    for user in (ann, dan):  # both sit the paper and answer B, wrong by the key in force
        await user.press(await start_exam(env, user), "B")
        await env.idle()
    [ann_now] = [a.id for a in await attempts_of(env.db, ANN) if a.running]
    [dan_now] = [a.id for a in await attempts_of(env.db, DAN) if a.running]
    await ann.send(f"/dispute {qid} the key should be B")
    await ann.wait_message(lambda m: "dispute #1" in (m.text or ""))

    await admin.send("/keyfix 1 B", chat=ALPHA)  # open: upheld first
    assert "still open" in (await admin.wait_message(lambda m: "#1" in (m.text or ""), chat=ALPHA)).text
    await admin.send("/bankstats", chat=ALPHA)  # the statistics and the key go to the lead's private chat
    stats = await admin.wait_message(lambda m: "Open disputes" in (m.text or ""))
    await (await admin.press(stats, "Uphold #1")).wait()
    await admin.wait_message(lambda m: "/keyfix 1" in (m.text or ""))
    await admin.send("/keyfix 1 B", chat=ALPHA)
    done = await admin.wait_message(lambda m: "key version 2" in (m.text or ""), chat=ALPHA)
    assert "1 answer regraded, 1 score changed" in done.text  # Bob's, now
    assert "3 answers on a running exam will be regraded at hand-in" in done.text  # Ann's two, Dan's one
    assert "0 → 2" in (await bob.wait_message(lambda m: "regraded" in (m.text or ""))).text
    await flush(env.app)  # every notice due now is sent when this returns
    # the key changed for everyone, but nothing about it reached the two sitting the paper
    assert told(ann) == [] and told(dan) == []
    assert [(await answers_in(env.db, a))[0].score for a in (ann_before, ann_now, dan_now)] == [0, 0, 0]
    assert (await attempts.get_attempt(env.db, ann_before)).score == 0  # /mystats shows nothing new either

    await env.restart()  # what waits is in SQLite
    await flush(env.app)
    assert told(ann) == []
    await finish(env, ann)
    result = next(m.text for m in reversed(ann.chat()) if "Score:" in (m.text or ""))
    assert "Score: 2/" in result  # graded with the key in force at the hand-in
    news = await env.api.wait_for(lambda: told(ann) if len(told(ann)) == 2 else None, what="Ann's notices")
    assert any("Your dispute #1" in t for t in news)
    assert any("your score 0 → 2 (of 2)" in t for t in news)  # her earlier attempt, told only now
    assert (await attempts.get_attempt(env.db, ann_before)).score == 2
    assert told(dan) == []

    env.clock.advance(61 * 60)  # Dan's deadline passes: the deadline job hands him in
    fire_deadline(env, dan_now)
    await dan.wait_message(lambda m: "Score:" in (m.text or ""))
    await env.idle()
    assert (await attempts.get_attempt(env.db, dan_now)).score == 2
    assert (await answers_in(env.db, dan_now))[0].key_version == 2
    rows = await audit.recent(env.db, action="regrade", limit=10)
    assert sorted((e.target, e.detail["answer_old"], e.detail["answer_new"]) for e in rows) == sorted(
        (f"attempt:{a}", 0, 2) for a in (ann_before, bob_before, ann_now, dan_now))
