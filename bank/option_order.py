"""The one home of option order: which stored option stands under which shown letter.

A question's options are stored in the order of the paper (letters "A", "B", ... by position).
An attempt or a daily quiz may show them shuffled; `OptionOrder` holds the order it was shown in
('CADB': shown letter i is stored letter order[i]) and maps both ways.

Some options refer to other options ("以上都是", "none of the above", "A和B"): they are pinned to
their place and the rest shuffle around them. Texts that name options by letter ("数据并行（A）")
are rewritten to the letters the candidate saw. Both are found once, at import time
(`analyse_options`, `letter_refs`), stored with the question, and only applied here.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import NamedTuple

from bank.errors import BankError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # THE option alphabet: every letter, key and button comes from it
MAX_OPTIONS = len(LETTERS)  # options a choice question may have (A–Z)

# An option that speaks about the other options: keep it where the paper put it.
_REFERS_TO_OTHERS = re.compile(
    r"以上|上述|前述|都不对|都不對|都对|都對|均不|均正确|均正確|皆是|皆非|全部都|全都|全部正确|全部正確"
    r"|\b(?:all|none|both|neither|either)\b(?:\s+of)?(?:\s+the)?\s*(?:above|options?|answers?|[A-Z]\b)"
    r"|^\s*(?:all|none|both|neither|全部)\s*[.。]?\s*$",
    re.IGNORECASE)

# A capital letter standing alone (no ASCII letter, digit or +#_ beside it) ...
_ALONE = r"(?<![A-Za-z0-9+#_.])([A-Z])(?![A-Za-z0-9+#_])"
_JOIN = r"\s*(?:和|与|與|及|或|、|/|,|，|&|and|or)\s*"
# ... that reads as an option reference: "（A）", "选A", "A项", "A和B", "option B", "答案是C".
_BEFORE = re.compile(r"(?:[（(【\[]\s*|选项\s*|選項\s*|选\s*|選\s*|答案(?:是|为|為)?\s*|options?\s+|Options?\s+"
                     + r"|(?:[A-Z])" + _JOIN + r")$")
_AFTER = re.compile(r"^(?:\s*[)）】\]]|\s*选项|\s*選項|\s*项|\s*項|\s*正确|\s*正確|\s*错误|\s*錯誤"
                    + r"|" + _JOIN + r"[A-Z](?![A-Za-z0-9+#_]))")
_LETTER = re.compile(_ALONE)


class NotShown(BankError):
    """A letter that was not among the options shown."""


class SeenOption(NamedTuple):
    """An option as a person saw it: the letter it stood under and its text (letter references rewritten)."""

    letter: str
    text: str


def pinned_options(options: list[str]) -> list[int]:
    """0-based positions of options that refer to other options ("以上都是", "all of the above", "A和B")."""
    pinned = []
    for i, text in enumerate(options):
        if _REFERS_TO_OTHERS.search(text) or letter_refs(text, len(options)):
            pinned.append(i)
    return pinned


def letter_refs(text: str, n_options: int) -> list[int]:
    """Offsets in `text` of capital letters that name one of the `n_options` options."""
    if not text or n_options <= 0:
        return []
    allowed = LETTERS[:n_options]
    found = []
    for m in _LETTER.finditer(text):
        letter, at = m.group(1), m.start(1)
        if letter not in allowed:
            continue
        before, after = text[max(0, at - 12):at], text[at + 1:at + 14]
        if _BEFORE.search(before) or _AFTER.match(after):
            found.append(at)
    return found


def analyse_options(stem: str, options: list[str], explanation: str) -> tuple[list[int], dict[str, list[int]]]:
    """(pinned positions, letter references per text) for a choice question; stored at import."""
    n = len(options)
    refs: dict[str, list[int]] = {}
    for name, text in [("stem", stem), ("explanation", explanation),
                       *((f"option{i}", o) for i, o in enumerate(options))]:
        found = letter_refs(text, n)
        if found:
            refs[name] = found
    return pinned_options(options), refs


@dataclass(frozen=True)
class OptionOrder:
    """The order options were shown in: shown letter i is stored letter `order[i]`."""

    order: str = ""
    refs: tuple[tuple[str, tuple[int, ...]], ...] = ()  # letter references per text, from the import

    @classmethod
    def draw(cls, n_options: int, pinned: list[int] | tuple[int, ...], rng: random.Random,
             shuffle: bool) -> OptionOrder:
        """A new order for `n_options` options: pinned ones stay, the others shuffle if `shuffle`."""
        letters = list(LETTERS[:n_options])
        if shuffle:
            free = [i for i in range(n_options) if i not in set(pinned)]
            moved = [letters[i] for i in free]
            rng.shuffle(moved)
            for i, letter in zip(free, moved, strict=True):
                letters[i] = letter
        return cls("".join(letters))

    @classmethod
    def of(cls, order: str, refs: dict[str, list[int]] | None = None) -> OptionOrder:
        return cls(order, tuple((k, tuple(v)) for k, v in (refs or {}).items()))

    def __len__(self) -> int:
        return len(self.order)

    def original_letter(self, shown_index: int) -> str | None:
        """The stored letter under shown position `shown_index` (0-based); None past the end."""
        return self.order[shown_index] if 0 <= shown_index < len(self.order) else None

    def stored(self, shown: str) -> str | None:
        """The stored letter a shown letter stands for."""
        i = LETTERS.find(shown)
        return self.original_letter(i) if i >= 0 else None

    def shown_letter(self, original: str) -> str:
        """The letter the candidate saw for a stored letter (itself if it was not shown)."""
        i = self.order.find(original)
        return LETTERS[i] if i >= 0 else original

    def to_stored(self, shown: str) -> str:
        """Shown letters ("BD") as sorted stored letters (the empty order: the bank's order, itself).
        Raises NotShown for a letter that was not shown."""
        if not self.order:
            return "".join(sorted(shown))
        out = [self.stored(c) for c in shown]
        if None in out:
            raise NotShown(f"{shown!r}: the options shown were {LETTERS[:len(self.order)]}")
        return "".join(sorted(c for c in out if c is not None))

    def seen(self, options: list[str], stored: str) -> list[SeenOption]:
        """The options under stored letters (a key "AC", a response) as the person saw them: the letter each
        was shown under and its text, in shown order (the empty order: the bank's letters). A letter no
        option has is left out."""
        at = [LETTERS.find(c) for c in dict.fromkeys(stored)]
        return sorted(SeenOption(self.shown_letter(LETTERS[i]), self.rewrite(options[i], f"option{i}"))
                      for i in at if 0 <= i < len(options))

    def rows(self, options: list[str]) -> list[SeenOption]:
        """Every option as shown (letter, text with its letter references rewritten), in shown order."""
        return [SeenOption(LETTERS[i], self.rewrite(options[LETTERS.index(orig)], f"option{LETTERS.index(orig)}"))
                for i, orig in enumerate(self.order)]

    def rewrite(self, text: str, field: str) -> str:
        """`text` with the letters found at import (for `field`) replaced by the letters shown."""
        offsets = dict(self.refs).get(field)
        if not offsets or not self.order or self.order == LETTERS[:len(self.order)]:
            return text
        chars = list(text)
        for at in offsets:
            if at < len(chars) and chars[at] in self.order:
                chars[at] = self.shown_letter(chars[at])
        return "".join(chars)
