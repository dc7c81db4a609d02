"""A lint finding (bank/lint.py), an upload's warning or a key in doubt as a chat shows them: in the
reader's language (bot/catalogue/lint.py), placed by the paper's title, the section's name and the
question's number."""

from __future__ import annotations

from collections.abc import Mapping

from bank.kinds import Kind
from bank.lint import LintItem
from bank.lint_messages import place_fields, place_shape
from bank.question_ref import QuestionRef
from bank.section_names import short_section
from bot.i18n import CATALOGUE, joined, kind_name, t

_KINDS = {k.value for k in Kind}


def lint_message(key: str, params: Mapping[str, object], lang: str, ref: QuestionRef | None = None) -> str:
    """What the message `key` says with `params`; an unknown key (a flag added later) reads as itself. A
    reader's note says its place ("第 12 行") and a question's kind in `lang` too."""
    name = f"lint_{key}"
    if name not in CATALOGUE:
        return key
    said = {k: v for k, v in params.items() if k != "question"}  # a note's `question` is a place in its file
    if (shape := place_shape(params)) is not None:
        said["place"] = t(f"lint_place_{shape}", lang, **place_fields(params))
    if isinstance(code := params.get("ref_code"), str) and isinstance(n := params.get("ref_n"), int):
        said["question"] = QuestionRef(code, n)  # a note names a stored question by its reference's parts
    if ref is not None:
        said["question"] = ref  # the question a finding is about (quarantined_key: `proctor bank confirm P3 · Q12`)
    if key == "options_ignored" and params.get("kind") in _KINDS:
        said["kind"] = kind_name(Kind(str(params["kind"])), lang)
    if key == "explanation_vs_key" and isinstance(params.get("spoken"), str):  # letters stored as "B, C"
        said["spoken"] = joined(str(params["spoken"]).split(", "), lang)
    return t(name, lang, **said)


def where(paper: str, section: str, lang: str) -> str:
    """"Title · 填空题": the paper and section a question is in, beside its reference."""
    return t("where_section", lang, paper=paper, section=short_section(section))


def lint_line(item: LintItem, lang: str) -> str:
    """"P3 · Q12 (Title · 填空题): <what>" (a section's finding: "Title · 填空题: <what>"), in `lang`."""
    return f"{lint_place(item, lang)}: {lint_text(item, lang)}"


def lint_place(item: LintItem, lang: str) -> str:
    """Where a finding is: the question's reference with its paper and section, or the section, or the paper."""
    if item.section is None:
        return item.title or item.paper
    if item.ref is None:
        return where(item.title or item.paper, item.section_title, lang)
    return t("where_question", lang, question=item.ref, paper=item.title or item.paper,
             section=short_section(item.section_title))


def lint_text(item: LintItem, lang: str) -> str:
    """What a finding says, in `lang`."""
    return lint_message(item.text_key, item.params, lang, item.ref)
