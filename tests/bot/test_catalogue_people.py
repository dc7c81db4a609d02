"""Issue 22: internal names do not reach people. No text of the catalogue that a candidate or lead
reads names a setting (PROCTOR_ADMINS), and every lint message and warning exists in both languages."""

from bank.lint_messages import ENGLISH
from bot.i18n import CATALOGUE


def test_no_text_names_the_admins_setting():
    assert [key for key, texts in CATALOGUE.items() if any("PROCTOR_ADMINS" in v for v in texts.values())] == []


def test_every_lint_message_exists_in_both_languages():
    for key in ENGLISH:
        texts = CATALOGUE[f"lint_{key}"]
        assert texts["en"] == ENGLISH[key] and texts["zh"] and texts["zh"] != texts["en"], key


def test_a_doubted_keys_letters_are_listed_as_each_language_lists():
    from bot.lint_lines import lint_message

    doubt = {"answer": "AD", "spoken": "B, C"}  # as bank/question_checks.py stores it
    assert lint_message("explanation_vs_key", doubt, "en") == "key AD, but the explanation speaks for B, C"
    assert lint_message("explanation_vs_key", doubt, "zh") == "答案为 AD，但解析支持 B、C"
