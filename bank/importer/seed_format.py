"""The seed paper format: exam text scraped from a document site, parsed into a Paper.

The text is messy (see bank/seeds): Simplified or Traditional, pinyin readings after characters,
site notices, sometimes no line breaks at all. Parsing goes: clean the whole text (readings,
noise), cut it at section headers (headers), cut each section into questions (answers, cases),
then read each question's stem, options, key and explanation and repair or flag garbled
characters field by field (question), and last check the keys and a cut-off end (checks).
"""

from __future__ import annotations

import re

from bank.import_notes import note
from bank.importer.answers import cut_questions
from bank.importer.cases import cut_cases, has_case_marks
from bank.importer.checks import check_keys, flag_missing_explanations, mark_truncation
from bank.importer.headers import DEFAULT_POINTS, find_headers, header_meta, title_of
from bank.importer.question import build
from bank.importer.raw import Ctx
from bank.kinds import Kind
from bank.models import Paper, Section, Source
from bank.text.clean import Garble, normalise_newlines, remove_noise, repair_garble, strip_readings, tidy

__all__ = ["parse_seed_text"]


def parse_seed_text(text: str, *, file: str, slug: str) -> Paper:
    """Parse one paper in the seed format. Raises ImportFailed naming the place."""
    ctx = Ctx(file)
    if not text.strip():
        raise ctx.fail("line 1", "the file is empty")
    text = strip_readings(remove_noise(normalise_newlines(text)))
    if not text.strip():
        raise ctx.fail("line 1", "nothing but the document site's notices")
    headers = find_headers(text)
    if not headers:
        raise ctx.fail("line 1", "no section header such as 一、单项选择题（每题2分，共20分）")
    title = title_of(text[: headers[0][0].start()])
    if not title:
        raise ctx.fail("line 1", "no title before the first section header")
    title, state = repair_garble(title)
    if state is Garble.corrupted:
        ctx.notes.append(note("garbled_title"))

    sections: list[Section] = []
    wheres = [f"section {m.group('num')}" for m, _ in headers]
    for i, (m, kind) in enumerate(headers):
        end = headers[i + 1][0].start() if i + 1 < len(headers) else len(text)
        body = text[m.end():end]
        last_section = i + 1 == len(headers)
        sections.append(_parse_section(ctx, wheres[i], m, kind, body, last_section, slug, i + 1))

    mark_truncation(ctx, wheres[-1], sections[-1])
    for where, s in zip(wheres, sections, strict=True):
        found = len(s.questions)
        if s.declared_count is not None and found != s.declared_count:
            ctx.notes.append(note("declared_count", where, title=s.title, declared=s.declared_count, found=found))
    return Paper(slug=slug, title=title, source_file=file, sections=sections, notes=ctx.notes)


def _parse_section(ctx: Ctx, where: str, header: re.Match[str], kind: Kind, body: str,
                   last_section: bool, slug: str, pos: int) -> Section:
    title = tidy(header.group(0))
    points, declared = header_meta(header.group("meta"))
    if points is None:
        ctx.notes.append(note("points_missing", where, title=title, points=f"{DEFAULT_POINTS[kind]:g}"))
    cased = kind is Kind.case and has_case_marks(body)
    raws = cut_cases(body) if cased else cut_questions(ctx, where, body)
    if last_section and len(raws) > 1 and not tidy(raws[-1].stem) and raws[-1].answer is None:
        raws.pop()  # the file ends right after a question number: nothing to keep
        ctx.notes.append(note("cut_before_text", f"{where}, question {len(raws) + 1}"))
    if not raws:
        raise ctx.fail(where, f"the section header {title} has no questions under it")
    questions = [
        build(ctx, f"{where}, question {r.number}", kind, r, points or DEFAULT_POINTS[kind])
        for r in raws
    ]
    for q in questions:
        q.source = Source(paper=slug, section=pos, number=q.number)
    flag_missing_explanations(questions)
    section = Section(kind=kind, title=title, points_each=points, declared_count=declared,
                      questions=questions)
    check_keys(ctx, where, section, last_section)
    return section
