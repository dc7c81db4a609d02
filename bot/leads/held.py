"""The /bankstats lines of questions held out of exams (bank/question_checks.py), with confirm buttons."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bank.question_checks import HELD_DUPLICATE, Held
from bot.i18n import t
from bot.leads import callbacks as cb
from bot.leads.render import MAX_TEXT, clip
from bot.lint_lines import lint_message, where

MAX_BUTTONS = 8


def held_section(text: str, keyboard: Keyboard | None, held: list[Held], lang: str, scope: int | None, *,
                 can_confirm: bool) -> tuple[str, Keyboard | None]:
    """`text` and `keyboard` of the overview with the held questions added (buttons for admins only)."""
    if not held:
        return text, keyboard
    lines = [t("l_bs_held", lang)]
    rows: list[Sequence[Button]] = list(keyboard.inline_keyboard) if keyboard is not None else []
    for h in held:
        at = where(h.paper, h.section, lang)
        if h.held == HELD_DUPLICATE and h.duplicate_ref is not None:
            lines.append(t("l_bs_held_dup", lang, question=h.ref, where=at, other_question=h.duplicate_ref))
            continue
        if h.held == HELD_DUPLICATE:
            continue
        doubt = clip(lint_message("explanation_vs_key", h.doubt, lang), 120)
        lines.append(t("l_bs_held_key", lang, question=h.ref, where=at,
                       doubt=t("bank_letters", lang, letters=doubt)))  # a doubt names the bank's letters
        if can_confirm and sum(1 for r in rows if str(r[0].callback_data).startswith("l:c:")) < MAX_BUTTONS:
            rows.append([Button(t("l_btn_confirm_key", lang, question=h.ref),
                                callback_data=cb.encode(cb.Action.confirm_key, h.question_id, scope=scope))])
    return clip(text + "\n\n" + "\n".join(lines), MAX_TEXT), Keyboard(rows) if rows else None
