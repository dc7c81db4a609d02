"""The integrity rules: pure functions over one attempt's answers and timings, thresholds as parameters.

A signal is something for a person to look at, never a verdict and never a change of score:

    similar  a written answer near-identical to another candidate's on the same paper's question
    fast     right answers given faster than a person can read the question, several in one attempt
    late     several answers changed in the last seconds before the hand-in
    quick    an attempt handed in far faster than the paper's median

Why the floors are what they are: docs/integrity-signals.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz, process

from bank.kinds import SUBJECTIVE, Kind
from bank.script import to_script


class Signal(StrEnum):
    similar = "similar"
    fast = "fast"
    late = "late"
    quick = "quick"


# Reading speed: ~250 words a minute in English, ~450 characters a minute in Chinese (typical adult
# silent reading). The floor is twice as fast as that (a skim), so only an answer no reader could
# have read the question for falls under it.
WORDS_PER_SECOND = 2 * 250 / 60
CJK_PER_SECOND = 2 * 450 / 60
MIN_FLOOR = 2.0  # seconds: seeing a new screen and pressing a button, however short the question
TYPED_PER_SECOND = 8.0  # characters a fast typist enters (~90 words a minute); pasting is faster
LATE_WINDOW = 30.0  # seconds before the hand-in in which changed answers count as late
MIN_WRITTEN = 20  # normalised characters: shorter written answers agree by nature ("TCP", "O(n)")
# an answer's closest matches kept (and, from the other side, the matches an earlier answer takes):
# a leaked answer shared by a ring of N would otherwise store N² pairs, each hand-in writing one for
# every earlier copy on the database thread, and a lead needs a few side by side, not all of them
SIMILAR_KEPT = 5
MIN_MEDIAN_OF = 5  # finished attempts of the paper before its median means anything

TYPED = frozenset({Kind.fill, Kind.numerical}) | SUBJECTIVE  # kinds answered by typing

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A paper's thresholds (`proctor bank set PAPER --signals ...`); the defaults are migration 031's."""
    on: bool = True
    similar: float = 90.0  # percent: rapidfuzz's ratio of two normalised written answers
    fast: int = 3  # too-fast right answers in one attempt
    late: int = 3  # answers changed in the last LATE_WINDOW seconds
    quick: float = 33.0  # percent of the paper's median time


@dataclass(frozen=True, slots=True)
class Timed:
    """One stored answer as the rules see it."""
    pos: int
    kind: Kind
    shown: str  # what the screen showed: the stem and a choice question's options (read for right answers)
    typed: str  # what the candidate typed (empty for a button)
    correct: bool
    shown_at: float | None  # first on screen; None: not recorded (an attempt from before 031)
    answered_at: float
    changes: int


@dataclass(frozen=True, slots=True)
class Found:
    code: Signal
    pos: int | None
    value: float
    bound: float
    other_attempt_id: int | None = None
    other_pos: int | None = None


def reading_floor(kind: Kind, shown: str, typed: str = "") -> float:
    """Seconds below which a right answer was given faster than the question can be read (and,
    for a typed answer, the answer typed)."""
    cjk = len(_CJK.findall(shown))
    words = len(_WORD.findall(shown))
    seconds = cjk / CJK_PER_SECOND + words / WORDS_PER_SECOND
    if kind in TYPED:
        seconds += len(typed) / TYPED_PER_SECOND
    return max(MIN_FLOOR, seconds)


def fast_answers(answers: Iterable[Timed], th: Thresholds) -> list[Found]:
    """Right answers under their reading floor, if there are at least `th.fast` of them."""
    found = []
    for a in answers:
        if not a.correct or a.shown_at is None:
            continue
        floor = reading_floor(a.kind, a.shown, a.typed)
        taken = a.answered_at - a.shown_at
        if 0 <= taken < floor:
            found.append(Found(Signal.fast, a.pos, round(taken, 2), round(floor, 2)))
    return found if len(found) >= th.fast else []


def late_changes(answers: Iterable[Timed], handed_in: float, th: Thresholds) -> list[Found]:
    """Answers changed within LATE_WINDOW seconds of the hand-in, if there are at least `th.late`."""
    found = [Found(Signal.late, a.pos, round(handed_in - a.answered_at, 2), LATE_WINDOW)
             for a in answers if a.changes > 0 and 0 <= handed_in - a.answered_at <= LATE_WINDOW]
    return found if len(found) >= th.late else []


def quick_hand_in(seconds: float, others: int, median: float | None, th: Thresholds) -> Found | None:
    """The attempt took under `th.quick` percent of `median`, the median time of the paper's `others`
    other finished attempts (in seconds); nothing until there are MIN_MEDIAN_OF of them."""
    if others < MIN_MEDIAN_OF or median is None:
        return None
    if seconds < median * th.quick / 100:
        return Found(Signal.quick, None, round(seconds, 2), round(median, 2))
    return None


def written(kind: Kind) -> bool:
    """Whether answers of this kind are compared for similarity (free text, graded by a person)."""
    return kind in SUBJECTIVE


def normalise(text: str) -> str:
    """NFKC, Simplified, letters and digits only, lower case: "數據 並行!" and "数据并行" compare equal."""
    simplified = to_script(unicodedata.normalize("NFKC", text), "hans")
    return "".join(ch for ch in simplified if ch.isalnum()).lower()


def similar_to(norm: str, others: Sequence[tuple[int, int, str]], th: Thresholds) -> list[Found]:
    """The other candidates' answers to the same question (attempt id, pos, normalised text) whose
    similarity ratio with `norm` is at least `th.similar` percent, the SIMILAR_KEPT closest, closest
    first; answers under MIN_WRITTEN ignored."""
    others = [o for o in others if len(o[2]) >= MIN_WRITTEN]
    if len(norm) < MIN_WRITTEN or not others:
        return []

    hits = process.extract(norm, [o[2] for o in others], scorer=fuzz.ratio, score_cutoff=th.similar,
                           limit=SIMILAR_KEPT)
    return [Found(Signal.similar, None, round(score, 1), th.similar, others[i][0], others[i][1])
            for _, score, i in hits]


def summary(counts: dict[Signal, int]) -> str:
    """Short codes with counts, in a fixed order: `similar:1 fast:3`; empty when there are none."""
    return " ".join(f"{s.value}:{counts[s]}" for s in Signal if counts.get(s))
