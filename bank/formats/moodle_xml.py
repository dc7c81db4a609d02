"""Moodle XML, read with defusedxml (no entity expansion, no external entities).

Read: multichoice (single and multiple, fractions), truefalse, shortanswer, numerical, matching,
essay, categories (topics; in a file the bank exported, papers and sections, and a question's tag its
topic), general feedback (the explanation), default grade (points), and
feedback per answer. A description is skipped with a note; any other type (cloze, calculated,
drag and drop, ordering, random, ...) is reported by line and skipped.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from bank.errors import ImportFailed
from bank.formats.build import Item, Parsed, category_place, keep_weights, round_weight
from bank.formats.html_text import html_to_text
from bank.formats.paper_facts import from_one_line, read_settings
from bank.formats.ref import read_ref
from bank.import_notes import note
from bank.kinds import Flag, Kind
from bank.models import Question
from bank.option_order import LETTERS, MAX_OPTIONS

_QUESTION_TAG = re.compile(r"<question[\s>]")


def looks_like_moodle_xml(text: str) -> bool:
    head = text.lstrip()[:500]
    return head.startswith("<?xml") or head.startswith("<quiz")


def parse_moodle_xml(text: str, *, file: str) -> Parsed:
    """Items and notes from a Moodle XML file. Raises ImportFailed naming the line."""
    try:
        root = fromstring(text.encode("utf-8"))
    except ParseError as e:
        line = e.position[0] if getattr(e, "position", None) else "?"
        raise ImportFailed(file, f"line {line}", f"not well-formed XML: {e}") from e
    except DefusedXmlException as e:
        raise ImportFailed(file, "document", f"refused: {type(e).__name__} (entities are not read)") from e
    if root.tag != "quiz":
        raise ImportFailed(file, "line 1", f"expected a <quiz> document, found <{root.tag}>")
    # ElementTree keeps no line numbers; the n-th <question tag in the text is the n-th element
    lines = [text.count("\n", 0, m.start()) + 1 for m in _QUESTION_TAG.finditer(text)]
    elements = root.findall("question")
    if len(lines) != len(elements):
        lines = []
    out = Parsed()
    # a file the bank exported (refs in <idnumber>) names a paper and a section in each category, and a
    # question's topic in its tag; in any other file a category is a topic, as Moodle means it
    exported = any((el.findtext("idnumber") or "").strip() for el in elements)
    topic, paper, section = "", "", ""
    for i, el in enumerate(elements):
        place = f"line {lines[i]}" if lines else f"question {i + 1}"
        kind = el.get("type", "")
        if kind == "category":
            path = _text(el.find("category"), plain=True)
            topic, paper, section, code = category_place(path, exported)
            if code is not None:
                _category_info(out, paper, code, _text(el.find("info"), plain=True), file=file, place=place)
            continue
        reader = _READERS.get(kind)
        if reader is None:
            out.notes.append(note("xml_description_skipped", place) if kind == "description"
                             else note("type_skipped", place, type=kind or "typeless"))
            continue
        try:
            q = reader(el, out, place)
        except ValueError as e:
            raise ImportFailed(file, place, str(e)) from e
        if q is None:
            continue
        q.name = _text(el.find("name"), plain=True)
        try:
            read_ref(q, el.findtext("idnumber") or "")
        except ValueError as e:
            raise ImportFailed(file, place, f"<idnumber>: {e}") from None
        q.explanation = _text(el.find("generalfeedback"))
        q.topic = _tag(el, out, place) if paper else topic
        grade = (el.findtext("defaultgrade") or "").strip()
        if grade:
            q.points = _float(grade, "defaultgrade")
        out.items.append(Item(q, place, paper=paper, section=section))
    return out


def _category_info(out: Parsed, paper: str, code: str, info: str, *, file: str, place: str) -> None:
    """A paper's code, and the subject and settings an export wrote in its category's <info>."""
    facts = out.paper_facts(paper)
    facts.code = code
    for line in info.splitlines():
        key, sep, value = line.partition(":")
        if not sep or key.strip() not in ("subject", "settings"):
            continue
        if key.strip() == "subject":
            facts.subject = from_one_line(value)
        else:
            try:
                facts.settings = read_settings(value)
            except ValueError as e:
                raise ImportFailed(file, place, f"the category's settings: {e}") from None


def _tag(el: Element, out: Parsed, place: str) -> str:
    """An exported question's topic: its first tag (a note says when it has more)."""
    tags = [t for t in (_text(x, plain=True) for x in el.findall("tags/tag")) if t]
    if len(tags) > 1:
        out.notes.append(note("tags_dropped", place, kept=tags[0], dropped=", ".join(tags[1:])))
    return tags[0] if tags else ""


def _text(el: Element | None, *, plain: bool = False) -> str:
    """The <text> of an element (or its own text), HTML reduced unless the format says otherwise."""
    if el is None:
        return ""
    inner = el.find("text")
    raw = (inner.text if inner is not None else el.text) or ""
    if plain or el.get("format", "html") in ("plain_text", "moodle_auto_format", "markdown"):
        return raw.strip()
    return html_to_text(raw)


def _float(s: str, what: str) -> float:
    try:
        return float(s)
    except ValueError:
        raise ValueError(f"expected a number in <{what}>, found {s!r}") from None


def _answers(el: Element) -> list[tuple[str, float, str, Element]]:
    """(text, fraction 0..1, feedback, element) per <answer>."""
    out = []
    for a in el.findall("answer"):
        fraction = round_weight(_float(a.get("fraction", "0"), "answer fraction") / 100)
        out.append((_text(a), fraction, _text(a.find("feedback")), a))
    return out


def _multichoice(el: Element, out: Parsed, place: str) -> Question | None:
    answers = _answers(el)
    options = [t for t, _, _, _ in answers]
    weights = [w for _, w, _, _ in answers]
    feedback = [f for _, _, f, _ in answers]
    if len(options) < 2:
        raise ValueError(f"expected at least two answers, found {len(options)}")
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"{len(options)} answers; expected at most {MAX_OPTIONS} (A–Z)")
    single = (el.findtext("single") or "true").strip().lower() in ("true", "1")
    if single:
        best = max(weights)
        key = LETTERS[weights.index(best)] if best > 0 else ""
    else:
        key = "".join(LETTERS[i] for i, w in enumerate(weights) if w > 0)
    kind = Kind.single if single else Kind.multi
    q = Question(number=0, kind=kind, stem=_text(el.find("questiontext")), options=options, answer=key)
    if not key:
        out.notes.append(note("no_credit_kept", place))
        q.flags.append(Flag.no_answer.value)
    q.weights = keep_weights(q, weights) if key else weights
    q.feedback = feedback if any(feedback) else []
    return q


def _truefalse(el: Element, out: Parsed, place: str) -> Question:
    by_value: dict[bool, tuple[float, str]] = {}
    for text, fraction, feedback, _ in _answers(el):
        value = text.strip().lower()
        if value not in ("true", "false"):
            raise ValueError(f"expected a true or false answer, found {text!r}")
        by_value[value == "true"] = (fraction, feedback)
    if set(by_value) != {True, False}:
        raise ValueError("expected one true and one false answer")
    key = by_value[True][0] >= by_value[False][0]
    feedbacks = [by_value[True][1], by_value[False][1]]
    return Question(number=0, kind=Kind.truefalse, stem=_text(el.find("questiontext")), answer=key,
                    feedback=feedbacks if any(feedbacks) else [])


def _shortanswer(el: Element, out: Parsed, place: str) -> Question:
    answers = [a for a in _answers(el) if a[0]]
    if not answers:
        raise ValueError("a short answer with no accepted answer")
    if any("*" in t for t, _, _, _ in answers):
        out.notes.append(note("wildcard", place))
    weights = [w for _, w, _, _ in answers]
    feedback = [f for _, _, f, _ in answers]
    return Question(number=0, kind=Kind.fill, stem=_text(el.find("questiontext")),
                    answer=[[t for t, _, _, _ in answers]],
                    weights=[] if all(w == 1.0 for w in weights) else weights,
                    feedback=feedback if any(feedback) else [])


def _decimal(s: str, what: str) -> str:
    try:
        return str(Decimal(s.strip()))
    except InvalidOperation:
        raise ValueError(f"expected a number in <{what}>, found {s!r}") from None


def _numerical(el: Element, out: Parsed, place: str) -> Question:
    values, weights, feedback = [], [], []
    for text, fraction, fb, a in _answers(el):
        value = "*" if text.strip() in ("*", "") else _decimal(text, "answer")
        values.append([value, _decimal(a.findtext("tolerance") or "0", "tolerance")])
        weights.append(fraction)
        feedback.append(fb)
    if not values:
        raise ValueError("a numerical question with no answer")
    units = el.find("units")
    if units is not None and units.findall("unit"):
        out.notes.append(note("units", place))
    return Question(number=0, kind=Kind.numerical, stem=_text(el.find("questiontext")), answer=values,
                    weights=[] if all(w == 1.0 for w in weights) else weights,
                    feedback=feedback if any(feedback) else [])


def _matching(el: Element, out: Parsed, place: str) -> Question:
    pairs = []
    for sub in el.findall("subquestion"):
        right = sub.find("answer")
        pairs.append([_text(sub), _text(right, plain=True) if right is not None else ""])
    if sum(1 for left, _ in pairs if left) < 2:
        raise ValueError("a matching question needs at least two pairs")
    return Question(number=0, kind=Kind.matching, stem=_text(el.find("questiontext")), answer=pairs)


def _essay(el: Element, out: Parsed, place: str) -> Question:
    return Question(number=0, kind=Kind.short, stem=_text(el.find("questiontext")),
                    answer=_text(el.find("graderinfo")))


_READERS = {"multichoice": _multichoice, "truefalse": _truefalse, "shortanswer": _shortanswer,
            "numerical": _numerical, "matching": _matching, "essay": _essay}
