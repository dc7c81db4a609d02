"""Formatted text: what parse_mode leaves visible, Telegram's parse errors and length limits."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import names
from sandbox.fakeapi.state import ParseMode

MAX_TEXT = 4096
MAX_CAPTION = 1024

_HTML_TAGS = names("b strong i em u ins s strike del span tg-spoiler a code pre blockquote tg-emoji")
_MDV2_RESERVED = set(">#+-=|{}.!()")


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise ApiError.bad_request(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise ApiError.bad_request(f'can\'t parse entities: Unexpected end tag "{tag}"')
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _html_visible(text: str) -> str:
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    if parser.open:
        raise ApiError.bad_request(
            f"can't parse entities: Can't find end tag corresponding to start tag \"{parser.open[-1]}\""
        )
    return "".join(parser.parts)


def _markdown_visible(text: str, strict: bool) -> str:
    """Strips Markdown markup; with `strict` (MarkdownV2) unescaped reserved chars are errors."""
    out: list[str] = []
    marks: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and strict and i + 1 < n:
            out.append(text[i + 1])
            i += 2
        elif c == "`":
            fence = "```" if text.startswith("```", i) else "`"
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise ApiError.bad_request(
                    f"can't parse entities: Can't find end of the entity starting at byte offset {i}"
                )
            out.append(text[i + len(fence) : end])
            i = end + len(fence)
        elif text.startswith(("||", "__"), i) and strict:
            _toggle(marks, text[i : i + 2])
            i += 2
        elif c in "*_~":
            _toggle(marks, c)
            i += 1
        elif c == "[":
            marks.append("[")
            i += 1
        elif c == "]" and marks and marks[-1] == "[":
            marks.pop()
            close = text.find(")", i)
            if not text.startswith("(", i + 1) or close < 0:
                raise ApiError.bad_request(
                    "can't parse entities: Character ']' is reserved and must be escaped with the preceding '\\'"
                )
            i = close + 1
        elif strict and c in _MDV2_RESERVED and not (c == ">" and (i == 0 or text[i - 1] == "\n")):
            raise ApiError.bad_request(
                f"can't parse entities: Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        else:
            out.append(c)
            i += 1
    if marks:
        raise ApiError.bad_request("can't parse entities: Can't find end of the entity")
    return "".join(out)


def _toggle(marks: list[str], mark: str) -> None:
    if marks and marks[-1] == mark:
        marks.pop()
    else:
        marks.append(mark)


def parse_mode(p: dict[str, Any]) -> ParseMode | None:
    """The request's parse_mode, decoded. Raises ApiError for one Telegram does not know."""
    raw = p.get("parse_mode")
    if not raw:
        return None
    try:
        return ParseMode(str(raw).lower())
    except ValueError:
        raise ApiError.bad_request(f"unsupported parse_mode {raw}") from None


def text_mode(p: dict[str, Any]) -> ParseMode | None:
    """The markup a message's text is read with: none when the request gives the text's entities."""
    return None if p.get("entities") else parse_mode(p)


def visible_text(text: str, mode: ParseMode | None) -> str:
    """The text the user sees once Telegram applied `mode`."""
    match mode:
        case ParseMode.html:
            return _html_visible(text)
        case ParseMode.markdown | ParseMode.markdown_v2:
            return _markdown_visible(text, strict=mode is ParseMode.markdown_v2)
        case None:
            return text


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def checked_text(p: dict[str, Any], mode: ParseMode | None, name: str = "text") -> tuple[str, str]:
    raw = p.get(name)
    if not isinstance(raw, str) or not raw.strip():
        raise ApiError.bad_request("message text is empty")
    text = visible_text(raw, mode)
    if not text.strip():
        raise ApiError.bad_request("message text is empty")
    if utf16_len(text) > MAX_TEXT:
        raise ApiError.bad_request("message is too long")
    return raw, text


def caption_mode(p: dict[str, Any]) -> ParseMode | None:
    """The markup a caption is read with (none without a caption)."""
    return parse_mode(p) if p.get("caption") else None


def checked_caption(p: dict[str, Any], mode: ParseMode | None) -> tuple[str | None, str | None]:
    raw = p.get("caption")
    if not raw:
        return None, None
    text = visible_text(raw, mode)
    if utf16_len(text) > MAX_CAPTION:
        raise ApiError.bad_request("message caption is too long")
    return raw, text
