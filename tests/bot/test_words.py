"""What the candidate reads: the chosen script everywhere, English plurals, practice never called an
exam, and the question ids /dispute takes, shown on the screens that show keys (through the fake API)."""

import re

import pytest

from bank.question_ref import BankId, QuestionRef
from bank.script import to_script
from proctor.exams import service as attempts
from proctor.exams.visibility import OPERATOR, lens
from proctor.teams.candidate import raised_disputes
from tests.bot.test_exam_flow import _answer_current, _sheet
from tests.harness import BotEnv, attempt_message, start_exam
from tests.papers_fixture import small_paper
from tests.reads import the_attempt

TITLE = "梯度累积试卷"
BAD_PLURALS = re.compile(r"(?<![\d.])1 (pts|attempts|answers|questions|candidates|points)\b|\(s\)")


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper().model_copy(update={"title": TITLE}))
    await e.start()
    yield e
    await e.close()


async def _hand_in_wrong(env, user, paper_title: str, *, started: bool = False):
    """Start the paper, answer the four choice questions wrong, hand in; returns the result card."""
    if not started:
        await start_exam(env, user, paper_title)
    for _ in range(4):
        await _answer_current(env, user, await _sheet(env, user.id), right=False)
    await user.press(attempt_message(user.chat()), "Finish")
    confirm = await env.api.wait_for(
        lambda: next((m for m in user.chat() if "Yes, finish" in m.button_texts), None), what="confirm")
    await user.press(confirm, "Yes, finish")
    return await user.wait_message(lambda m: "Score:" in (m.text or ""))


async def _review_pages(env, user, card) -> list[str]:
    """Every review page's text, paging with ▶."""
    await user.press(card, "Review wrong answers")
    page = await user.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
    texts = [page.text]
    while "▶" in page.button_texts:
        before = page.text
        await user.press(page, "▶")
        await env.api.wait_for(lambda old=before: page.text != old, what="the next review page")
        texts.append(page.text)
    return texts


async def test_script_hant_converts_titles_sections_keys_and_explanations(env):
    ann = env.api.user(2001, "Ann", language_code="en")
    await ann.send("/script hant")
    await ann.wait_message(lambda m: "Traditional" in (m.text or ""))
    hant_title = to_script(TITLE, "hant")
    assert hant_title != TITLE
    await ann.send("/papers")
    papers = await ann.wait_message(lambda m: "Papers" in (m.text or ""))
    assert hant_title in papers.text and TITLE not in papers.text
    screen = await start_exam(env, ann, hant_title)  # the chooser's button shows the Traditional title
    assert "Single choice" in screen.text.splitlines()[0]  # a generated section name: the kind's, in English
    card = await _hand_in_wrong(env, ann, hant_title, started=True)
    assert hant_title in card.text and "• Single choice: 0/4" in card.text and "单项" not in card.text
    pages = "\n".join(await _review_pages(env, ann, card))
    assert "梯度累積可模擬大批次" in pages  # the explanation
    assert "圖形處理器" in pages and "图形处理器" not in pages  # a reference answer (the fill-in key)
    assert "梯度累積是在每次前向傳播" in pages  # a written question's reference answer


async def test_review_pages_show_the_reference_dispute_takes(env):
    ann = env.api.user(2002, "Ann", language_code="en")
    card = await _hand_in_wrong(env, ann, TITLE)
    sheet = await attempts.load_sheet(env.db, (await the_attempt(env.db, ann.id)).id, positions="all")
    by_ref = {f"{i.ref.code} · Q{i.ref.n}": i.question_id for i in sheet.items}
    await ann.press(card, "Review wrong answers")
    page = await ann.wait_message(lambda m: (m.text or "").startswith("Review 1/"))
    shown = re.search(r"Review 1/\d+ · (P\d+ · Q\d+)\n", page.text).group(1)
    qid = by_ref[shown]  # the reference is the question on the page
    assert f"/dispute {shown} <reason>" in page.text
    await ann.send(f"/dispute {shown} the key looks wrong")
    ok = await ann.wait_message(lambda m: "dispute #" in (m.text or ""))
    assert f"on {shown} is recorded" in ok.text
    assert [d.question_id for d in await raised_disputes(env.db, ann.id, await lens(env.db, OPERATOR, None))] == [qid]


async def test_practice_is_not_an_exam_and_counts_are_plural(env):
    ann = env.api.user(2003, "Ann", language_code="en")
    await ann.send(f"/practice {TITLE}")
    await env.api.wait_for(lambda: attempt_message(ann.chat()), what="practice screen")
    await env.idle()
    await ann.send("/cancel")
    confirm = await ann.wait_message(lambda m: "Yes, cancel" in m.button_texts)
    assert "practis" in confirm.text and "attempt" not in confirm.text and "exam" not in confirm.text
    await ann.press(confirm, "Yes, cancel")
    await env.api.wait_for(lambda: "Stopped practising" in (confirm.text or ""), what="practice stopped")
    await _hand_in_wrong(env, ann, TITLE)
    await ann.send("/mystats")
    stats = await ann.wait_message(lambda m: "Your exams" in (m.text or ""))
    assert "1 attempt used," in stats.text and "(counts: the best)" in stats.text
    await ann.send("/lang zh")
    await ann.wait_message(lambda m: "中文" in (m.text or ""))
    await ann.send("/mystats")
    zh = await ann.wait_message(lambda m: "我的考试" in (m.text or ""))
    assert "计分：取最高" in zh.text and "best" not in zh.text
    texts = [m.text or "" for m in ann.chat() if m.from_bot]
    assert not [x for x in texts if BAD_PLURALS.search(x)]


async def test_written_questions_do_not_talk_about_blanks(env):
    ann = env.api.user(2004, "Ann", language_code="en")
    await start_exam(env, ann, TITLE)
    sheet = await _sheet(env, ann.id)
    for kind, blanks in (("fill", True), ("short", False)):
        pos = next(i.pos for i in sheet.items if sheet.question(i).kind.value == kind)
        await attempts.move_to(env.db, sheet.attempt.id, pos, env.clock.now())
        await ann.send("/resume")
        await env.idle()
        screen = attempt_message(ann.chat())
        assert ("blanks" in screen.text) == blanks, screen.text
        assert "1 pts" not in screen.text


def test_one_plural_rule():
    from bot.i18n import t, tn

    assert [tn("n_pt", x, "en") for x in (1, 1.0, 2, 1.5, 0)] == ["1 pt", "1 pt", "2 pts", "1.5 pts", "0 pts"]
    assert tn("n_attempt", 1, "en") == "1 attempt" and tn("n_attempt", 3, "en") == "3 attempts"
    assert tn("n_pt", 1, "zh") == "1 分"
    assert t("daily_done", "en", correct=1, total=1, score="1", max="1").endswith("1/1 point.")


def test_no_catalogue_text_says_1_pts_or_attempt_s():
    """Every English text, filled with 1 for every count, reads in the singular."""
    import string

    from bot.i18n import CATALOGUE, t

    for key, texts in CATALOGUE.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(texts["en"]) if name}
        values: dict[str, object] = {f: QuestionRef("P1", 1) if f == "question" or f.endswith("_question")
                                     else BankId(1) if f == "bank_id" else "1" for f in fields}
        text = t(key, "en", **values) if fields else texts["en"]
        assert not BAD_PLURALS.search(text), (key, text)
        assert not re.search(r"\b1 (?!is\b|has\b|was\b)[a-z-]+s\b", text) or key in ALLOWED_1S, (key, text)


ALLOWED_1S = {"iv_welcome"}  # "{team} invites you": a name, not a count


def test_an_invites_welcome_shows_the_title_in_the_chosen_script():
    from zoneinfo import ZoneInfo

    from bot.invites import render as iv
    from proctor.invites.states import InviteStatus
    from proctor.invites.store import Invite

    inv = Invite(1, 1, -100, 10, 0.0, 3600.0, 0, None, 1, 0, False, InviteStatus.open, None, None)
    from tests.papers_fixture import summarize

    paper = summarize(small_paper().model_copy(update={"title": TITLE, "id": 1}))  # the welcome reads a summary
    text, _ = iv.welcome(inv, paper, "Alpha", ZoneInfo("UTC"), "en", "hant")
    assert to_script(TITLE, "hant") in text and TITLE not in text
    assert "7 questions · max 15 pts" in text
