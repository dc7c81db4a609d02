"""The one text catalogue: every key in English and Simplified Chinese, with the same placeholders."""

import re
import string

import pytest

from bot.i18n import CATALOGUE, pick_lang, t

FIELDS = string.Formatter()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in FIELDS.parse(text) if name}


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_text_in_both_languages_with_the_same_placeholders(key):
    texts = CATALOGUE[key]
    assert set(texts) == {"en", "zh"}, key
    assert texts["en"].strip() and texts["zh"].strip()
    # the same values are passed in either language; only English needs a plural unit
    assert _fields(texts["zh"]) <= _fields(texts["en"]), key
    assert _fields(texts["en"]) - _fields(texts["zh"]) <= {"unit"}, key


def test_chinese_texts_are_simplified():
    import opencc

    to_simplified = opencc.OpenCC("t2s")
    for key, texts in CATALOGUE.items():
        zh = re.sub(r"[{].*?[}]", "", texts["zh"])
        assert to_simplified.convert(zh) == zh, key


def test_language_choice():
    assert pick_lang("zh", "en", "en") == "zh"  # /lang wins
    assert pick_lang(None, "zh-hant", "en") == "zh"
    assert pick_lang(None, None, "zh") == "zh"
    assert pick_lang(None, "de", "zh") == "en"
    assert t("lang_set", "fr") == CATALOGUE["lang_set"]["en"]
