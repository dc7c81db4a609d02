"""The JSON export: the bank as readable UTF-8 JSON, and the same JSON parsed back into papers.

Shape: {"papers": [{"slug", "code", "title", "subject", "source_file", "settings", "notes", "sections": [{"kind",
"title", "points_each", "declared_count", "questions": [{"number", "kind", "stem", "options",
"answer", "explanation", "points", "flags", "topic"}]}]}]}. Options are texts without letters;
answers: single "C", multi "ABD", truefalse true/false, fill [[alternative, ...] per blank],
short/discussion/case the reference text, numerical [[value, tolerance], ...] as decimal strings,
matching [[left, right], ...]. "name", "difficulty", "weights" (a fraction per option or accepted answer) and
"feedback" appear only when set, "version" (the version of an edited question, /editq) only above 1,
"seq" (its place in its paper's full order, the n of `P3 · Q12`) for a question of its own paper.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from bank.errors import ImportFailed
from bank.kinds import CHOICE, Kind
from bank.models import Paper, PaperSettings, Question, Section, Source

FORMAT = "exam-proctor-bank"
VERSION = 1


def export_papers(papers: list[Paper]) -> dict[str, Any]:
    """The bank as a plain dict, ready for json.dumps."""
    return {"format": FORMAT, "version": VERSION, "papers": [_paper(p) for p in papers]}


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def _paper(p: Paper) -> dict[str, Any]:
    return {
        "slug": p.slug,
        "code": p.code,
        "title": p.title,
        "subject": p.subject,
        "source_file": p.source_file,
        "settings": p.settings.model_dump(mode="json"),
        "notes": [n.model_dump() for n in p.notes],
        "sections": [
            {
                "kind": s.kind.value,
                "title": s.title,
                "points_each": s.points_each,
                "declared_count": s.declared_count,
                "questions": [_question(q, p.slug) for q in s.questions],
            }
            for s in p.sections
        ],
    }


def _question(q: Question, slug: str) -> dict[str, Any]:
    out = {
        "number": q.number,
        "kind": q.kind.value,
        "stem": q.stem,
        "options": list(q.options),
        "answer": q.answer,
        "explanation": q.explanation,
        "points": q.points,
        "flags": list(q.flags),
        "topic": q.topic,
    }
    # only when set, so an export of a bank without them reads as before
    for key in ("name", "difficulty", "weights", "feedback"):
        if getattr(q, key):
            out[key] = getattr(q, key)
    if (n := q.home_seq(slug)) is not None:
        out["seq"] = n  # its place in its paper's full order (P3 · Q12), kept by an import elsewhere
    if q.version > 1:  # edited (/editq): the version exported, so an import of this file finds later edits
        out["version"] = q.version
    return out


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def parse_json_text(text: str, *, file: str) -> list[Paper]:
    """Papers from an export. Raises ImportFailed naming the file and the place."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ImportFailed(file, f"line {e.lineno}, column {e.colno}", f"not valid JSON: {e.msg}") from e
    except RecursionError:
        raise ImportFailed(file, "top level", "nested too deeply to be an Exam Proctor export") from None
    if not isinstance(data, dict) or not isinstance(data.get("papers"), list):
        raise ImportFailed(file, "top level", 'expected an object with a "papers" list')
    if data.get("format", FORMAT) != FORMAT:
        raise ImportFailed(file, "format", f"not an Exam Proctor export: {data.get('format')!r}")
    papers = []
    for i, raw in enumerate(data["papers"]):
        papers.append(_parse_paper(file, f"papers[{i}]", raw))
    slugs = [p.slug for p in papers]
    dup = next((s for s in slugs if slugs.count(s) > 1), None)
    if dup:
        raise ImportFailed(file, "papers", f"the slug {dup!r} appears twice")
    return papers


def _parse_paper(file: str, place: str, raw: Any) -> Paper:
    if not isinstance(raw, dict):
        raise ImportFailed(file, place, "expected an object")
    try:
        sections = []
        for si, s in enumerate(raw.get("sections") or []):
            where = f"{place}.sections[{si}]"
            if not isinstance(s, dict):
                raise ImportFailed(file, where, "expected an object")
            questions = []
            for qi, q in enumerate(s.get("questions") or []):
                question = Question.model_validate(q)
                question.key_terms = None  # found from the reference at import, never taken from a file
                question.source = Source(paper=raw.get("slug", ""), section=si + 1,
                                         number=question.number)
                question.origin = question.source  # an export's slug and positions are its identity
                _check_question(file, f"{where}.questions[{qi}]", question)
                questions.append(question)
            section = Section(kind=s.get("kind"), title=s.get("title", ""),
                              points_each=s.get("points_each"),
                              declared_count=s.get("declared_count"), questions=questions)
            numbers = [q.number for q in questions]
            if len(set(numbers)) != len(numbers):
                raise ImportFailed(file, where, "two questions share a number")
            sections.append(section)
        paper = Paper(slug=raw.get("slug"), title=raw.get("title"), code=raw.get("code") or "",
                      subject=raw.get("subject") or "", source_file=raw.get("source_file", ""), sections=sections,
                      settings=PaperSettings.model_validate(raw.get("settings") or {}),
                      notes=raw.get("notes") or [])
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise ImportFailed(file, place + (f" ({loc})" if loc else ""), err["msg"]) from e
    if not paper.slug or not paper.slug.isascii():
        raise ImportFailed(file, place, "a paper needs an ASCII slug")
    if not paper.title.strip():
        raise ImportFailed(file, place, "a paper needs a title")
    if not paper.sections:
        raise ImportFailed(file, place, "a paper needs at least one section")
    return paper


def _check_question(file: str, place: str, q: Question) -> None:
    """The answer's shape must match the kind."""
    a = q.answer
    if q.kind in CHOICE:
        ok = (isinstance(a, str) and all("A" <= c < chr(ord("A") + len(q.options)) for c in a)
              and (q.kind is Kind.multi or len(a) <= 1))
    elif q.kind is Kind.truefalse:
        ok = isinstance(a, bool)
    elif q.kind is Kind.fill:
        ok = isinstance(a, list) and all(isinstance(b, list) and b for b in a)
    elif q.kind in (Kind.numerical, Kind.matching):
        ok = isinstance(a, list) and bool(a) and all(isinstance(b, list) and len(b) == 2 for b in a)
    else:
        ok = isinstance(a, str)
    if not ok:
        raise ImportFailed(file, place, f"the answer {a!r} does not fit a {q.kind.value} question")
