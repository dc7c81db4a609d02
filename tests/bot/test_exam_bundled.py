"""A fresh install: the bundled bank is imported on first start, commands are registered, languages work."""

from collections import Counter

import pytest

from bank.models import Paper
from bank.paper_store import list_papers, paper_count
from bank.script import to_script
from proctor.exams import service as attempts
from tests.harness import BotEnv, at_place, attempt_message
from tests.reads import the_attempt
from tests.stored import shown_ref


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=False, first_start=True)
    await e.start()  # empty database: the bot's start-up imports the five bundled papers
    yield e
    await e.close()


async def simplified_paper(env) -> Paper:
    """The bundled paper whose text is in Simplified characters (its slug starts 000)."""
    return next(p for p in await list_papers(env.db) if p.slug.startswith("000"))


async def test_fresh_start_imports_bank_and_registers_commands(env):
    assert await paper_count(env.db) == 5
    # registered by a job right after start-up (bot/app.py), in English and then Chinese
    zh = await env.api.wait_for(lambda: env.api.commands(language_code="zh"), what="the command menu")
    en = [c["command"] for c in env.api.commands()]
    for cmd in ("start", "help", "papers", "exam", "practice", "resume", "cancel", "mystats", "lang"):
        assert cmd in en
    assert [c["command"] for c in zh] == en
    assert any("考试" in c["description"] for c in zh)


async def test_papers_lists_counts_max_score_and_time(env):
    ann = env.api.user(3001, "Ann", language_code="en")
    await ann.send("/papers")
    msg = await ann.wait_message()
    assert msg.text.count("questions · max") == 5
    assert "60 min" in msg.text
    assert "(xué)" not in msg.text and ".docVIP" not in msg.text


async def test_chinese_interface_from_telegram_language_and_lang_override(env):
    li = env.api.user(3002, "Li", language_code="zh-hans")
    await li.send("/help")
    assert "考试" in (await li.wait_message()).text
    await li.send("/lang en")
    assert (await li.wait_message()).text == "Language set to English."
    await li.send("/papers")
    assert "Papers" in (await li.wait_message()).text
    await li.send("/lang xx")
    assert "Usage" in (await li.wait_message()).text


async def test_script_preference_converts_question_text(env):
    ann = env.api.user(3003, "Ann", language_code="en")
    await ann.send("/script hant")
    await ann.wait_message()
    from bank.script import to_script

    # a paper named in the reader's script
    title = to_script((await simplified_paper(env)).title, "hant")
    await ann.send(f"/practice {title[:40]}")
    msg = await env.api.wait_for(lambda: attempt_message(ann.chat()))
    assert "梯度累積是為了模擬更大的" in msg.text  # 梯度累积是为了模拟更大的 in Traditional


async def test_practice_gives_feedback_after_each_answer(env):
    ann = env.api.user(3004, "Ann", language_code="en")
    title = (await simplified_paper(env)).title
    await ann.send(f"/practice {title[:40]}")
    await env.api.wait_for(lambda: attempt_message(ann.chat()))
    await ann.send("批次大小")  # fill Q1, right
    fb = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "✅" in m.text and m)
    assert "Next ▶" in fb.button_texts
    await ann.press(fb, "Next ▶")
    await env.api.wait_for(lambda: at_place(attempt_message(ann.chat()).text, 2))
    await ann.send("损失")  # fill Q2, wrong
    wrong = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "❌" in m.text and m)
    assert "Answer: 梯度" in wrong.text


async def test_random_mock_paper_follows_the_blueprint(env):
    ann = env.api.user(3005, "Ann", language_code="en")
    await ann.send("/exam random")
    card = await ann.wait_message(lambda m: "▶️ Start" in m.button_texts)
    assert "42 questions" in card.text  # the card promises what the sheet holds (issue 22: it said 45)
    await ann.press(card, "▶️ Start")
    msg = await env.api.wait_for(lambda: attempt_message(ann.chat()))
    assert at_place(msg.text, 1, 42)
    sheet = await attempts.load_sheet(env.db, (await the_attempt(env.db, ann.id)).id, positions="all")
    # a mock's question is named by its home paper's reference, beside the sitting's place
    assert msg.text.startswith(f"{await shown_ref(env.db, sheet.items[0].question_id)} · 1 of 42 · "), msg.text
    asked = [sheet.question(i) for i in sheet.items]
    assert Counter(q.kind.value for q in asked) == {"fill": 10, "single": 10, "multi": 10, "truefalse": 10, "short": 2}
    assert [q.id for q in asked if {"truncated", "corrupted"} & set(q.flags)] == []
    # issue 22: its card gives the max as every other card does (the bundled bank's kinds are worth one
    # amount each, so every draw is worth the same)
    assert f" · max {sum(q.points for q in asked):g} pts · " in card.text, card.text


async def test_exam_takes_a_paper_code_from_papers_and_an_ambiguous_part_gets_the_codes(env):
    """Issue 22: one paper reference everywhere: /papers shows each paper's code, /exam takes it; a part
    of several titles gets one line with their codes."""
    ann = env.api.user(3006, "Ann", language_code="en")
    papers = await list_papers(env.db)
    await ann.send("/papers")
    listing = (await ann.wait_message()).text
    assert all(f"{p.code} · " in listing for p in papers)
    last = papers[-1]
    await ann.send(f"/exam {last.code.lower()}")
    card = await ann.wait_message(lambda m: "▶️ Start" in m.button_texts)
    assert last.title in card.text
    await ann.send("/exam 试卷")  # in three bundled titles, one of them written 試卷
    line = (await ann.wait_message(lambda m: "several titles" in (m.text or ""))).text
    assert [p.code for p in papers if "试卷" in to_script(p.title, "hans")] == ["P1", "P2", "P4"] \
        == [c for c in line.split() if c.startswith("P")]


async def test_the_mock_paper_is_named_in_the_readers_language_only(env):
    """Issue 22: a Chinese screen called the mock paper `Mock paper · 模拟卷`; one language per screen."""
    lee = env.api.user(3007, "Lee", language_code="zh")
    await lee.send("/exam random")
    card = await lee.wait_message(lambda m: "▶️ 开始" in m.button_texts)
    await lee.press(card, "▶️ 开始")
    await env.api.wait_for(lambda: attempt_message(lee.chat()))
    await lee.send("/cancel")
    confirm = await lee.wait_message(lambda m: "确认放弃" in m.button_texts)
    assert "“模拟卷”" in confirm.text and "Mock" not in confirm.text
    await lee.press(confirm, "确认放弃")
    done = await env.api.wait_for(lambda: [m for m in lee.chat() if "已放弃" in (m.text or "")])
    assert done[-1].text == "已放弃“模拟卷”，不计成绩。"
