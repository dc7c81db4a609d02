"""Numerical and matching questions, imported from GIFT, taken in an exam and in practice through
the fake Bot API: a typed number (decimal comma, full-width digits, scientific notation), pairs
made with buttons that cycle the letters, Submit, a draft kept over a restart and counted at
hand-in, and the key shown on the review once the paper is handed in (never while it runs)."""

from __future__ import annotations

import pytest

from bank.formats.files import parse_any
from bank.kinds import Kind
from proctor.exams import service as attempts
from tests.harness import BotEnv, attempt_message, start_exam
from tests.reads import answers_of

TITLE = "Kinds paper"
GIFT = """
::pi:: What is pi to two decimals? {#
=3.14:0.005
=%50%3.1:0.05
}

::sounds:: Match each animal with its sound. {
=cat -> meow
=dog -> woof
=cow -> moo
}
"""


def kinds_paper(tmp_path):
    path = tmp_path / "kinds.gift"
    path.write_text(GIFT, encoding="utf-8")
    [paper] = parse_any(path)
    paper.title = TITLE
    assert [q.kind for q in paper.questions()] == [Kind.numerical, Kind.matching]
    assert all(q.askable for q in paper.questions()) and not paper.notes
    return paper


async def _env(tmp_path, db_location) -> BotEnv:
    env = BotEnv(tmp_path, location=db_location, shuffle=False)  # choices shown as imported: A meow, B woof, C moo
    await env.seed(kinds_paper(tmp_path))
    await env.start()
    return env


def _live(user):
    return attempt_message(user.chat())


async def _cycle(env, user, row: str, times: int) -> None:
    """Press the matching row starting with `row` ("1.") `times` times, waiting for each edit."""
    for _ in range(times):
        msg = _live(user)
        label = next(b for b in msg.button_texts if b.startswith(row))
        edits = msg.edits
        await user.press(msg, label)
        await env.api.wait_for(lambda m=msg, e=edits: m.edits > e, what=f"row {row} cycled")
        await env.idle()


async def _shown(env, user, predicate, what: str):
    """The newest bot message (sent or edited) that matches."""
    def found():
        return next((m for m in reversed(user.chat()) if m.from_bot and not m.deleted and predicate(m)), None)
    return await env.api.wait_for(found, what=what)


async def _answers(env) -> list[tuple[int, str, float]]:
    return [(pos, a.verdict, a.score) for pos, a in sorted((await answers_of(env.db)).items())]


@pytest.mark.parametrize("typed, presses, verdicts", [
    ("３．１４", (1, 2, 3), [(0, "correct", 1.0), (1, "correct", 1.0)]),
    ("3,1", (1, 3, 0), [(0, "partial", 0.5), (1, "partial", 0.33)]),
    ("1e-3", (2, 1, 0), [(0, "wrong", 0.0), (1, "wrong", 0.0)]),
])
async def test_an_exam_with_a_number_and_pairs(tmp_path, db_location, typed, presses, verdicts):
    env = await _env(tmp_path, db_location)
    try:
        ann = env.api.user(1001, "Ann", language_code="en")
        msg = await start_exam(env, ann, TITLE)
        assert "What is pi" in msg.text and "Type a number" in msg.text
        await ann.send("pi, I think")  # not a number: said so, nothing stored
        await ann.wait_message(lambda m: "couldn't read that as a number" in (m.text or ""))
        assert await _answers(env) == []
        await ann.send(typed)
        await ann.wait_message(lambda m: "Recorded for P1 · Q1" in (m.text or ""))
        await env.api.wait_for(lambda: _live(ann) and "Match each animal" in _live(ann).text, what="matching")
        await env.idle()
        screen = _live(ann)
        assert "1. cat" in screen.text and "A. meow" in screen.text and "C. moo" in screen.text
        assert [b for b in screen.button_texts if b[0].isdigit()] == ["1. cat → ?", "2. dog → ?", "3. cow → ?"]
        assert "meow" not in "".join(screen.button_texts)  # the key is nowhere on a running exam's screen
        await ann.send("A")  # matching takes buttons only
        await ann.wait_message(lambda m: "Answer this one with the buttons" in (m.text or ""))
        for row, times in enumerate(presses, start=1):
            await _cycle(env, ann, f"{row}.", times)
            if row == 1 and typed == "3,1":  # a restart mid-matching keeps the pairs made so far
                await env.restart()
                await ann.send("/resume")
                await env.api.wait_for(lambda: _live(ann) and "1. cat → A" in _live(ann).button_texts,
                                       what="the draft after the restart")
                await env.idle()
        letters = "?ABC"
        shown = [f"{row}. {animal} → {letters[n % 4] if n else '?'}"
                 for row, animal, n in zip((1, 2, 3), ("cat", "dog", "cow"), presses, strict=True)]
        assert [b for b in _live(ann).button_texts if b[0].isdigit()] == shown
        assert "Pairs so far:" in _live(ann).text
        if typed == "1e-3":  # handed in without Submit: the pairs on the screen count
            await ann.press(_live(ann), "Finish")
            confirm = await _shown(env, ann, lambda m: "Yes, finish" in m.button_texts, "the finish screen")
            assert "Q2: pairs 1→B, 2→A, 3→?, not submitted" in confirm.text
        else:
            await ann.press(_live(ann), "Submit")
            confirm = await _shown(env, ann, lambda m: "Yes, finish" in m.button_texts, "the finish screen")
        await ann.press(confirm, "Yes, finish")
        card = await _shown(env, ann, lambda m: "Review all" in " ".join(m.button_texts), "the result card")
        assert await _answers(env) == verdicts
        await ann.press(card, "🔍 Review all answers")
        page = await _shown(env, ann, lambda m: "Answer: 3.14 ± 0.005 / 3.1 ± 0.05 (50%)" in (m.text or ""),
                            "the review of Q1")
        await ann.press(page, "▶")
        await env.api.wait_for(lambda: "Answer: 1→A, 2→B, 3→C" in (page.text or ""), what="the matching key")
        yours = {(1, 2, 3): "1→A, 2→B, 3→C", (1, 3, 0): "1→A, 2→C, 3→?", (2, 1, 0): "1→B, 2→A, 3→?"}[presses]
        assert f"Your answer: {yours}" in page.text
    finally:
        await env.close()


async def test_practice_shows_the_key_after_each(tmp_path, db_location):
    env = await _env(tmp_path, db_location)
    try:
        ann = env.api.user(1001, "Ann", language_code="en")
        await ann.send(f"/practice {TITLE}")
        await env.api.wait_for(lambda: _live(ann) and "What is pi" in _live(ann).text, what="practice")
        await env.idle()
        await ann.send("3.1")
        await env.api.wait_for(lambda: "Answer: 3.14 ± 0.005 / 3.1 ± 0.05 (50%)" in (_live(ann).text or ""),
                               what="the numerical feedback")
        await env.idle()
        await ann.press(_live(ann), "Next ▶")
        await env.api.wait_for(lambda: "Match each animal" in _live(ann).text, what="the matching question")
        await env.idle()
        await _cycle(env, ann, "1.", 2)
        await _cycle(env, ann, "2.", 1)
        await _cycle(env, ann, "3.", 3)
        await ann.press(_live(ann), "Submit")
        await env.api.wait_for(lambda: "Answer: 1→A, 2→B, 3→C" in (_live(ann).text or ""),
                               what="the matching feedback")
        assert await _answers(env) == [(0, "partial", 0.5), (1, "partial", 0.33)]
        sheet = await attempts.load_sheet(env.db, (await attempts.running_attempt(env.db, ann.id)).id)
        assert sheet.answers[1].response == ["woof", "meow", "moo"]
    finally:
        await env.close()
