"""The question navigator: a compact grid of every question (✓ answered, ☑ ticked and not submitted,
🚩 flagged, • current; the marks are bot/catalogue/marks.py's),
reachable from every question screen and from the Finish list; a tap jumps straight there."""

from __future__ import annotations

from telegram import InlineKeyboardButton as Button
from telegram import InlineKeyboardMarkup as Keyboard

from bot.catalogue.marks import ANSWERED, CURRENT, FLAGGED, TICKED
from bot.exam import callbacks as cb
from bot.i18n import t
from proctor.exams.model import Sheet

PER_ROW = 6  # 6 buttons a row stay readable on a phone; 100 questions make 17 rows (Telegram allows 100 buttons)
MAX_BUTTONS = 96  # Telegram refuses a keyboard of more than 100 buttons: keep room for the close row


def cell(sheet: Sheet, pos: int) -> str:
    """One question's label: its number and its marks."""
    item = sheet.items[pos]
    label = str(pos + 1)
    if item.draft:  # ticks not submitted yet: not the answer stored before them, if any
        label += TICKED
    elif pos in sheet.answers:
        label += ANSWERED
    if item.flagged:
        label += FLAGGED
    if pos == sheet.attempt.current_pos:
        label = CURRENT + label
    return label


def window(n: int, current: int) -> range:
    """The questions shown: all of them, or MAX_BUTTONS around the current one on a huge paper."""
    if n <= MAX_BUTTONS:
        return range(n)
    start = max(0, min(current - MAX_BUTTONS // 2, n - MAX_BUTTONS))
    return range(start, start + MAX_BUTTONS)


def grid(sheet: Sheet, lang: str) -> tuple[str, Keyboard]:
    """The navigator's text and keyboard for a running attempt."""
    aid, cur = sheet.attempt.id, sheet.attempt.current_pos
    shown = list(window(len(sheet.items), cur))
    rows = [[Button(cell(sheet, p), callback_data=cb.act(aid, cb.Screen.jump, p)) for p in shown[i:i + PER_ROW]]
            for i in range(0, len(shown), PER_ROW)]
    rows.append([Button(t("btn_nav_close", lang), callback_data=cb.act(aid, cb.Screen.jump, cur))])
    return t("navigator_title", lang), Keyboard(rows)


def nav_button(attempt_id: int, pos: int, lang: str) -> Button:
    return Button(t("btn_navigator", lang), callback_data=cb.act(attempt_id, cb.Screen.grid, pos))
