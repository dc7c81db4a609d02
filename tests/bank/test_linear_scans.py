"""The readers' hand-written scans (HTML to text, "does this look like GIFT") do linear work
(issue 21, item 4), counted, not timed: the text is a str whose find/rfind add up how many
characters they looked at; doubling the text must not more than double that count. And the HTML
scan reads ordinary markup as html.parser did."""

from __future__ import annotations

import pytest

from bank.formats.gift import looks_like_gift
from bank.formats.html_text import html_to_text


class Counted(str):
    """A str that counts the characters its find and rfind look at, and their calls."""

    work = 0

    def find(self, sub, start=0, end=None):  # type: ignore[override]
        end = len(self) if end is None else end
        at = super().find(sub, start, end)
        Counted.work += 1 + ((at if at >= 0 else end) - start)
        return at

    def rfind(self, sub, start=0, end=None):  # type: ignore[override]
        end = len(self) if end is None else end
        at = super().rfind(sub, start, end)
        Counted.work += 1 + (end - (at if at >= 0 else start))
        return at


def _work(function, text: str) -> int:
    Counted.work = 0
    function(Counted(text))
    return Counted.work


HOSTILE_HTML = {"unclosed tags": "<a ", "a tag never closed": "<a b=", "bare <": "<", "tags": "<b>x</b>",
                "comments never closed": "<!--", "declarations": "<!x ", "self-closing": "<br/>",
                "images": "<img alt='a'>", "entities": "&amp;&#"}
HOSTILE_GIFT = {"a line of {": "{", "comment lines with {": "// {\n", "lines with { and no }": "x {\n",
                "blank lines": "\n", "text": "word "}


@pytest.mark.parametrize("unit", HOSTILE_HTML.values(), ids=HOSTILE_HTML.keys())
def test_html_to_text_looks_at_each_character_a_bounded_number_of_times(unit):
    small, large = _work(html_to_text, unit * 20_000), _work(html_to_text, unit * 40_000)
    assert large <= 2 * small + 10


@pytest.mark.parametrize("unit", HOSTILE_GIFT.values(), ids=HOSTILE_GIFT.keys())
def test_looks_like_gift_looks_at_each_character_a_bounded_number_of_times(unit):
    for text in (unit, "x" + unit):
        small, large = _work(looks_like_gift, text * 20_000), _work(looks_like_gift, text * 40_000)
        assert large <= 2 * small + 10


@pytest.mark.parametrize("markup,text", [
    ("<p>Hello <b>world</b></p><p>x&amp;y</p>", "Hello world\n\nx&y"),
    ("a < b and c > d", "a < b and c > d"),
    ("<img src=x alt='a cat'> and <img src=y> <img alt=''>", "[a cat] and [image] [image]"),
    ("<ul><li>one</li><li>two</li></ul>", "• one\n\n• two"),
    ("<script>var x = '<p>';</script>text", "text"),
    ("<!-- c -->visible", "visible"),
    ("x<br/>y<br>z", "x\n\ny\nz"),
    ("&lt;b&gt; literal", "<b> literal"),
    ("<div>α&nbsp;β</div>", "α β"),
    ("<!DOCTYPE html><p>d</p>", "d"),
    ("<?xml version='1.0'?>q", "q"),
    ("<![>x", "x"),  # html.parser raised AssertionError here
    ("<a <a <a", "<a <a <a"),  # and took minutes over 150 KB of this
])
def test_html_to_text_reads_markup_as_html_parser_did(markup, text):
    assert html_to_text(markup) == text
