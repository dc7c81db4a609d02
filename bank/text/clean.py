"""Cleaning scraped exam text: pinyin readings, site boilerplate and garbled characters.

Pure functions over strings; nothing here knows about papers or questions.
"""

from __future__ import annotations

import re
from enum import StrEnum

TONED = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜńňǹ"
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_INITIAL = r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])"
_FINAL = (r"(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|van|ai|ei|ao|ou|an|en|in|un|vn"
          r"|ia|ie|iu|ua|uo|ui|ue|ve|er|a|o|e|i|u|v|ü)")

# A reading carrying a tone mark is never real content, whatever stands before it (the seeds even
# have one after a blank: "為_(kāi)___"), except after "?" where it is part of a garbled run that
# the repair table matches whole.
_TONED_READING = re.compile(rf"(?<!\?)\([a-zü]*[{TONED}][a-zü{TONED}]*\)")
# A toneless syllable is a reading only right after a CJK character: "(x)" in "f(x)" stays.
_PLAIN_READING = re.compile(rf"(?<=[{_CJK}])\({_INITIAL}?{_FINAL}\)")

# Garbled forms seen in the seeds whose intended character is certain. The trailing capital
# ("Q", "W") is the tail of the byte-shifted run, so these entries consume the whole garble.
_CERTAIN = {
    "?jǐn)?shù)": "數",
    "?jīng)Q": "決",
    "?qū)W": "學",
}
# Fragments whose character is known but which, in the wild, start a longer byte-shifted run
# ("因?yàn)殡S著" is 因為隨著): repaired only when the next characters are plainly clean.
_CONDITIONAL = {
    "?yàn)": "為",
    "?yōu)": "優",
}
_CLEAN_TAIL = re.compile(rf"[{_CJK}，。、；：？！（）《》“”]{{3}}|[{_CJK}]{{0,2}}(?:[，。、；：？！]|$)")

_GARBLE = re.compile(
    rf"\?[a-zü{TONED}]+\)"  # "?" + reading fragment: "?yàn)"
    rf"|(?<=[{_CJK}])\?|\?(?=[{_CJK}])"  # an ASCII "?" glued to Chinese text
    r"|[\ue000-\uf8ff€\ufffd]"  # private-use characters, euro sign, replacement character
)


class Garble(StrEnum):
    clean = "clean"
    repaired = "repaired"
    corrupted = "corrupted"


def strip_readings(text: str) -> str:
    """Remove pinyin readings inserted after characters: "深度學(xué)習(xí)" -> "深度學習"."""
    text = _TONED_READING.sub("", text)
    return _PLAIN_READING.sub("", text)


def is_garbled(text: str) -> bool:
    """True if the text still holds "?"-garble, private-use or other mojibake characters."""
    return bool(_GARBLE.search(text))


def repair_garble(text: str) -> tuple[str, Garble]:
    """Repair garbled characters whose intent is certain; say whether the text is now clean."""
    if "?" not in text and not _GARBLE.search(text):
        return text, Garble.clean
    fixed = text
    for bad, good in _CERTAIN.items():
        fixed = fixed.replace(bad, good)
    for bad, good in _CONDITIONAL.items():
        fixed = _repair_if_clean_after(fixed, bad, good)
    if is_garbled(fixed):
        return text, Garble.corrupted
    return fixed, Garble.repaired if fixed != text else Garble.clean


def _repair_if_clean_after(text: str, bad: str, good: str) -> str:
    out, pos = [], 0
    while (i := text.find(bad, pos)) >= 0:
        after = text[i + len(bad):]
        ok = _CLEAN_TAIL.match(after) and not is_garbled(after[:4])
        out.append(text[pos:i])
        out.append(good if ok else bad)
        pos = i + len(bad)
    out.append(text[pos:])
    return "".join(out)


# Site notices in front of the title: "原创力文档- 1、..." then "- 2、...", each on one line.
# [^\S\n]*, not \s*: a run of blank lines is not scanned again from each of its line starts
_NOTICE_LINE = re.compile(r"^[^\S\n]*(?:原创力文档\s*)?-\s*\d+、.*$", re.M)
_NOISE = [
    re.compile(r"文档评论\s*[（(]\s*\d+\s*[)）]"),
    re.compile(r"文檔評論\s*[（(]\s*\d+\s*[)）]"),
    re.compile(r"\.docVIP\b"),
    re.compile(r"^[^\S\n]*原创力文档\s*$", re.M),
]


def remove_noise(text: str) -> str:
    """Remove the document site's boilerplate: notices, comment counters, ".docVIP"."""
    text = _NOTICE_LINE.sub("", text)
    for pattern in _NOISE:
        text = pattern.sub("", text)
    return text


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def tidy(text: str) -> str:
    """Strip every line and drop empty ones: the seeds double-space everything."""
    return "\n".join(line.strip() for line in text.split("\n") if line.strip())
