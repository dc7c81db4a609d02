"""Every flag and oddity of a bank, as a list a lead can work through.

Checks: the flags on questions (truncated, corrupted, repaired, no_answer, no_explanation);
sections that declare another count than they hold; sections without points or explanations;
duplicate stems within a paper and across papers (after NFKC, Traditional-to-Simplified, and
dropping punctuation and blanks); explanations that speak for an option the key excludes; and what
the import stored (bank/question_checks.py): questions held out (quarantined), pinned options,
letters that name options.

The explanation rule, kept deliberately simple: for a single or multi question, an option the
key excludes is "spoken for" when the explanation names it as "（D）"/"(D)" or lists its text as an
item ("X、Y和Z都是…"), in a sentence that has no negative or diverting word (不, 非, 無, 没,
主要用於, 更多…). "以上都是" in the key counts as every option being in the key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question, Section
from bank.question_ref import QuestionRef
from bank.script import converter

_NEGATIVE = ("不", "非", "無", "无", "没", "沒", "主要用於", "主要用于", "更多", "而是", "關係不大", "关系不大")
_ALL_OF_ABOVE = ("以上都是", "以上均是", "以上都對", "以上都对", "以上全是", "以上皆是", "全部")
_SENTENCE = re.compile(r"[^。；;！!？?\n]+")
_ITEM_BEFORE = "、和及與与，,：:如"
_ITEM_AFTER = "、和及與与，,。（(都是可"
# a reader's notes that a lint finding says again: the codes, and how older releases wrote them
_PARSER_NOTES = ("declared_count", "cut_at_end", "points_missing")
_PARSER_NOTE_TEXTS = ("declares", "cut off at the end", "points per question not given")


@dataclass(frozen=True)
class LintItem:
    """One finding: where (the paper's slug and title, the section's position and title, the question's
    number, id and reference) and what, as a code with named parameters (bot/lint_lines.py says it, in
    English from bank/lint_messages.py and in Chinese from bot/catalogue/lint.py)."""

    paper: str  # slug
    section: int | None  # 1-based position
    number: int | None
    question_id: int | None
    code: str
    params: dict[str, object] = field(default_factory=dict, hash=False)
    title: str = ""  # the paper's
    section_title: str = ""
    message_key: str = ""  # the text to say, when not the code's own
    ref: QuestionRef | None = None  # the question's reference (Paper.ref_of), for a finding about one

    @property
    def text_key(self) -> str:
        return self.message_key or self.code


def lint(papers: list[Paper]) -> list[LintItem]:
    """Everything worth a lead's look, paper by paper, in order."""
    items: list[LintItem] = []
    seen_across: dict[str, tuple[Paper, Question]] = {}  # stem -> the first paper and question with it
    for p in papers:
        seen_here: dict[str, Question] = {}
        for note in p.notes:
            if note.code in _PARSER_NOTES or any(k in str(note.params.get("note", "")) for k in _PARSER_NOTE_TEXTS):
                continue
            items.append(LintItem(p.slug, None, None, None, "note", dict(note.params), p.title,
                                  message_key=note.code))
        for pos, s in enumerate(p.sections, start=1):
            here = partial(_item, p, pos, s, None)
            if s.declared_count is not None and s.declared_count != len(s.questions):
                items.append(here("count", declared=s.declared_count, found=len(s.questions)))
            if s.points_each is None:
                items.append(here("default_points"))
            if s.questions and not any(q.explanation for q in s.questions):
                items.append(here("no_explanations", n=len(s.questions)))
            for q in s.questions:
                at = partial(_item, p, pos, s, q)
                for flag in q.flags:
                    items.append(at(flag))
                key = normalise_stem(q.stem)
                if not key:
                    continue
                # the question kept, its reference made only for a duplicate (ref_of scans an unstored paper)
                if key in seen_here:
                    items.append(at("duplicate", other_question=p.ref_of(seen_here[key])))
                else:
                    seen_here[key] = q
                other = seen_across.get(key)
                if other and other[0].slug != p.slug:
                    items.append(at("duplicate_across", other_paper=other[0].title,
                                    other_question=other[0].ref_of(other[1])))
                elif other is None:
                    seen_across[key] = (p, q)
                spoken = explanation_speaks_for(q)
                if spoken:
                    items.append(at("explanation_vs_key", **key_doubt(q, spoken)))
                items += _check_items(q, at)
    return items


def _item(p: Paper, pos: int, s: Section, q: Question | None, code: str, message_key: str = "",
          **params: object) -> LintItem:
    """A finding about section `pos` of the paper, or about its question `q`."""
    if q is None:
        return LintItem(p.slug, pos, None, None, code, params, p.title, s.title, message_key)
    return LintItem(p.slug, pos, q.number, q.id, code, params, p.title, s.title, message_key, p.ref_of(q))


def key_doubt(q: Question, spoken: list[str]) -> dict[str, str]:
    """The parameters of a key in doubt (`explanation_vs_key`; stored by bank/question_checks.py)."""
    return {"answer": str(q.answer), "spoken": ", ".join(spoken)}


def _check_items(q: Question, at: Callable[..., LintItem]) -> list[LintItem]:
    """What the import stored about the question (bank/question_checks.py): held, pinned, letters."""
    out = []
    if q.held == "key":
        out.append(at("quarantined", "quarantined_key"))
    elif q.held == "duplicate":
        out.append(at("quarantined", "quarantined_duplicate"))
    if q.pinned:
        out.append(at("pinned_options", letters=", ".join(chr(65 + i) for i in q.pinned)))
    if q.letter_refs:
        out.append(at("letter_refs", where=", ".join(sorted(q.letter_refs))))
    return out


def normalise_stem(stem: str) -> str:
    """NFKC, Simplified, letters and digits only: "數據並行___。" and "数据并行" compare equal."""
    text = converter("t2s").convert(unicodedata.normalize("NFKC", stem))
    return "".join(ch for ch in text if ch.isalnum()).lower()


def explanation_speaks_for(q: Question) -> list[str]:
    """Letters of options the key excludes that the explanation presents as right."""
    if q.kind not in CHOICE or not q.explanation or not isinstance(q.answer, str) or not q.options:
        return []
    key = set(q.answer)
    if any(q.options[ord(c) - 65].strip() in _ALL_OF_ABOVE for c in key if ord(c) - 65 < len(q.options)):
        return []
    letters = [chr(65 + i) for i in range(len(q.options))]
    key_texts = [q.options[ord(c) - 65] for c in key if ord(c) - 65 < len(q.options)]
    found = []
    for sentence in _SENTENCE.findall(q.explanation):
        if any(w in sentence for w in _NEGATIVE):
            continue
        for letter, text in zip(letters, q.options, strict=True):
            if letter in key or letter in found:
                continue
            if re.search(rf"[（(]\s*{letter}\s*[)）]", sentence) or _listed(sentence, text, key_texts):
                found.append(letter)
    return sorted(found)


def _listed(sentence: str, text: str, key_texts: list[str]) -> bool:
    """The option's text stands in the sentence as an item of a list, not inside another word."""
    text = text.strip()
    if len(text) < 2:
        return False
    start = 0
    while (i := sentence.find(text, start)) >= 0:
        start = i + 1
        before = sentence[i - 1] if i else ""
        after = sentence[i + len(text)] if i + len(text) < len(sentence) else ""
        if (not before or before in _ITEM_BEFORE) and (not after or after in _ITEM_AFTER):
            inside_key = any(
                t != text and text in t and sentence.find(t, max(0, i - len(t))) != -1 for t in key_texts)
            if not inside_key:
                return True
    return False


def summary(items: list[LintItem]) -> dict[str, int]:
    out: dict[str, int] = {}
    for it in items:
        out[it.code] = out.get(it.code, 0) + 1
    return out


__all__ = ["LintItem", "Kind", "explanation_speaks_for", "key_doubt", "lint", "normalise_stem", "summary"]
