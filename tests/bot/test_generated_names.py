"""Names the bot generates are rendered per reader at display time; titles and headings a file gave
are data, shown as imported. A file without sections (GIFT here) and a mock paper store the bot's
own section names (bank.kinds.SECTION_TITLES): an English screen says "Numerical", never 数值题; a
Chinese reader of Traditional characters never reads a Simplified word the bot generated."""

from __future__ import annotations

import pytest

from bank.formats.files import parse_bytes
from bank.kinds import SECTION_TITLES, Kind
from bank.models import Paper, PaperSettings, Question, Section
from bank.script import to_script
from bot.i18n import CATALOGUE
from tests.harness import BotEnv, at_place, attempt_message

GIFT = """
::gpus:: How many GPUs does a node of eight hold? {#8}

::dp:: Data parallelism splits the… {=batch ~model ~optimiser}
"""


def headed() -> Paper:
    """A paper whose file gave its section a heading: data, shown as imported."""
    return Paper(slug="headed", title="Headed", settings=PaperSettings(), sections=[
        Section(kind=Kind.single, title="一、选择题（每题1分，共1分）", points_each=1, questions=[
            Question(number=1, kind=Kind.single, stem="Pick A", options=["a", "b"], answer="A", points=1)])])


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, shuffle=False)
    await e.seed(*parse_bytes(GIFT.encode(), "quiz.gift"), headed())
    await e.start()
    yield e
    await e.close()


async def _finish(env, user, labels: dict[str, str]):
    """Finish the running exam as a person would; the result card."""
    await user.press(attempt_message(user.chat()), labels["btn_finish"])
    confirm = await user.wait_message(lambda m: labels["btn_yes_finish"] in m.button_texts)
    await user.press(confirm, labels["btn_yes_finish"])
    return await user.wait_message(lambda m: (m.text or "").startswith("🏁"))


async def test_an_english_screen_names_a_generated_section_by_its_kind_and_an_imported_heading_as_written(env):
    english = {key: CATALOGUE[key]["en"] for key in ("start_button", "btn_finish", "btn_yes_finish")}
    ann = env.api.user(11, "Ann", language_code="en")
    await ann.send("/exam quiz")
    card = await ann.wait_message(lambda m: english["start_button"] in m.button_texts)
    await ann.press(card, english["start_button"])
    sheet = await env.api.wait_for(lambda: attempt_message(ann.chat()))
    assert at_place(sheet.text, 1, 2) and " · Numerical · " in sheet.text.splitlines()[0], sheet.text
    result = await _finish(env, ann, english)
    assert "• Numerical: 0/1" in result.text and "• Single choice: 0/1" in result.text, result.text
    generated = set(SECTION_TITLES.values())
    assert not [name for name in generated if name in sheet.text + result.text]

    await ann.send("/exam headed")
    card = await ann.wait_message(lambda m: english["start_button"] in m.button_texts)
    await ann.press(card, english["start_button"])
    sheet = await env.api.wait_for(lambda: (m := attempt_message(ann.chat())) and "Pick A" in m.text and m)
    assert at_place(sheet.text, 1, 1) and " · 选择题 · " in sheet.text.splitlines()[0], sheet.text  # the file's heading, as imported


async def test_a_traditional_readers_mock_result_has_no_simplified_word_the_bot_generated(tmp_path):
    env = BotEnv(tmp_path, shuffle=False)  # the bundled bank: the mock paper draws from it
    await env.start()
    try:
        hant = {key: to_script(CATALOGUE[key]["zh"], "hant") for key in ("start_button", "btn_finish",
                                                                          "btn_yes_finish")}
        cy = env.api.user(12, "Cy", language_code="en")
        for command in ("/lang zh", "/script hant"):
            await cy.send(command)
            await cy.wait_message()
        await cy.send("/exam random")
        card = await cy.wait_message(lambda m: hant["start_button"] in m.button_texts)
        assert "模擬卷" in card.text and to_script(card.text, "hant") == card.text, card.text
        await cy.press(card, hant["start_button"])
        sheet = await env.api.wait_for(lambda: attempt_message(cy.chat()))
        assert to_script(sheet.text, "hant") == sheet.text, sheet.text
        result = await _finish(env, cy, hant)
        assert result.text.startswith("🏁 模擬卷 — 成績"), result.text
        assert to_script(result.text, "hant") == result.text, result.text
    finally:
        await env.close()
