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
from bank.formats.summary import ExportSummary, Reason
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


def _writable(q: Question) -> bool:
    """Aiken reads the question back as it is: one-line options, a stem of non-blank trimmed lines of
    which none after the first reads as an option or an ANSWER: line."""
    lines = q.stem.split("\n")
    return (all(o and "\n" not in o and o == o.strip() for o in q.options)
            and all(x and x == x.strip() for x in lines)
            and not any(_OPTION.match(x) or _ANSWER.match(x) for x in lines[1:])
            and not _ANSWER.match(lines[0]))


def to_aiken(papers: list[Paper], summary: ExportSummary) -> str:
    """Single-choice questions as Aiken; `summary` counts them and the rest, which Aiken cannot hold."""
    blocks = []
    for p in papers:
        summary.started(p)
        for pos, s in enumerate(p.sections, start=1):
            for q in s.questions:
                if q.kind is not Kind.single or not q.answer:
                    summary.leave_out(p, pos, q.number, Reason.not_single)
                elif not _writable(q):
                    summary.leave_out(p, pos, q.number, Reason.aiken_text)
                else:
                    lines = [q.stem, *(f"{chr(65 + i)}. {o}" for i, o in enumerate(q.options)),
                             f"ANSWER: {q.answer}"]
                    blocks.append("\n".join(lines))
                    summary.wrote(p)
    return "\n\n".join(blocks) + ("\n" if blocks else "")
