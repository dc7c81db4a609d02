"""Callback data of the authoring buttons: short, validated, at most 64 bytes.

    a:u:<upload>:<i|c>                  Import / Cancel a previewed file
    a:q:<draft>:<action>[:<number>]     a /newquestion step (see ACTIONS)
    a:e:<question>:<action>[:<arg>]     /editq   f field (k, s, x, o<n>) · k key (<n>, t, f) · t tick <n>
                                                 · d done · s save (n, r, k) · b back · c cancel
    a:n:<action>[:<arg>]                /newpaper m minutes <n> · x exam-only · p per candidate · c create
                                                 · b back · q cancel

The draft id ties a button to one draft: a button of a saved or cancelled draft is out of date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from proctor.teams.authoring import Wizard


class UploadAction(StrEnum):
    """A previewed file's buttons."""
    import_ = "import"
    cancel = "cancel"


class DraftAction(StrEnum):
    """A /newquestion step's buttons."""
    kind = "kind"  # arg: the kind's index in bank.authoring.draft.KINDS
    back = "back"
    cancel = "cancel"
    options_done = "options_done"
    pick = "pick"  # arg: the option's index
    key_done = "key_done"
    tf = "tf"  # arg: 1 true, 0 false
    skip = "skip"  # no explanation
    points = "points"  # arg: the points
    paper = "paper"  # arg: the paper's id
    new_paper = "new_paper"
    save = "save"
    section = "section"  # arg: the section's position, 0 for a new one


D = DraftAction
UPLOAD_ACTIONS = {"i": UploadAction.import_, "c": UploadAction.cancel}
ACTIONS = {  # code: (action, takes a number)
    "k": (D.kind, True), "b": (D.back, False), "x": (D.cancel, False), "o": (D.options_done, False),
    "p": (D.pick, True), "d": (D.key_done, False), "t": (D.tf, True), "s": (D.skip, False),
    "n": (D.points, True), "P": (D.paper, True), "N": (D.new_paper, False), "S": (D.save, False),
    "T": (D.section, True),
}
_CODE = {name: code for code, (name, _) in ACTIONS.items()}
_UPLOAD_CODE = {name: code for code, name in UPLOAD_ACTIONS.items()}
_UPLOAD = re.compile(r"^a:u:([0-9]{1,12}):([ic])$")
_DRAFT = re.compile(r"^a:q:([0-9]{1,12}):([A-Za-z])(?::([0-9]{1,12}))?$")
_WIZARD = re.compile(r"^a:(?:e:([0-9]{1,12})|n):([a-z])(?::([a-z0-9]{1,3}))?$")


@dataclass(frozen=True, slots=True)
class UploadPress:
    upload_id: int
    action: UploadAction


@dataclass(frozen=True, slots=True)
class DraftPress:
    draft_id: int
    action: DraftAction
    arg: int | None


def upload(upload_id: int, action: UploadAction) -> str:
    return _checked(f"a:u:{upload_id}:{_UPLOAD_CODE[action]}")


def draft(draft_id: int, action: DraftAction, arg: int | None = None) -> str:
    return _checked(f"a:q:{draft_id}:{_CODE[action]}" + ("" if arg is None else f":{arg}"))


class EditqAction(StrEnum):
    """/editq's buttons (their args: the module docstring)."""
    field = "field"
    key = "key"
    tick = "tick"
    done = "done"
    save = "save"
    back = "back"
    cancel = "cancel"


class NewPaperAction(StrEnum):
    """/newpaper's buttons."""
    minutes = "minutes"
    exam_only = "exam_only"
    per_candidate = "per_candidate"
    create = "create"
    back = "back"
    cancel = "cancel"


E, N = EditqAction, NewPaperAction
_EDITQ = {"f": E.field, "k": E.key, "t": E.tick, "d": E.done, "s": E.save, "b": E.back, "c": E.cancel}
_NEWPAPER = {"m": N.minutes, "x": N.exam_only, "p": N.per_candidate, "c": N.create, "b": N.back, "q": N.cancel}
# two tables: both enums have `back` and `cancel`, and StrEnum members of equal values are equal keys
_EDITQ_CODES = {a: c for c, a in _EDITQ.items()}
_NEWPAPER_CODES = {a: c for c, a in _NEWPAPER.items()}


@dataclass(frozen=True, slots=True)
class WizardPress:
    feature: Wizard
    question: int  # editq's question; 0 for newpaper
    action: EditqAction | NewPaperAction  # the feature's
    arg: str


def wizard(feature: Wizard, action: EditqAction | NewPaperAction, arg: str | int = "", *, question: int = 0) -> str:
    head = f"a:e:{question}" if feature is Wizard.editq else "a:n"
    code = _EDITQ_CODES[action] if isinstance(action, EditqAction) else _NEWPAPER_CODES[action]
    return _checked(f"{head}:{code}" + (f":{arg}" if arg != "" else ""))


def _wizard_press(data: str) -> WizardPress | None:
    m = _WIZARD.match(data)
    if m is None:
        return None
    question, code, arg = m.groups()
    action = (_EDITQ if question is not None else _NEWPAPER).get(code)
    if action is None:
        return None
    return WizardPress(Wizard.editq if question is not None else Wizard.newpaper, int(question or 0), action, arg or "")


def _checked(data: str) -> str:
    if len(data.encode()) > 64 or parse(data) is None:
        raise ValueError(f"bad callback data: {data!r}")
    return data


def parse(data: str | None) -> UploadPress | DraftPress | WizardPress | None:
    """The button's meaning, or None for anything forged or garbled."""
    if not data or len(data.encode()) > 64:
        return None
    if m := _UPLOAD.match(data):
        return UploadPress(int(m.group(1)), UPLOAD_ACTIONS[m.group(2)])
    if m := _DRAFT.match(data):
        form = ACTIONS.get(m.group(2))
        if form is None or form[1] != (m.group(3) is not None):
            return None
        return DraftPress(int(m.group(1)), form[0], None if m.group(3) is None else int(m.group(3)))
    return _wizard_press(data)
