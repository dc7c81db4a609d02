"""A lead's unfinished /editq or /newpaper: one at a time per lead, kept in SQLite so a restart
(or a second press) finds it where it was.

A session is stored as a small JSON object and decoded here, once, when it is read: an `Editq` or a
`NewPaper`, each at its step. A row this release cannot read (a step an older release wrote, a
garbled object) reads as `Unreadable`, and the wizard starts over."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from proctor.storage.db import Database
from proctor.teams.question_edit import EditField


class Wizard(StrEnum):
    """Which command a session belongs to (the `kind` column)."""
    editq = "editq"
    newpaper = "newpaper"


class EditqStep(StrEnum):
    """Where an /editq stands."""
    field = "field"  # the question's card: which part to change
    text = "text"  # the new text asked for (a key: its buttons)
    preview = "preview"  # before and after, with Save


class NewPaperStep(StrEnum):
    """Where a /newpaper stands, in order."""
    title_ = "title"  # `title` is str.title
    minutes = "minutes"
    parts = "parts"  # the blueprint, typed
    preview = "preview"  # counts, points and switches, with Create


@dataclass(frozen=True)
class Editq:
    """An /editq: the question and the version its card showed (a save checks it), the part being
    changed (from the text step on) and the new value the preview shows."""
    question: int
    version: int
    step: EditqStep = EditqStep.field
    field: EditField | None = None
    option: int = 0  # the option's index, when `field` is an option
    ticks: str = ""  # a multiple-choice key's letters ticked so far
    value: str = ""


@dataclass(frozen=True)
class NewPaper:
    """A /newpaper: what the steps so far gave."""
    step: NewPaperStep = NewPaperStep.title_
    title: str = ""
    minutes: int = 0
    parts: str = ""
    exam_only: bool = False
    per_candidate: bool = False  # each candidate draws anew (else the draw is frozen)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A stored session this release cannot read; `wizard` when at least its command is known."""
    wizard: Wizard | None


Session = Editq | NewPaper


def _encoded(session: Session) -> tuple[Wizard, str]:
    state: dict[str, Any]
    match session:
        case Editq():
            state = {"q": session.question, "v": session.version, "step": session.step.value,
                     "field": None if session.field is None else session.field.value, "option": session.option,
                     "ticks": session.ticks, "value": session.value}
            return Wizard.editq, json.dumps(state, ensure_ascii=False)
        case NewPaper():
            state = {"step": session.step.value, "title": session.title, "minutes": session.minutes,
                     "parts": session.parts, "exam_only": session.exam_only, "each": session.per_candidate}
            return Wizard.newpaper, json.dumps(state, ensure_ascii=False)


def _editq(state: dict[str, Any]) -> Editq:
    field = state.get("field")
    s = Editq(int(state["q"]), int(state["v"]), EditqStep(state["step"]),
              None if field is None else EditField(field), int(state.get("option", 0)),
              str(state.get("ticks", "")), str(state.get("value", "")))
    if s.step is not EditqStep.field and s.field is None:
        raise ValueError("a part to change is missing")
    return s


def _newpaper(state: dict[str, Any]) -> NewPaper:
    s = NewPaper(NewPaperStep(state["step"]), str(state.get("title", "")), int(state.get("minutes", 0)),
                 str(state.get("parts", "")), bool(state.get("exam_only")), bool(state.get("each")))
    order = list(NewPaperStep)
    given = (bool(s.title), s.minutes > 0, bool(s.parts))  # what each step after the first needs
    if not all(given[:order.index(s.step)]):
        raise ValueError("an earlier step's answer is missing")
    return s


def _decoded(row: sqlite3.Row) -> Session | Unreadable:
    """The session of a stored row (kind, state), or Unreadable."""
    try:
        wizard = Wizard(row["kind"])
    except ValueError:
        return Unreadable(None)
    try:
        data = json.loads(row["state"])
        return _editq(data) if wizard is Wizard.editq else _newpaper(data)
    except (ValueError, KeyError, TypeError, AttributeError):  # JSONDecodeError is a ValueError
        return Unreadable(wizard)


async def get_session(db: Database, user_id: int) -> Session | Unreadable | None:
    row = await db.fetchone("SELECT kind, state FROM authoring_sessions WHERE user_id=?", (user_id,))
    return None if row is None else _decoded(row)


async def put_session(db: Database, user_id: int, session: Session, now: float) -> None:
    """Start or move on the lead's session (a new one replaces whatever was open)."""
    kind, state = _encoded(session)

    def transaction(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO authoring_sessions (user_id, kind, state, updated_at) VALUES (?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET kind=excluded.kind, state=excluded.state, "
            "updated_at=excluded.updated_at", (user_id, kind.value, state, now))

    await db.run_write(transaction)


async def end_session(db: Database, user_id: int) -> Session | Unreadable | None:
    """/cancel: the lead's open session ends; returns it (None: none was open)."""
    row = await db.run_write(lambda conn: conn.execute(
        "DELETE FROM authoring_sessions WHERE user_id=? RETURNING kind, state", (user_id,)).fetchone())
    return None if row is None else _decoded(row)


async def clear_session(db: Database, user_id: int) -> None:
    await db.run_write(lambda conn: conn.execute("DELETE FROM authoring_sessions WHERE user_id=?", (user_id,)))
