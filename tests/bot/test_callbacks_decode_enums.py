"""Every button's codec decodes its data to an enum once (issue 23): a handler matches on members,
never on strings, and the domain's steps take the enums."""

from __future__ import annotations

from enum import StrEnum

import pytest

from bot.authoring import callbacks as authoring_cb
from bot.daily import callbacks as daily_cb
from bot.exam import callbacks as exam_cb
from bot.invites import callbacks as invites_cb
from bot.leads import callbacks as leads_cb
from proctor.daily import steps as daily_steps
from proctor.exams import steps as exam_steps
from proctor.exams.states import AttemptMode
from proctor.teams.authoring import Wizard


def _exactly(value: object, enum: type[StrEnum]) -> bool:
    return type(value) is enum


BUTTONS = [a for a in exam_steps.Action if a is not exam_steps.Action.typed] + list(exam_cb.Screen)  # typed: text


@pytest.mark.parametrize("action", BUTTONS)
def test_an_exam_button_decodes_to_a_step_or_a_screen(action):
    arg = 1 if action in (exam_steps.Action.answer, exam_steps.Action.toggle) else None
    press = exam_cb.parse(exam_cb.act(5, action, 0, arg))
    assert press is not None and press.action is action and type(press.action) in (exam_steps.Action, exam_cb.Screen)


def test_a_pick_decodes_its_mode():
    pick = exam_cb.parse(exam_cb.pick(12, AttemptMode.practice, start=True))
    assert pick == exam_cb.Pick(True, 12, AttemptMode.practice) and _exactly(pick.mode, AttemptMode)


def test_the_other_codecs_decode_to_their_enums():
    daily = daily_cb.parse(daily_cb.encode(daily_steps.Action.toggle, 3, 1, 2))
    assert daily is not None and daily.action is daily_steps.Action.toggle
    lead = leads_cb.parse(leads_cb.encode(leads_cb.Action.join_request, 42, 1, scope=-100))
    assert lead is not None and lead.action is leads_cb.Action.join_request
    invite = invites_cb.parse(invites_cb.encode(invites_cb.Press.resend, 7))
    assert invite == (invites_cb.Press.resend, 7) and _exactly(invite[0], invites_cb.Press)
    upload = authoring_cb.parse(authoring_cb.upload(9, authoring_cb.UploadAction.import_))
    assert isinstance(upload, authoring_cb.UploadPress) and upload.action is authoring_cb.UploadAction.import_
    draft = authoring_cb.parse(authoring_cb.draft(9, authoring_cb.DraftAction.points, 2))
    assert isinstance(draft, authoring_cb.DraftPress) and draft.action is authoring_cb.DraftAction.points


@pytest.mark.parametrize(("feature", "action", "enum"), [
    (Wizard.editq, authoring_cb.EditqAction.cancel, authoring_cb.EditqAction),
    (Wizard.newpaper, authoring_cb.NewPaperAction.cancel, authoring_cb.NewPaperAction),
    (Wizard.editq, authoring_cb.EditqAction.back, authoring_cb.EditqAction),
    (Wizard.newpaper, authoring_cb.NewPaperAction.back, authoring_cb.NewPaperAction),
])
def test_editq_and_newpaper_keep_their_own_back_and_cancel(feature, action, enum):
    """Both enums have `back` and `cancel`, equal as strings: each feature's button is its own."""
    press = authoring_cb.parse(authoring_cb.wizard(feature, action, question=3 if feature is Wizard.editq else 0))
    assert press is not None and press.feature is feature and _exactly(press.action, enum)
