"""`/newquestion`'s draft: a question given step by step, kept in SQLite until Save or Cancel.

Steps, in order: kind, stem, options (choice kinds only), key, explanation, points, paper, then
the paper's section (or a new paper's title), preview. Every change is a named function that
returns the next draft or raises BadInput (the draft stays on its step); `back` goes to the step
before. The store keeps one draft per lead (`question_drafts`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

from bank.errors import BankError
from bank.formats.sheet import parse_key
from bank.kinds import CHOICE, Answer, Kind
from bank.models import Question
from bank.option_order import LETTERS
from bank.store import Store, one_row

KINDS = (Kind.single, Kind.multi, Kind.truefalse, Kind.fill, Kind.numerical, Kind.short)
MAX_OPTIONS = 10  # as buttons, a chat's worth (the bank takes up to 26 from files)
MAX_TEXT = 3000  # characters of a stem, option, key or explanation: the question must fit one message
MAX_POINTS = 100.0


class Step(StrEnum):
    kind = "kind"
    stem = "stem"
    options = "options"
    key = "key"
    explanation = "explanation"
    points = "points"
    paper = "paper"
    section = "section"
    new_paper = "new_paper"
    preview = "preview"


class BadInput(BankError):
    """The input does not fit the step; `code` names the message the lead gets."""

    def __init__(self, code: str):
        self.code = code
        super().__init__(code)


class DraftGone(BankError):
    """The draft was saved or cancelled already (an old button, a second press)."""


class DraftUnreadable(BankError):
    """The stored draft is one this release cannot read (a step an older release wrote, a garbled row)."""


@dataclass(frozen=True)
class Draft:
    id: int
    user_id: int
    chat_id: int
    step: Step = Step.kind
    kind: Kind | None = None
    stem: str = ""
    options: list[str] = field(default_factory=list)
    key: Answer | None = None
    picked: str = ""  # multi: letters toggled so far
    explanation: str = ""
    points: float = 1.0
    paper_id: int | None = None
    paper_title: str = ""  # the chosen paper's title, or the new paper's
    section: int | None = None  # position in the paper; 0 a new section; None the last of its kind
    section_title: str = ""

    @property
    def typed_key(self) -> bool:
        """The key is typed (fill-in, numerical, reference answers), not picked with buttons."""
        return self.kind not in CHOICE and self.kind is not Kind.truefalse

    @property
    def expects_text(self) -> bool:
        return self.step in (Step.stem, Step.options, Step.explanation, Step.points, Step.new_paper) or (
            self.step is Step.key and self.typed_key)

    def question(self) -> Question:
        """The question as it will be saved (number 0: placed when saved)."""
        if self.kind is None or self.key is None:
            raise BadInput("nq_incomplete")
        return Question(number=0, kind=self.kind, stem=self.stem,
                        options=list(self.options) if self.kind in CHOICE else [], answer=self.key,
                        explanation=self.explanation, points=self.points, held="")


def _text(text: str) -> str:
    text = text.strip()
    if not text:
        raise BadInput("nq_bad_empty")
    if len(text) > MAX_TEXT:
        raise BadInput("nq_bad_long")
    return text


def choose_kind(d: Draft, kind: Kind) -> Draft:
    if d.step is not Step.kind or kind not in KINDS:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.stem, kind=kind, options=[], key=None, picked="")


def give_stem(d: Draft, text: str) -> Draft:
    if d.step is not Step.stem:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.options if d.kind in CHOICE else Step.key, stem=_text(text))


def add_option(d: Draft, text: str) -> Draft:
    if d.step is not Step.options:
        raise BadInput("nq_bad_step")
    if len(d.options) >= MAX_OPTIONS:
        raise BadInput("nq_bad_too_many")
    return replace(d, options=[*d.options, _text(text)])


def options_done(d: Draft) -> Draft:
    if d.step is not Step.options:
        raise BadInput("nq_bad_step")
    if len(d.options) < 2:
        raise BadInput("nq_bad_two_options")
    return replace(d, step=Step.key, key=None, picked="")


def pick_key(d: Draft, index: int) -> Draft:
    """single: the key, on to the explanation; multi: toggles the option (Done goes on)."""
    if d.step is not Step.key or d.kind not in CHOICE or not 0 <= index < len(d.options):
        raise BadInput("nq_bad_step")
    letter = LETTERS[index]
    if d.kind is Kind.single:
        return replace(d, step=Step.explanation, key=letter)
    picked = d.picked.replace(letter, "") if letter in d.picked else d.picked + letter
    return replace(d, picked="".join(sorted(picked)))


def key_done(d: Draft) -> Draft:
    if d.step is not Step.key or d.kind is not Kind.multi:
        raise BadInput("nq_bad_step")
    if not d.picked:
        raise BadInput("nq_bad_pick")
    return replace(d, step=Step.explanation, key=d.picked)


def pick_truefalse(d: Draft, value: bool) -> Draft:
    if d.step is not Step.key or d.kind is not Kind.truefalse:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.explanation, key=value)


def give_key(d: Draft, text: str) -> Draft:
    """A typed key: fill-in blanks (| between blanks, ; between accepted forms), a number (3.14,
    3.14±0.01, 1..5), or a reference answer; parsed as a spreadsheet's 答案 cell."""
    if d.step is not Step.key or not d.typed_key or d.kind is None:
        raise BadInput("nq_bad_step")
    probe = Question(number=0, kind=d.kind, stem=d.stem, answer="", held="")
    try:
        key = parse_key(probe, _text(text))
    except ValueError:
        raise BadInput(f"nq_bad_key_{d.kind.value}") from None
    return replace(d, step=Step.explanation, key=key)


def give_explanation(d: Draft, text: str | None) -> Draft:
    """The explanation, or None to skip it."""
    if d.step is not Step.explanation:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.points, explanation="" if text is None else _text(text))


def give_points(d: Draft, text: str) -> Draft:
    if d.step is not Step.points:
        raise BadInput("nq_bad_step")
    try:
        points = float(text.strip().replace(",", ".").replace("，", "."))
    except ValueError:
        raise BadInput("nq_bad_points") from None
    if not 0 < points <= MAX_POINTS or points != points:
        raise BadInput("nq_bad_points")
    return replace(d, step=Step.paper, points=points)


def choose_paper(d: Draft, paper_id: int, title: str) -> Draft:
    if d.step is not Step.paper:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.section, paper_id=paper_id, paper_title=title, section=None, section_title="")


def choose_section(d: Draft, position: int, title: str) -> Draft:
    """A section of the chosen paper (1-based), or 0 for a new section titled by the kind."""
    if d.step is not Step.section or position < 0:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.preview, section=position, section_title=title)


def ask_new_paper(d: Draft) -> Draft:
    if d.step is not Step.paper:
        raise BadInput("nq_bad_step")
    return replace(d, step=Step.new_paper)


def give_paper_title(d: Draft, text: str) -> Draft:
    if d.step is not Step.new_paper:
        raise BadInput("nq_bad_step")
    title = _text(text)
    if len(title) > 200 or re.search(r"[\r\n]", title):
        raise BadInput("nq_bad_title")
    return replace(d, step=Step.preview, paper_id=None, paper_title=title, section=None, section_title="")


def back(d: Draft) -> Draft:
    """The step before, its answer cleared (options are sent again); the first step stays."""
    before = {
        Step.stem: Step.kind, Step.options: Step.stem,
        Step.key: Step.options if d.kind in CHOICE else Step.stem,
        Step.explanation: Step.key, Step.points: Step.explanation, Step.paper: Step.points,
        Step.section: Step.paper, Step.new_paper: Step.paper,
        Step.preview: Step.new_paper if d.paper_id is None else Step.section,
    }
    step = before.get(d.step, Step.kind)
    if step is Step.options:
        return replace(d, step=step, options=[], key=None, picked="")
    if step is Step.key:
        return replace(d, step=step, key=None, picked="")
    return replace(d, step=step)


# --- the store: one draft per lead ------------------------------------------------------------

def _data(d: Draft) -> str:
    data = asdict(d)
    for name in ("id", "user_id", "chat_id", "step"):
        data.pop(name)
    return json.dumps(data, ensure_ascii=False)


def _from_row(r: sqlite3.Row) -> Draft:
    """The stored draft, decoded once. Raises DraftUnreadable."""
    try:
        data = json.loads(r["data"])
        kind = data.pop("kind", None)
        return Draft(id=r["id"], user_id=r["user_id"], chat_id=r["chat_id"], step=Step(r["step"]),
                     kind=None if kind is None else Kind(kind), **data)
    except (ValueError, TypeError, KeyError, AttributeError) as e:  # JSONDecodeError is a ValueError
        raise DraftUnreadable(f"draft {r['id']}") from e


async def start_draft(db: Store, user_id: int, chat_id: int, now: float) -> Draft:
    """A new draft for the lead; one they had is dropped."""

    def transaction(conn: sqlite3.Connection) -> Draft:
        conn.execute("DELETE FROM question_drafts WHERE user_id=?", (user_id,))
        row = one_row(conn.execute(
            "INSERT INTO question_drafts (user_id, chat_id, step, data, updated_at) VALUES (?,?,?,?,?) RETURNING id",
            (user_id, chat_id, Step.kind.value, "{}", now)).fetchone())
        return Draft(id=int(row[0]), user_id=user_id, chat_id=chat_id)

    return await db.run_write(transaction)


async def load_draft(db: Store, user_id: int) -> Draft | None:
    """The lead's draft (None: they have none). Raises DraftUnreadable."""
    row = await db.fetchone("SELECT * FROM question_drafts WHERE user_id=?", (user_id,))
    return None if row is None else _from_row(row)


async def save_draft(db: Store, d: Draft, now: float) -> None:
    """Store the draft's new step and fields. Raises DraftGone if it was saved or cancelled meanwhile."""

    def transaction(conn: sqlite3.Connection) -> None:
        cur = conn.execute("UPDATE question_drafts SET step=?, data=?, updated_at=? WHERE id=?",
                           (d.step.value, _data(d), now, d.id))
        if cur.rowcount != 1:
            raise DraftGone(f"draft {d.id}")

    await db.run_write(transaction)


async def drop_draft(db: Store, draft_id: int) -> None:
    """Cancel: the draft is gone. Raises DraftGone if it was already."""
    await db.run_write(lambda conn: claim_draft(conn, draft_id))


async def drop_draft_of(db: Store, user_id: int) -> bool:
    """/cancel: the user's draft is gone; whether they had one."""
    row = await db.run_write(
        lambda conn: conn.execute("DELETE FROM question_drafts WHERE user_id=? RETURNING id", (user_id,)).fetchone())
    return row is not None


def claim_draft(conn: sqlite3.Connection, draft_id: int) -> None:
    """Delete the draft inside the caller's transaction (Save). Raises DraftGone if it is gone."""
    cur = conn.execute("DELETE FROM question_drafts WHERE id=?", (draft_id,))
    if cur.rowcount != 1:
        raise DraftGone(f"draft {draft_id}")
