"""Every catalogue text names a question one way: its reference `P3 · Q43` (`P3 · 第43题`), from a
`QuestionRef` in a `{question}` field (bot/i18n.py renders it, and raises for anything else there); a
bank id only where a command takes one, labelled (`bank id #83`, `题库编号 #83`), from a `BankId` in
`{bank_id}`. Each entry is rendered in English, Chinese and Traditional Chinese with typed sample
values and searched for any other form: a bare `#83`, `第 #83 题`, a bare `Q9` or `第9题`, a
section-local `q3` or "question 3"."""

from __future__ import annotations

import string

import pytest

from bank.question_ref import BankId, QuestionRef
from bank.script import to_script
from bot.i18n import CATALOGUE, t
from tests.ref_forms import forms as _forms

REF = QuestionRef("P3", 43, 9083)
BANK_ID = BankId(9083)

# texts whose numbers are no question of the bank, with why
_NOT_QUESTIONS = {
    "iv_list_row": "an invite's number starts the row",
    **{k: "a place in a file being read (its n-th question), said in the reader's note"
       for k in CATALOGUE if k.startswith("lint_place_")},
}


def _fields(text: str) -> dict[str, str]:
    return {name: spec or "" for _, name, spec, _ in string.Formatter().parse(text) if name}


def _sample(name: str) -> object:
    if name == "question" or name.endswith("_question"):
        return REF
    if name == "bank_id":
        return BANK_ID
    if name == "code":
        return "P3"
    return 2


def _renders(key: str):
    texts = CATALOGUE[key]
    for lang in ("en", "zh"):
        fields = _fields(texts.get(lang) or texts["en"])
        text = t(key, lang, **{name: _sample(name) for name in fields})
        yield lang, text
        if lang == "zh":
            yield "zh-hant", to_script(text, "hant")


@pytest.mark.parametrize("key", sorted(set(CATALOGUE) - set(_NOT_QUESTIONS)))
def test_every_text_names_a_question_by_its_reference(key):
    bad = [f"{lang}: {form}" for lang, text in _renders(key) for form in _forms(text)]
    assert not bad, "\n".join(bad)


def test_a_reference_renders_in_each_language():
    assert t("ref_question", "en", code="P3", n=43) == "P3 · Q43"
    assert t("ref_question", "zh", code="P3", n=43) == "P3 · 第43题"
    assert to_script(t("ref_question", "zh", code="P3", n=43), "hant") == "P3 · 第43題"
    assert t("ref_bank_id", "en", id=83) == "bank id #83"


def test_only_a_reference_goes_in_a_question_field():
    key = next(k for k in sorted(CATALOGUE) if "question" in _fields(CATALOGUE[k]["en"]))
    others = {name: 2 for name in _fields(CATALOGUE[key]["en"]) if name != "question"}
    for wrong in (83, "Q43", "#83", BANK_ID):
        with pytest.raises(TypeError):
            t(key, "en", question=wrong, **others)
    with pytest.raises(TypeError):
        t("ref_bank_id", "en", id=REF)  # a reference in a field that is no question's
    assert "P3 · Q43" in t(key, "en", question=REF, **others)

