"""HTML from Moodle reduced to plain text that is safe to show in a chat."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
                     "blockquote", "ul", "ol", "table"})
_SKIPPED = frozenset({"script", "style", "head"})
_SPACES = re.compile(r"[ \t\u00a0]+")
_MANY_NEWLINES = re.compile(r"\n{3,}")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
        elif tag in _BREAKS:
            self.parts.append("\n")
        elif tag == "img":
            alt = dict(attrs).get("alt") or ""
            self.parts.append(f"[{alt or 'image'}]")
        if tag == "li":
            self.parts.append("• ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Tags dropped (paragraphs and breaks become new lines, images their alt text), entities
    decoded, spaces collapsed: plain text, with nothing a chat could take for markup."""
    if "<" not in markup and "&" not in markup:
        return markup.strip()
    parser = _Text()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts)
    lines = [_SPACES.sub(" ", line).strip() for line in html.unescape(text).split("\n")]
    return _MANY_NEWLINES.sub("\n\n", "\n".join(lines)).strip()
