"""Numbered items in seed text: finding the "n." that starts item n, and cutting "1.…2.…3.…"."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=512)
def marker(n: int) -> re.Pattern[str]:
    """The pattern of the number "n." (or "n、"), not inside a decimal or a longer number."""
    return re.compile(rf"(?<![\d.]){n}\s*[.．、](?!\d)")


def line_start(text: str, pos: int) -> bool:
    """Whether only spaces stand between pos and the start of its line."""
    while pos > 0 and text[pos - 1] in " \t":
        pos -= 1
    return pos == 0 or text[pos - 1] == "\n"


def find_marker(text: str, n: int, start: int = 0, *, last: bool = False,
                end: int | None = None) -> re.Match[str] | None:
    """The "n." that starts a numbered item: at a line start when the text has lines."""
    hits = list(marker(n).finditer(text, start, len(text) if end is None else end))
    if not hits:
        return None
    at_line = [h for h in hits if line_start(text, h.start())]
    pool = at_line if (at_line and "\n" in text) else hits
    return pool[-1] if last else pool[0]


def cut_numbered(text: str, first: int = 1) -> list[tuple[int, str]]:
    """Items "1.…2.…3.…" in order; stops at the first missing number."""
    items, n, m = [], first, find_marker(text, first)
    while m is not None:
        nxt = find_marker(text, n + 1, m.end())
        items.append((n, text[m.end(): nxt.start() if nxt else len(text)].strip()))
        n, m = n + 1, nxt
    return items
