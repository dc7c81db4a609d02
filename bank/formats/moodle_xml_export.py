"""Papers written as Moodle XML (texts as plain_text, so nothing is read as markup on the way back): a
category per paper and section (`$course$/top/P3 title/section`, the paper's subject and settings in
its first category's <info>), a question's ref in <idnumber>, its points in <defaultgrade>, its topic
as its one tag."""

from __future__ import annotations

from xml.etree.ElementTree import Element, SubElement, indent, tostring

from bank.formats.build import effective_weights
from bank.formats.paper_facts import category_path, one_line, settings_text
from bank.formats.ref import ref_text
from bank.formats.summary import ExportSummary, Reason
from bank.kinds import CHOICE, Kind
from bank.models import Paper, Question

_TYPES = {Kind.single: "multichoice", Kind.multi: "multichoice", Kind.truefalse: "truefalse",
          Kind.fill: "shortanswer", Kind.numerical: "numerical", Kind.matching: "matching",
          Kind.short: "essay", Kind.discussion: "essay", Kind.case: "essay"}


def _text(parent: Element, tag: str, text: str, *, fmt: str | None = "plain_text") -> Element:
    el = SubElement(parent, tag, {"format": fmt} if fmt else {})
    SubElement(el, "text").text = text
    return el


def _pct(w: float) -> str:
    return f"{w * 100:.5f}".rstrip("0").rstrip(".")


def _answer(q_el: Element, text: str, weight: float, feedback: str) -> Element:
    a = SubElement(q_el, "answer", {"fraction": _pct(weight), "format": "plain_text"})
    SubElement(a, "text").text = text
    if feedback:
        _text(a, "feedback", feedback)
    return a


def _fb(q: Question, i: int) -> str:
    return q.feedback[i] if i < len(q.feedback) else ""


def _carried(q: Question) -> bool:
    """Moodle XML's shortanswer holds one blank."""
    return not (q.kind is Kind.fill and (not isinstance(q.answer, list) or len(q.answer) != 1))


def _question(quiz: Element, q: Question, ref: str) -> None:
    el = SubElement(quiz, "question", {"type": _TYPES[q.kind]})
    _text(el, "name", q.name, fmt=None)
    SubElement(el, "idnumber").text = ref  # Moodle's own field for an identity (bank/formats/ref.py)
    _text(el, "questiontext", q.stem)
    _text(el, "generalfeedback", q.explanation)
    SubElement(el, "defaultgrade").text = f"{q.points:g}"
    weights = effective_weights(q)
    rows = q.answer if isinstance(q.answer, list) else []  # fill, numerical, matching
    if q.kind in CHOICE:
        SubElement(el, "single").text = "true" if q.kind is Kind.single else "false"
        for i, option in enumerate(q.options):
            _answer(el, option, weights[i] if i < len(weights) else 0.0, _fb(q, i))
    elif q.kind is Kind.truefalse:
        _answer(el, "true", 1.0 if q.answer else 0.0, _fb(q, 0))
        _answer(el, "false", 0.0 if q.answer else 1.0, _fb(q, 1))
    elif q.kind is Kind.fill:
        for i, form in enumerate(rows[0]):
            _answer(el, form, weights[i], _fb(q, i))
    elif q.kind is Kind.numerical:
        for i, (value, tolerance) in enumerate(rows):
            a = _answer(el, value, weights[i], _fb(q, i))
            SubElement(a, "tolerance").text = tolerance
    elif q.kind is Kind.matching:
        for left, right in rows:
            sub = _text(el, "subquestion", left)
            SubElement(SubElement(sub, "answer"), "text").text = right
    else:
        _text(el, "graderinfo", q.answer if isinstance(q.answer, str) else "")
    if q.topic:
        SubElement(SubElement(SubElement(el, "tags"), "tag"), "text").text = q.topic


def _category(quiz: Element, p: Paper, title: str, head: bool) -> None:
    """A category per section (`$course$/top/P3 title/section`); the paper's first holds its subject and
    settings in its <info>."""
    cat = SubElement(quiz, "question", {"type": "category"})
    _text(cat, "category", category_path(p.code, p.title, title), fmt=None)
    if head:
        _text(cat, "info", f"subject: {one_line(p.subject)}\nsettings: {settings_text(p.settings)}", fmt="plain_text")


def to_moodle_xml(papers: list[Paper], summary: ExportSummary) -> str:
    """The papers as one Moodle XML quiz: a category per paper and section, topics as tags."""
    quiz = Element("quiz")
    for p in papers:
        summary.started(p)
        head = True
        for pos, s in enumerate(p.sections, start=1):
            written = [q for q in s.questions if _carried(q)]
            for q in s.questions:
                if not _carried(q):
                    summary.leave_out(p, pos, q.number, Reason.several_blanks)
            if not written:
                continue
            _category(quiz, p, s.title, head)
            head = False
            for q in written:
                _question(quiz, q, ref_text(p.slug, pos, q))
                summary.wrote(p)
    indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(quiz, encoding="unicode") + "\n"
