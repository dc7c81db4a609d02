"""What cutting a seed paper yields: raw questions, and the context that gathers notes and failures."""

from __future__ import annotations

from dataclasses import dataclass, field

from bank.errors import ImportFailed
from bank.models import Note


@dataclass
class Raw:
    """A question as cut from the text, before its fields are read."""

    number: int
    stem: str
    answer: str | None = None
    explanation: str | None = None


@dataclass
class Ctx:
    """One file's parse: its name for error places, and the notes gathered along the way."""

    file: str
    notes: list[Note] = field(default_factory=list)

    def fail(self, place: str, problem: str) -> ImportFailed:
        return ImportFailed(self.file, place, problem)
