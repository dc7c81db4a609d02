"""A reader's note (bank.models.Note) from what the reader knows: the place it names in its errors
("line 12", "sheet S, row 5", "section 一, question 3", "question 4"), read once into parameters so
that each language says it its own way, and what it found. And a note in English, for a terminal."""

from __future__ import annotations

import json
import re

from bank.lint_messages import english
from bank.models import Note

_PLACES = (re.compile(r"line (?P<line>\d+)"), re.compile(r"(?:sheet (?P<sheet>.+), )?row (?P<row>\d+)"),
           re.compile(r"section (?P<section>[^,]+?)(?:, question (?P<question>\d+))?"),
           re.compile(r"question (?P<question>\d+)"))


def place_params(place: str) -> dict[str, str | int]:
    """The parameters of a place as the readers write it; {"at": place} for any other text, {} for none."""
    for pattern in _PLACES:
        m = pattern.fullmatch(place)
        if m:
            return {k: int(v) if v.isdigit() and k != "section" else v for k, v in m.groupdict().items()
                    if v is not None}
    return {"at": place} if place else {}


def note(code: str, place: str = "", **params: str | int | float) -> Note:
    """The note `code` (a key of bank/lint_messages.py's ENGLISH) at `place`, with its parameters."""
    return Note(code=code, params={**place_params(place), **params})


def english_note(n: Note) -> str:
    """The note as a terminal prints it; a note stored as text reads as it was written."""
    return english(n.code, n.params)


def notes_json(notes: list[Note]) -> str:
    """`papers.notes`: a JSON list of {"code", "params"} (older releases stored English strings)."""
    return json.dumps([n.model_dump() for n in notes], ensure_ascii=False)


def notes_from_json(text: str) -> list[Note]:
    """`papers.notes` read back, strings of older releases as the `note` code."""
    return [Note(code="note", params={"note": n}) if isinstance(n, str) else Note.model_validate(n)
            for n in json.loads(text)]
