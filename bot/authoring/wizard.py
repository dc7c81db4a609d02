"""What /editq and /newpaper share: their buttons' data ("a:") and rows. The dispatcher of their
buttons and of the text they wait for is bot/leads/authoring_input.py.

    a:e:<question>:<action>[:<arg>]   /editq   f field (k, s, x, o<n>) · k key (<n>, t, f) · t tick <n>
                                               · d done · s save (n, r, k) · b back · c cancel
    a:n:<action>[:<arg>]              /newpaper m minutes <n> · x exam-only · p per candidate · c create
                                               · b back · q cancel

The session lives in SQLite (proctor/teams/authoring.py); the buttons act on the presser's own
session, so a forged id acts on nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError

from bot.context import Ctx
from bot.edits import edit_text
from bot.i18n import t
from proctor.teams.authoring import Wizard

_DATA = re.compile(r"^a:(?:e:([0-9]{1,12})|n):([a-z])(?::([a-z0-9]{1,3}))?$")


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
class Press:
    feature: Wizard
    question: int  # editq's question; 0 for newpaper
    action: EditqAction | NewPaperAction  # the feature's
    arg: str


def encode(feature: Wizard, action: EditqAction | NewPaperAction, arg: str | int = "", *, question: int = 0) -> str:
    head = f"a:e:{question}" if feature is Wizard.editq else "a:n"
    code = _EDITQ_CODES[action] if isinstance(action, EditqAction) else _NEWPAPER_CODES[action]
    data = f"{head}:{code}" + (f":{arg}" if arg != "" else "")
    if parse(data) is None or len(data.encode()) > 64:
        raise ValueError(f"bad callback data: {data!r}")
    return data


def parse(data: str | None) -> Press | None:
    m = _DATA.match(data or "")
    if m is None:
        return None
    question, code, arg = m.groups()
    action = (_EDITQ if question is not None else _NEWPAPER).get(code)
    if action is None:
        return None
    return Press(Wizard.editq if question is not None else Wizard.newpaper, int(question or 0), action, arg or "")


def button(text: str, feature: Wizard, action: EditqAction | NewPaperAction, arg: str | int = "", *, question: int = 0) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(feature, action, arg, question=question))


def cancel_row(feature: Wizard, lang: str, *, question: int = 0, back: bool = True) -> list[InlineKeyboardButton]:
    cancel = EditqAction.cancel if feature is Wizard.editq else NewPaperAction.cancel
    row = [button(t("au_btn_back", lang), feature, EditqAction.back if feature is Wizard.editq else NewPaperAction.back,
                  question=question)] if back else []
    return row + [button(t("au_btn_cancel", lang), feature, cancel, question=question)]


async def show(update: Update, context: Ctx, text: str,
                kb: InlineKeyboardMarkup | None = None) -> None:
    """A press edits its message in place; text gets a new message."""
    query = update.callback_query
    if query is not None and query.message is not None:
        try:
            await edit_text(context.bot, query.message.chat.id, query.message.message_id, text, kb)
            return
        except TelegramError:
            pass  # too old to edit: send it instead
    await context.bot.send_message(context.chat.id, text, reply_markup=kb)

