"""The scoring rule of a live round: pure functions, nothing else.

A right answer scores round(1000 × (1 − t / 2T)): 1000 at once, 500 at the last moment, where t is
the seconds from the poll's posting to the answer's arrival (at most T, the poll's time). A partly
right multiple-choice answer scores its share by the paper's policy times that. A streak of fully
right answers adds STREAK_STEP points per answer after the first, up to STREAK_CAP.
"""

from __future__ import annotations

from bank.grading.choice import multi_fraction
from bank.kinds import MultiPolicy
from bank.option_order import LETTERS

FULL = 1000
STREAK_STEP = 50  # the 2nd right answer in a row adds 50, the 3rd 100, ...
STREAK_CAP = 200  # ... up to 200 from the 5th on


def speed_points(seconds_taken: float, open_for: float) -> int:
    """A fully right answer's points: 1000 at once down to 500 when the poll closes."""
    t = min(max(seconds_taken, 0.0), open_for)
    return round(FULL * (1 - t / (2 * open_for)))


def fraction(correct: frozenset[int], chosen: frozenset[int], *, multiple: bool, policy: MultiPolicy,
             n_options: int) -> float:
    """How right the chosen options are (0..1): single and true/false all or nothing, multiple by
    the paper's policy (bank.grading.choice.multi_fraction, the exam's own rule)."""
    if not multiple:
        return 1.0 if chosen == correct else 0.0
    key = "".join(sorted(LETTERS[i] for i in correct))
    picked = "".join(sorted(LETTERS[i] for i in chosen if 0 <= i < len(LETTERS)))
    return multi_fraction(key, picked, policy, n_options)


def streak_bonus(run: int) -> int:
    """The bonus of the `run`-th fully right answer in a row (1: none)."""
    return min(STREAK_STEP * max(run - 1, 0), STREAK_CAP)


def points(share: float, seconds_taken: float, open_for: float, run: int) -> int:
    """An answer's points: its share of the speed points, plus the streak bonus when fully right
    (`run` counts this answer)."""
    if share <= 0:
        return 0
    base = round(share * speed_points(seconds_taken, open_for))
    return base + (streak_bonus(run) if share >= 1 else 0)
