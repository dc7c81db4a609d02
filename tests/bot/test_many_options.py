"""A question may have up to 26 options (A–Z): one with 12, imported from GIFT, works in an exam, in
practice and in a group's daily quiz (before: the 11th and 12th buttons were refused, and other
copies of the alphabet stopped at 8 or 10 letters)."""

from __future__ import annotations

import pytest

from bank.formats.files import parse_any
from bank.option_order import LETTERS, MAX_OPTIONS
from bot.daily import callbacks as daily_cb
from bot.exam import callbacks as exam_cb
from bot.letter_rows import ROW_MAX, letter_rows
from proctor.exams import service as attempts
from tests.bot.test_daily_support import GROUP, fast, questions
from tests.harness import BotEnv, attempt_message, start_exam
from tests.reads import answers_of, daily_answers, items_to

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
         "kilo", "lima"]
GIFT = f"""
::single:: Which word is the twelfth in the spelling alphabet? {{
{chr(10).join(("=" if w == "lima" else "~") + w for w in WORDS)}
}}

::multi:: Which two words come last? {{
{chr(10).join(("~%50%" if w in ("kilo", "lima") else "~%-100%") + w for w in WORDS)}
}}
"""


def _paper(tmp_path):
    path = tmp_path / "twelve.gift"
    path.write_text(GIFT, encoding="utf-8")
    papers = parse_any(path)
    assert len(papers) == 1
    qs = [q for s in papers[0].sections for q in s.questions]
    assert [(q.kind.value, len(q.options), q.answer) for q in qs] == [("single", 12, "L"), ("multi", 12, "KL")]
    return papers[0]


def test_one_alphabet_and_buttons_for_every_letter():
    assert LETTERS == "ABCDEFGHIJKLMNOPQRSTUVWXYZ" and MAX_OPTIONS == 26
    for i in range(MAX_OPTIONS):
        assert exam_cb.parse(exam_cb.act(7, "answer", 1, i)).arg == str(i)
        assert daily_cb.parse(daily_cb.encode("toggle", 7, 1, i)).arg == str(i)
    assert exam_cb.parse("x:7:a:1:26") is None and daily_cb.parse("d:p:7:1:26") is None
    assert [len(r) for r in letter_rows(list(range(12)))] == [6, 6]
    assert all(len(r) <= ROW_MAX for r in letter_rows(list(range(26))))


async def _answer_both(env: BotEnv, user, title: str) -> None:
    msg = await start_exam(env, user, title)
    assert "lima" in msg.text and "L" in msg.button_texts
    assert [len(row) for row in msg.buttons[:2]] == [6, 6]  # Telegram shows at most 8 a row
    await user.press(msg, "L")  # the 12th option: the single's key
    await env.idle()
    msg = await env.api.wait_for(lambda: (m := attempt_message(user.chat())) and "Which two" in m.text and m,
                                 what="the multi")
    for letter in "KL":
        await user.press(msg, letter)
        await env.idle()
    await env.api.wait_for(lambda: "☑ L" in attempt_message(user.chat()).button_texts, what="both toggled")
    await user.press(attempt_message(user.chat()), "Submit")
    await env.idle()


@pytest.mark.parametrize("mode", ["exam", "practice"])
async def test_twelve_options_in_an_exam_and_in_practice(tmp_path, db_location, mode):
    env = BotEnv(tmp_path, location=db_location, shuffle=False)
    paper = _paper(tmp_path)
    await env.seed(paper)
    await env.start()
    try:
        ann = env.api.user(1001, "Ann", language_code="en")
        if mode == "practice":
            await ann.send(f"/practice {paper.title}")
            msg = await env.api.wait_for(lambda: attempt_message(ann.chat()), what="practice question")
            await env.idle()
            await ann.press(msg, "L")
            await env.idle()
            await ann.wait_message(lambda m: "Which two" in (m.text or "") or "Correct" in (m.text or ""))
            sheet = await attempts.load_sheet(env.db, (await attempts.running_attempt(env.db, ann.id)).id)
            await attempts.move_to(env.db, sheet.attempt.id, 1, env.clock.now())
            await ann.send("/resume")
            await env.idle()
            msg = attempt_message(ann.chat())
            for letter in "KL":
                await ann.press(msg, letter)
                await env.idle()
            await env.api.wait_for(lambda: "☑ L" in attempt_message(ann.chat()).button_texts, what="toggled")
            await ann.press(attempt_message(ann.chat()), "Submit")
            await env.idle()
        else:
            await _answer_both(env, ann, paper.title)
        assert [(pos, a.verdict) for pos, a in sorted((await answers_of(env.db)).items())] == [
            (0, "correct"), (1, "correct")]
    finally:
        await env.close()


async def test_twelve_options_in_a_group_daily_quiz(tmp_path, db_location):
    env = BotEnv(tmp_path, location=db_location, admins=(1,), shuffle=False)
    await env.seed(_paper(tmp_path))
    await env.start()
    try:
        fast(env)
        lead, group = env.api.user(1, "Lea"), env.api.group(GROUP, "Team")
        await lead.send("/daily on 09:00 Asia/Shanghai", chat=group)
        await lead.wait_message(lambda m: m.text.startswith("✅ Daily quiz on"), chat=group)
        await lead.send("/daily now", chat=group)
        await env.api.wait_for(lambda: len(questions(group.chat())) == 2, what="both questions pushed")
        await env.idle()
        single = next(m for m in questions(group.chat()) if "twelfth" in m.text)
        multi = next(m for m in questions(group.chat()) if "Which two" in m.text)
        assert all(len(row) <= ROW_MAX for row in single.buttons + multi.buttons)
        order = (await items_to(env.db, GROUP))[0].option_order
        ann = env.api.user(11, "Ann")
        group.add_members(11)
        shown_l = LETTERS[order.index("L")] if order else "L"
        toast = await ann.press(single, shown_l)
        assert (await toast.wait()).startswith("✅ Correct!")
        assert [a.verdict for a in await daily_answers(env.db)] == ["correct"]
    finally:
        await env.close()


@pytest.mark.parametrize("n, ok", [(26, True), (27, False)])
def test_importers_take_up_to_26_options(tmp_path, n, ok):
    """GIFT and Moodle XML alike: 26 options (A–Z) import; a 27th is refused, not keyed as '['."""
    from bank.errors import ImportFailed
    from bank.formats.moodle_xml import parse_moodle_xml

    answers = "".join(f'<answer fraction="{100 if i == n - 1 else 0}"><text>o{i}</text></answer>' for i in range(n))
    xml = (f'<?xml version="1.0"?><quiz><question type="multichoice"><name><text>many</text></name>'
           f"<questiontext><text>Which?</text></questiontext><single>true</single>{answers}</question></quiz>")
    gift = tmp_path / "many.gift"
    gift.write_text("::many:: Which? {" + " ".join(("=" if i == n - 1 else "~") + f"o{i}" for i in range(n)) + "}\n",
                    encoding="utf-8")
    if ok:
        [item] = parse_moodle_xml(xml, file="many.xml").items
        assert item.question.answer == "Z" and len(item.question.options) == 26
        [paper] = parse_any(gift)
        assert [q.answer for s in paper.sections for q in s.questions] == ["Z"]
    else:
        with pytest.raises(ImportFailed, match="at most 26"):
            parse_moodle_xml(xml, file="many.xml")
        with pytest.raises(ImportFailed, match="at most 26"):
            parse_any(gift)
