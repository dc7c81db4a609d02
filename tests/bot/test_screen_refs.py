"""One question, one name: the question a candidate meets on an exam's screen is named the same way on
the group's daily quiz, on a live round's poll and when they dispute it: its home paper's code and its
place in that paper's full order (`P3 · Q2`), beside the sitting's own progress where there is one."""

from __future__ import annotations

import pytest

from proctor.live.plan import COUNTDOWN
from tests.bot.test_daily_support import fast, questions, subscribe_group
from tests.harness import BotEnv, attempt_message, start_exam
from tests.live_support import live_paper, polls, tick
from tests.reads import question_ids
from tests.stored import shown_ref

LEAD, ANN = 1, 11


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(LEAD,), shuffle=False)
    await e.seed(live_paper("refs", 3))  # three single-choice questions: each screen can only draw them
    await e.start()
    fast(e)
    yield e
    await e.close()


async def test_the_same_question_has_the_same_reference_on_every_screen(env):
    followed = (await question_ids(env.db, "refs", "single"))[1]  # the paper's second question
    ref = await shown_ref(env.db, followed)
    code = ref.split(" · ")[0]
    assert ref == f"{code} · Q2"
    stem = "refs question 2?"
    # the exam: the reference, then the sitting's progress
    ann = env.api.user(ANN, "Ann", language_code="en")
    first = await start_exam(env, ann, "Live paper refs")
    assert first.text.startswith(f"{code} · Q1 · 1 of 3 · ")
    await ann.press(first, "Skip ▶")
    screen = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) is not None
                                    and stem in (m.text or "") and m, what="the second question")
    assert screen.text.startswith(f"{ref} · 2 of 3 · "), screen.text
    # the group's daily quiz: its place in the quiz, then the question's reference
    lead, group = await subscribe_group(env)
    group.add_members(ANN)
    await lead.send("/daily now", chat=group)
    await env.api.wait_for(lambda: len(questions(group.chat())) == 3, what="three daily questions")
    [daily] = [m for m in questions(group.chat()) if stem in m.text]
    head = daily.text.splitlines()[0]
    assert head.startswith("📅 Daily quiz · ") and head.endswith(f" · {ref}"), head
    # a live round's poll: its place in the round, then the reference
    await lead.send(f"/live {code} 3q", chat=group)
    await lead.wait_message(chat=group)
    await env.idle()
    await tick(env, COUNTDOWN)
    for _ in range(30):  # the round draws its three in any order: until the followed one is posted
        if any(stem in p.poll["question"] for p in polls(env, group.id)):
            break
        await tick(env, 5)
    found = [p for p in polls(env, group.id) if stem in p.poll["question"]]
    assert found, ([p.poll["question"] for p in polls(env, group.id)], [m.text for m in group.chat()][-6:])
    [poll] = found
    place = poll.poll["question"].split(" · ")[0]
    assert poll.poll["question"].startswith(f"{place} · {ref}. {stem}"), poll.poll["question"]
    # a dispute, typed as a person types the reference: answered with the same reference
    await ann.send(f"/dispute {ref.replace(' · ', ' ')} the key looks wrong")
    told = await ann.wait_message(lambda m: "dispute #" in (m.text or ""))
    assert told.text.startswith(f"Thanks — dispute #1 on {ref} is recorded"), told.text
