"""Telegram's length limits, counted as Telegram counts them: in UTF-16 code units.

An emoji outside the Basic Multilingual Plane (😀) is one Python character but two units, so
`len(text)` undercounts: 2,048 emoji are 2,048 characters and 4,096 units, the whole budget of a
message. Every text the bot clips goes through `clip` here.
"""

from __future__ import annotations

TELEGRAM_TEXT = 4096  # sendMessage / editMessageText, after entity parsing
TELEGRAM_CAPTION = 1024
TELEGRAM_TOAST = 200  # answerCallbackQuery; Telegram says "characters": units are the safe reading

MARGIN = 96  # room for what Telegram counts that we do not see (entities, normalised newlines)
MAX_TEXT = TELEGRAM_TEXT - MARGIN
MAX_CAPTION = TELEGRAM_CAPTION - 24
MAX_TOAST = TELEGRAM_TOAST
MAX_ECHO = 1000  # a user's own answer shown back to them: the screen around it must still fit

ELLIPSIS = "…"


def utf16_len(text: str) -> int:
    """The length Telegram sees: characters beyond U+FFFF count twice."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """`text` if it fits in `limit` UTF-16 units, else its longest prefix that fits with "…" added.

    Cuts between characters, so a surrogate pair is never split.
    """
    if len(text) * 2 <= limit or utf16_len(text) <= limit:
        return text
    budget = limit - utf16_len(ELLIPSIS)
    used = 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > budget:
            # a joiner or variation selector left dangling would glue the ellipsis to an emoji
            return text[:i].rstrip().rstrip("\u200d\ufe0f") + ELLIPSIS
    return text  # unreachable: the text did not fit


def clip_start(text: str, room: int) -> str:
    """`text`, or as much of its end as fits in `room` UTF-16 units after "…" (a long written answer on
    screen: its newest part shows)."""
    if utf16_len(text) <= room:
        return text
    cut = text
    while cut and utf16_len(cut) > room - 1:
        cut = cut[max(1, (utf16_len(cut) - room + 1) // 2):]
    return ELLIPSIS + cut
