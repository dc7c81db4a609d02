"""HTML from Moodle reduced to plain text that is safe to show in a chat.

A scan of our own, not `html.parser`: the standard library's parser backtracks over every `<` of
an unclosed tag ("<a <a <a ...": 150 KB took minutes) and raises AssertionError on some marked
sections ("<![>"). Here each `<` is looked at once and the next `>` is found once for all the
`<` before it, so the work is linear in the text.
"""

from __future__ import annotations

import html
import re

_BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
                     "blockquote", "ul", "ol", "table"})
_SKIPPED = frozenset({"script", "style", "head"})
_SPACES = re.compile(r"[ \t\u00a0]+")
_MANY_NEWLINES = re.compile(r"\n{3,}")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)")  # no space after "<": "a < b" is text, as in HTML
_ALT = re.compile(r"""\salt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)


def html_to_text(markup: str) -> str:
    """Tags dropped (paragraphs and breaks become new lines, images their alt text), comments,
    declarations, scripts and styles dropped, entities decoded, spaces collapsed: plain text,
    with nothing a chat could take for markup."""
    if "<" not in markup and "&" not in markup:
        return markup.strip()
    parts: list[str] = []
    skipping, pos, gt = 0, 0, -1  # gt: the first ">" at or after the current "<" (-2: none left)
    while (lt := markup.find("<", pos)) >= 0:
        if not skipping:
            parts.append(markup[pos:lt])
        if markup.startswith("<!--", lt):
            end = markup.find("-->", lt + 4)
            pos = len(markup) if end < 0 else end + 3
            continue
        if gt != -2 and gt <= lt:
            gt = markup.find(">", lt + 1)
            gt = -2 if gt < 0 else gt
        tag = _TAG.match(markup, lt)
        if gt == -2 or (tag is None and markup[lt + 1:lt + 2] not in ("!", "?")):
            if not skipping:  # not a tag: the "<" is text
                parts.append("<")
            pos = lt + 1
            continue
        if tag is not None:
            name, closing = tag.group(2).lower(), tag.group(1) == "/"
            skipping = _tag(name, closing, markup, lt, gt, parts, skipping)
            if not closing and markup[gt - 1] == "/":  # <br/>: a start and an end, as html.parser reads it
                skipping = _tag(name, True, markup, lt, gt, parts, skipping)
        pos = gt + 1  # a tag, or a declaration (<!DOCTYPE ...>, <?xml ...?>): dropped
    if not skipping:
        parts.append(markup[pos:])
    lines = [_SPACES.sub(" ", line).strip() for line in html.unescape("".join(parts)).split("\n")]
    return _MANY_NEWLINES.sub("\n\n", "\n".join(lines)).strip()


def _tag(name: str, closing: bool, markup: str, lt: int, gt: int, parts: list[str], skipping: int) -> int:
    """What one tag adds to the text; returns how deep inside skipped elements the text is now."""
    if name in _SKIPPED:
        return max(0, skipping - 1) if closing else skipping + 1
    if skipping:
        return skipping
    if name in _BREAKS:
        parts.append("\n")
    if not closing and name == "img":
        alt = _ALT.search(markup, lt, gt)
        text = next((g for g in alt.groups() if g), "") if alt else ""
        parts.append(f"[{text or 'image'}]")
    if not closing and name == "li":
        parts.append("• ")
    return skipping
