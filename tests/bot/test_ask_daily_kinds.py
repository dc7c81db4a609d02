"""Numerical and matching questions in daily quizzes, through the fake Bot API: a private quiz asks
both (a typed number; pairs made with buttons, Submit); a group's quiz asks the number (a reply to
the question) and never draws the matching question."""

from __future__ import annotations

import re

from bank.paper_store import list_papers
from tests.bot.test_ask_exam_kinds import kinds_paper
from tests.bot.test_daily_support import GROUP, fast, questions
from tests.harness import BotEnv
from tests.reads import daily_answers, items_to


async def _env(tmp_path, db_location) -> BotEnv:
    env = BotEnv(tmp_path, location=db_location, admins=(1,), shuffle=False)
    await env.seed(kinds_paper(tmp_path))
    await env.start()
    fast(env)
    return env


async def kinds_by_question(env) -> dict[int, str]:
    return {q.id: q.kind.value for p in await list_papers(env.db) for q in p.questions()}


async def test_a_private_quiz_asks_a_number_and_pairs(tmp_path, db_location):
    env = await _env(tmp_path, db_location)
    try:
        ann = env.api.user(7, "Ann", language_code="en")
        await ann.send("/daily now")
        for n in (1, 2):
            msg = await env.api.wait_for(lambda n=n: len(questions(ann.chat())) == n and questions(ann.chat())[-1],
                                         what=f"question {n}")
            await env.idle()
            if "What is pi" in msg.text:
                assert "Type a number" in msg.text and not msg.buttons
                await ann.send("pi")
                await ann.wait_message(lambda m: re.search(r"couldn't read that as a number for P\d+ · Q\d+\.", m.text))
                await ann.send("3,1")
                await env.api.wait_for(lambda msg=msg: "🟡 Partly right (0.5/1)" in msg.text, what="feedback")
                assert "Your answer: 3.1" in msg.text and "Answer: 3.14 ± 0.005 / 3.1 ± 0.05 (50%)" in msg.text
            else:
                assert "1. cat" in msg.text and "A. meow" in msg.text
                assert [b for b in msg.button_texts if b[0].isdigit()] == ["1. cat → ?", "2. dog → ?", "3. cow → ?"]
                toast = await ann.press(msg, "1. cat → ?")
                assert (await toast.wait()) == "Pairs: 1→A, 2→?, 3→?. Tap Submit when done."
                await env.api.wait_for(lambda msg=msg: "1. cat → A" in msg.button_texts, what="the row shows A")
                for label in ("3. cow → ?", "3. cow → A", "3. cow → B"):
                    await (await ann.press(msg, label)).wait()
                    await env.idle()
                await ann.press(msg, "✅ Submit")
                await env.api.wait_for(lambda msg=msg: "Partly right" in msg.text, what="feedback")
                assert "Your answer: 1→A, 2→?, 3→C" in msg.text and "Answer: 1→A, 2→B, 3→C" in msg.text
        summary = await ann.wait_message(lambda m: m.text.startswith("🏁"))
        assert "0/2 correct" in summary.text
        asked = {i.pos: i.question_id for i in await items_to(env.db, ann.id)}
        kinds = await kinds_by_question(env)
        given = {kinds[asked[a.pos]]: (a.verdict, a.score, a.response) for a in await daily_answers(env.db)}
        assert given == {"numerical": ("partial", 0.5, "3.1"), "matching": ("partial", 0.6667, ["meow", None, "moo"])}
    finally:
        await env.close()


async def test_a_group_quiz_asks_the_number_and_never_the_pairs(tmp_path, db_location):
    env = await _env(tmp_path, db_location)
    try:
        lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
        await lead.send("/daily on 09:00 Asia/Shanghai", chat=group)
        await lead.wait_message(lambda m: m.text.startswith("✅ Daily quiz on"), chat=group)
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda: len(questions(group.chat())) == 1, what="the question pushed")
        await env.idle()
        [msg] = questions(group.chat())
        assert "What is pi" in msg.text and "Reply to this message with a number" in msg.text
        kinds = await kinds_by_question(env)
        assert [kinds[i.question_id] for i in await items_to(env.db, GROUP)] == ["numerical"]  # no pairs drawn
        ann, bob = env.api.user(11, "Ann", language_code="en"), env.api.user(12, "Bob", language_code="en")
        group.add_members(11, 12)
        await ann.send("/start")
        await bob.send("/start")
        await env.idle()
        await ann.send("about three", chat=group, reply_to=msg)
        await ann.wait_message(lambda m: re.search(r"couldn't read that as a number for P\d+ · Q\d+\.", m.text))
        await ann.send("３．１４", chat=group, reply_to=msg)
        await ann.wait_message(lambda m: "✅ Correct!" in m.text)
        await bob.send("1×10^-3", chat=group, reply_to=msg)
        await bob.wait_message(lambda m: "❌ Not quite." in m.text and "Answer: 3.14 ± 0.005" in m.text)
        assert [(a.user_id, a.verdict) for a in await daily_answers(env.db)] == [(11, "correct"), (12, "wrong")]
    finally:
        await env.close()
