""""Awaiting review" has one wording per language: every text that names a written answer's state
(the exam's feedback, the result card, its grid, /mystats, the desk) says the catalogue's
`state_awaiting`, and no Chinese text says it another way (等待人工评阅, 等待评阅, 待批阅 once)."""

from __future__ import annotations

import pytest

from bot.i18n import CATALOGUE, t

STATE_KEYS = ("fb_review", "pending_line", "awaiting_review", "result_grid_title", "d_state_awaiting")
OTHER_WORDINGS = ("评阅", "批阅", "等待人工")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", STATE_KEYS)
def test_a_text_naming_the_state_says_the_one_wording(key, lang):
    assert t("state_awaiting", lang) in CATALOGUE[key][lang]


def test_no_chinese_text_says_it_another_way():
    assert [key for key, texts in CATALOGUE.items() if any(w in texts.get("zh", "") for w in OTHER_WORDINGS)] == []
