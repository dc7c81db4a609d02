"""A section's title without its numbering and its note: "一、填空题（每题1分，共10分）" → "填空题", as the
exam's header, the result card and the team report name it."""

from __future__ import annotations

import re

_SECTION_NUMBER = re.compile(r"^[一二三四五六七八九十]+[、.．]\s*")
_SECTION_NOTE = re.compile(r"[（(][^（）()]*[）)]\s*$")


def short_section(title: str) -> str:
    """"一、填空题（每题1分，共10分）" → "填空题"; a title that would be left empty stays whole."""
    short = _SECTION_NOTE.sub("", _SECTION_NUMBER.sub("", title)).strip()
    return short or title
