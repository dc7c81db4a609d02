"""Shuffled options: pinned "all of the above", letters in explanations as the candidate saw them."""

from __future__ import annotations

import random
import re

import pytest

from bank.option_order import OptionOrder, analyse_options, letter_refs, pinned_options
from bank.paper_store import list_papers
from proctor.exams import service as attempts
from tests.harness import BotEnv, attempt_message, start_exam
from tests.reads import items_to

ALL_OF_ABOVE = ("以上都是", "以上都不是", "以上均", "都不对", "All of the above", "None of the above")
_OPTION_LINE = re.compile(r"^([A-H])\. (.*)$", re.M)
_EXPLANATION_REF = re.compile(r"[（(]([A-H])[)）]")


@pytest.mark.parametrize("options, pinned", [
    (["a", "b", "c", "以上都是"], [3]),
    (["a", "b", "以上都不是", "d"], [2]),
    (["x", "y", "A和B", "都不对"], [2, 3]),
    (["x", "y", "both A and B", "None of the above"], [2, 3]),
    (["x", "y", "All of the above"], [2]),
    (["C语言", "C++", "Allreduce", "A100", "50%以上的数据"], [4]),  # "以上" counts; the rest are not references
    (["SGD", "Adam", "RMSprop"], []),
])
def test_options_that_refer_to_others_are_pinned(options, pinned):
    assert pinned_options(options) == pinned


def test_letter_references_are_found_where_they_name_options():
    text = "數據并行（A）和模型并行（B）可以。选C。A和D都对。C语言与A100无关。answer is E"
    found = [text[i] for i in letter_refs(text, 5)]
    assert found == ["A", "B", "C", "A", "D"]
    assert letter_refs("数据并行（F）", 5) == []  # past the options: not a reference


def test_draw_keeps_pinned_options_and_rewrite_follows_the_order():
    rng = random.Random(7)
    seen = set()
    for _ in range(50):
        order = OptionOrder.draw(4, [3], rng, shuffle=True)
        assert order.order[3] == "D" and sorted(order.order) == list("ABCD")
        seen.add(order.order)
    assert len(seen) > 1
    pinned, refs = analyse_options("Which?", ["x", "y", "z", "A和B"], "x（A）与 y（B）都对，故选D。")
    assert pinned == [3]
    order = OptionOrder.of("BACD", refs)
    assert order.rows(["x", "y", "z", "A和B"]) == [("A", "y"), ("B", "x"), ("C", "z"), ("D", "B和A")]
    assert order.rewrite("x（A）与 y（B）都对，故选D。", "explanation") == "x（B）与 y（A）都对，故选D。"
    assert order.to_stored("AC") == "BC" and [order.shown_letter(c) for c in "BC"] == ["A", "C"]


# ---- the bundled papers, shuffled, through the fake Bot API -----------------------------------

@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=True)
    await e.start()  # the five bundled papers
    yield e
    await e.close()


def _check_page(text: str, stats: dict) -> None:
    """Every "all of the above" is the last option; every "text（L）" of the explanation names the
    option shown under L."""
    options = {m.group(1): m.group(2) for m in _OPTION_LINE.finditer(text.split("\nYour answer:")[0])}
    if not options:
        return
    last = max(options)
    for letter, option in options.items():
        if option.strip().startswith(ALL_OF_ABOVE):
            assert letter == last, text
            stats["pinned"] += 1
    why = text.split("Why: ", 1)[1] if "Why: " in text else ""
    for m in _EXPLANATION_REF.finditer(why):
        option = options[m.group(1)]
        assert why[:m.start()].endswith(option), f"({m.group(1)}) is not {option!r} on screen:\n{text}"
        stats["refs"] += 1


async def test_every_bundled_paper_shuffled_keeps_letters_and_all_of_the_above(env):
    papers = await list_papers(env.db)
    assert len(papers) == 5
    stats = {"pinned": 0, "refs": 0, "moved": 0}
    for n, paper in enumerate(papers):
        user = env.api.user(4100 + n, f"U{n}", language_code="en")
        await start_exam(env, user, paper.title[:60])
        running = await attempts.running_attempt(env.db, user.id)
        sheet = await attempts.load_sheet(env.db, running.id, positions="all")
        stats["moved"] += sum(1 for i in sheet.items if i.option_order and i.option_order != "".join(sorted(i.option_order)))
        await user.press(attempt_message(user.chat()), "Finish")
        confirm = await env.api.wait_for(lambda u=user: next((m for m in u.chat() if "Yes, finish" in m.button_texts), None))
        await user.press(confirm, "Yes, finish")
        card = await user.wait_message(lambda m: "Score:" in (m.text or ""))
        await user.press(card, "Review wrong answers")
        page = await user.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
        total = int(page.text.split("/", 1)[1].split(" ", 1)[0])
        assert total == len(sheet.items)  # nothing answered: every question is in the review
        for i in range(1, total + 1):
            page = await env.api.wait_for(
                lambda u=user, i=i: next((m for m in reversed(u.chat())
                                          if (m.text or "").startswith(f"Review {i}/")), None),
                what=f"review page {i}")
            _check_page(page.text, stats)
            if i < total:
                await user.press(page, "▶")
        await env.idle()
    assert stats["pinned"] >= 7  # paper 3's "以上都是" questions (those not held out as duplicates)
    assert stats["refs"] >= 20  # paper 5's explanations that name options by letter
    assert stats["moved"] > 20  # the options really were shuffled


# ---- practice and the daily quiz show the same letters ----------------------------------------

def _lettered_paper():
    from bank.kinds import Kind
    from bank.models import Paper, Question, Section

    qs = [Question(number=n, kind=Kind.multi, stem=f"第{n}题：哪些可以节省显存（）",
                   options=["梯度累积", "混合精度", "检查点", "更大批次", "以上都不是"], answer="ABC",
                   explanation="梯度累积（A）、混合精度（B）和检查点（C）可以节省显存，更大批次（D）不行。", points=2)
          for n in range(1, 6)]
    return Paper(slug="letters", title="Letters paper", sections=[Section(kind=Kind.multi, title="多项选择题", questions=qs)])


@pytest.fixture
async def lettered(tmp_path, db_location):
    from tests.bot.test_daily_support import fast

    e = BotEnv(tmp_path, location=db_location, shuffle=True)
    await e.seed(_lettered_paper())
    await e.start()
    fast(e)
    yield e
    await e.close()


def _check_feedback(text: str) -> None:
    options = {m.group(1): m.group(2) for m in _OPTION_LINE.finditer(text)}
    assert options[max(options)] == "以上都不是", text
    why = text.split("Why: ", 1)[-1] if "Why: " in text else text.split("💡", 1)[-1]
    refs = list(_EXPLANATION_REF.finditer(why))
    assert len(refs) == 4, text
    for m in refs:
        assert why[:m.start()].endswith(options[m.group(1)]), text


async def test_practice_and_daily_feedback_name_the_shown_letters(lettered):
    env = lettered
    ann = env.api.user(4201, "Ann", language_code="en")
    await ann.send("/practice Letters paper")
    await env.api.wait_for(lambda: attempt_message(ann.chat()))
    await ann.send("A")  # typed: graded and explained at once
    fb = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "Why:" in m.text and m)
    _check_feedback(fb.text)
    await ann.press(fb, "Finish")
    await env.idle()

    bob = env.api.user(4202, "Bob", language_code="en")
    await bob.send("/daily now")
    first = await bob.wait_message(lambda m: (m.text or "").startswith("📅 Daily quiz · 1/"))
    await bob.send("A")
    await env.api.wait_for(lambda: "💡" in first.text, what="the feedback under the question")
    _check_feedback(first.text)
    orders = [i.option_order for i in await items_to(env.db, bob.id)]
    assert all(o[4] == "E" for o in orders) and any(o[:4] != "ABCD" for o in orders)
