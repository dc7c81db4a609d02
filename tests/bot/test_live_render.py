"""A live round's polls as Telegram takes them: what fits, the explanation clipped to 200, pinned
options kept in place, true/false in the group's language."""

from __future__ import annotations

import random

from bank.kinds import Kind, MultiPolicy
from bank.models import Paper, PaperSettings, Question, Section
from bank.paper_store import get_questions
from bot.live import render
from bot.text_limits import utf16_len
from proctor.exams.visibility import AUDIENCE, lens
from proctor.live.answers import Standing, Standings
from proctor.live.draw import Request, draw
from proctor.live.model import Item, Round
from proctor.live.states import ItemStatus, RoundStatus
from tests.harness import BotEnv
from tests.stored import stored


def test_what_fits_a_quiz_poll():
    assert render.fits("a" * (300 - render.NUMBERING), ["x", "y"])
    assert not render.fits("a" * (301 - render.NUMBERING), ["x", "y"])
    assert not render.fits("stem", ["x" * 101, "y"])
    assert not render.fits("stem", ["x"])  # a poll has two options at least
    assert not render.fits("stem", [str(i) for i in range(11)])
    assert not render.fits("😀" * 150, ["x", "y"])  # counted in UTF-16 units, as Telegram counts


def _item(order: str = "ABC") -> Item:
    return Item(round_id=1, pos=2, question_id=1, option_order=order, correct=frozenset({0}), multiple=False,
                policy=MultiPolicy.partial, status=ItemStatus.pending, poll_id=None, message_id=None,
                posted_at=None, closes_at=None, closed_at=None)


def test_the_poll_clips_the_explanation_and_keeps_the_drawn_order():
    q = stored(Question(number=1, kind=Kind.single, stem="为什么?", options=["一", "二", "三"], answer="A",
                        explanation="解" * 500), 12, "P2")
    p = render.poll(q, _item("CAB"), 5, "en", "hant")
    assert p.question == "3/5 · P2 · Q12. 為什麼?"  # the question's place in the round, and its reference
    assert p.options == ["三", "一", "二"]
    assert p.explanation is not None and utf16_len(p.explanation) == 200 and p.explanation.endswith("…")
    tf = stored(Question(number=2, kind=Kind.truefalse, stem="对吗", answer=True), 2)
    assert render.poll(tf, _item("AB"), 5, "zh", "orig").options == ["对", "错"]
    assert render.poll(tf, _item("AB"), 5, "zh", "orig").explanation is None


async def test_pinned_options_stay_in_place_and_long_questions_are_not_drawn(tmp_path, db_location):
    pinned = Question(number=1, kind=Kind.single, stem="Which?", options=["a", "b", "c", "以上都是"], answer="D")
    long = Question(number=2, kind=Kind.single, stem="x" * 400, options=["a", "b"], answer="A")
    paper = Paper(slug="pin", title="Pinned", settings=PaperSettings(),
                  sections=[Section(kind=Kind.single, title="S", questions=[pinned, long])])
    env = BotEnv(tmp_path, location=db_location)
    await env.seed(paper)
    await env.start()
    try:
        for seed in range(10):
            drawn = await draw(env.db, await lens(env.db, AUDIENCE, -1), Request(5, 20, ""), render.fits,
                               random.Random(seed), shuffle=True, true_false=("T", "F"))
            [d] = drawn  # the long one is never drawn
            assert d.option_order[-1] == "D" and d.correct == (3,)
        q = (await get_questions(env.db, [d.question_id]))[d.question_id]
        assert q.stem == "Which?"
    finally:
        await env.close()


def _round(questions: int = 3) -> Round:
    return Round(id=1, chat_id=-1, lead_id=1, status=RoundStatus.finished, questions=questions, seconds=20,
                 lang="en", script="orig", created_at=0, starts_at=0, announced=True, standings_id=None,
                 ended_at=10, podium_posted=False)


def test_the_podium_gives_no_medal_for_zero_points():
    """Issue 22: '🥇 Ann — 0' for a round nobody got right; a medal goes only to points."""
    ann, bob = Standing(1, 11, "Ann", 1000, 1, 2), Standing(2, 12, "Bob", 0, 0, 1)
    text = render.podium(_round(), Standings(top=[ann, bob], players=2), stopped=False)
    assert "🥇 Ann — 1000" in text and "Bob" not in text and "🥈" not in text
    nobody = render.podium(_round(), Standings(top=[Standing(1, 12, "Bob", 0, 0, 1)], players=1), stopped=False)
    assert "🥇" not in nobody and "Nobody scored." in nobody and "/live me" in nobody


def test_live_me_counts_right_out_of_answered_as_the_live_board_does():
    """Issue 22: '/live me' said 1/3 right where /leaderboard live said 1/2 for the same round."""
    ann = Standing(1, 11, "Ann", 1000, 1, 2)
    text = render.my_place("Ann", _round(3), Standings(top=[ann], players=1, me=ann), "en")
    assert text == "Ann: #1 of 1 in the last round — 1000 points, 1/2 right (answered 2 of 3)."
