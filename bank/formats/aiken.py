"""Moodle's Aiken format: single-choice questions, options `A.` or `A)`, then `ANSWER: X`.

    What is the correct answer to this question?
    A. Is it this one?
    B) Maybe this answer?
    ANSWER: B
"""

from __future__ import annotations

import re

from bank.errors import ImportFailed
from bank.formats.build import Item, Parsed
from bank.import_notes import note
from bank.kinds import Flag, Kind
from bank.models import Paper, Question

_OPTION = re.compile(r"^([A-Z])[.)]\s+(\S.*|)$")  # not \s+(.*): two quantifiers could share the spaces
_ANSWER = re.compile(r"^ANSWER:\s*(\S*)\s*$", re.IGNORECASE)


def looks_like_aiken(text: str) -> bool:
    return bool(re.search(r"^ANSWER:\s*[A-Za-z]\s*$", text, re.MULTILINE)
                and re.search(r"^[A-Z][.)]\s+\S", text, re.MULTILINE))


def parse_aiken(text: str, *, file: str) -> Parsed:
    """Items from an Aiken file. Raises ImportFailed naming the line of a malformed question."""
    out = Parsed()
    stem: list[str] = []
    options: list[str] = []
    start = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if options:
                raise ImportFailed(file, f"line {n}", "expected more options or ANSWER: X")
            continue
        m = _ANSWER.match(line)
        if m:
            if len(options) < 2:
                raise ImportFailed(file, f"line {n}", "expected at least two options A. and B. before ANSWER:")
            out.items.append(Item(_question(stem, options, m.group(1).upper(), f"line {start}", out),
                                  f"line {start}"))
            stem, options = [], []
            continue
        m = _OPTION.match(line)
        if m and stem:
            expected = chr(65 + len(options))
            if m.group(1) != expected:
                raise ImportFailed(file, f"line {n}", f"expected option {expected}, found {m.group(1)}")
            options.append(m.group(2).strip())
            continue
        if options:
            raise ImportFailed(file, f"line {n}", "expected an option (A. …) or ANSWER: X")
        if not stem:
            start = n
        stem.append(line)
    if stem or options:
        raise ImportFailed(file, f"line {start}", "the last question has no ANSWER: line")
    return out


def _question(stem: list[str], options: list[str], key: str, place: str, out: Parsed) -> Question:
    q = Question(number=0, kind=Kind.single, stem="\n".join(stem), options=options, answer=key)
    if len(key) != 1 or not "A" <= key < chr(65 + len(options)):
        out.notes.append(note("key_no_option", place, key=key))
        q.answer = ""
        q.flags.append(Flag.no_answer.value)
    return q


def to_aiken(papers: list[Paper]) -> tuple[str, list[str]]:
    """Single-choice questions as Aiken; the rest cannot be written and are listed in the notes."""
    blocks, notes = [], []
    for p in papers:
        for pos, s in enumerate(p.sections, start=1):
            for q in s.questions:
                where = p.place(pos, q.number)
                if q.kind is not Kind.single or not q.answer:
                    notes.append(f"{where}: a {q.kind.value} question; Aiken holds single choice only")
                elif (any("\n" in o or o != o.strip() or not o for o in q.options)
                      or q.stem != "\n".join(x.strip() for x in q.stem.split("\n") if x.strip())):
                    notes.append(f"{where}: an empty text or an option over several lines; Aiken has no place for it")
                else:
                    lines = [q.stem, *(f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options)),
                             f"ANSWER: {q.answer}"]
                    blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else ""), notes
