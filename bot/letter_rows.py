"""Option buttons laid out in rows: Telegram takes at most 8 buttons a row, a question up to 26 (A–Z)."""

from __future__ import annotations

from math import ceil
from typing import TypeVar

ROW_MAX = 8  # buttons Telegram shows in one inline keyboard row

T = TypeVar("T")


def letter_rows(buttons: list[T]) -> list[list[T]]:
    """The buttons in as few rows as Telegram allows, the rows as even as can be (12 → 6 + 6)."""
    if not buttons:
        return []
    n_rows = ceil(len(buttons) / ROW_MAX)
    width = ceil(len(buttons) / n_rows)
    return [buttons[i:i + width] for i in range(0, len(buttons), width)]
