"""The rating rule: one first answer is a game between a person and a question (docs/ratings.md).

Both sides carry a normal belief on one logit scale: a person's ability, a question's measured
difficulty (the author's label, `Question.difficulty`, stays what it is; it only gives the prior).
A person of ability θ answers a question of difficulty β right with probability

    E = c + (1 - c) · logistic(g · (θ - β))

where c is the question's guessing floor (a choice question can be guessed) and g < 1 discounts the
other side's uncertainty (Glicko's g). `play` updates both beliefs from one answer by Glicko's step
(an extended Kalman filter): each side's variance shrinks by the answer's information and its mean
moves by the surprise `correct - E`, weighted by (1 - c) since a guessable answer tells less. The
weight is why a right answer never lowers a rating and a harder question raises it more; the variance
only shrinks with answers, and only time away (DRIFT_PER_DAY) widens a person's again.

The person's belief `play` moves is a running one. The rating a person is shown (`estimate`) reads all
of their answers against the questions as they stand now, with the same likelihood and prior.

Pure: no I/O, no clock. Means and deviations are in logits; `points` turns them into the numbers
people read (1500 ± 200, Elo's and Glicko's scale).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from bank.kinds import Kind

# ---- the constants, each explained once ------------------------------------------------------

RULE = "glicko-floor-1"  # names these constants: stored ratings folded with another are rebuilt at start-up
# a newcomer's ability: the middle of the scale, and a deviation wider than people usually differ
# (about 1 logit), so their first answers move it quickly; bench/bench_ratings.py picked 1.3 from a grid
PERSON_PRIOR = 1.3
# a new question's difficulty: its label's (or its points') prior, held loosely, so answers overrule
# a wrong label within a few dozen answers (bench/bench_ratings.py: 1.5 beat 0.7 and 1.0)
QUESTION_PRIOR = 1.5
# a person's variance grows by this much a day away (people learn and forget): a year away widens a
# settled deviation of 0.2 to about 0.42 logits; it never goes past PERSON_PRIOR. Questions do not drift.
DRIFT_PER_DAY = 0.02 ** 2
# a rating is provisional while its deviation is above this (about 87 points): some 15 to 25 answers
PROVISIONAL = 0.5
# easy and hard labels sit this far either side of the middle (a third of a bank each, for a spread
# of difficulties of about 1.1 logits); "very" goes half as far again
LABEL_STEP = 1.0
# a question worth twice its paper's usual points (of its kind) starts this much harder; at most one step
POINTS_STEP = 0.5

# a rating's band, in plain words "very likely between A and B": its mean give or take this many deviations
BAND = 2.0

SCALE = 400 / math.log(10)  # rating points per logit (Elo's 400 points for a 10:1 chance)
CENTRE = 1500.0
_DAY = 86400.0
_NEWTON = 50  # at most; from the running mean it takes three or four steps


@dataclass(frozen=True, slots=True)
class Rating:
    """One side's belief: its mean and deviation (logits), the answers it rests on, the last one's time."""

    mean: float
    deviation: float
    answers: int = 0
    at: float = 0.0


def newcomer(at: float = 0.0) -> Rating:
    """A person before their first counted answer."""
    return Rating(0.0, PERSON_PRIOR, 0, at)


def guess_floor(kind: Kind, options: int) -> float:
    """The chance of a right answer by guessing: one in the options of a single choice, one in two
    of true/false; a multiple choice, a match or a typed answer is not guessed right (0)."""
    match kind:
        case Kind.single if options >= 2:
            return 1.0 / options
        case Kind.truefalse:
            return 0.5
        case _:
            return 0.0


_LABELS = {  # what authors write in a spreadsheet's difficulty column, in steps from the middle
    "很易": -1.5, "非常简单": -1.5, "很简单": -1.5, "very easy": -1.5,
    "易": -1.0, "容易": -1.0, "简单": -1.0, "簡單": -1.0, "easy": -1.0,
    "较易": -0.5, "較易": -0.5, "偏易": -0.5,
    "中": 0.0, "中等": 0.0, "适中": 0.0, "適中": 0.0, "一般": 0.0, "medium": 0.0, "moderate": 0.0,
    "较难": 0.5, "較難": 0.5, "偏难": 0.5,
    "难": 1.0, "難": 1.0, "困难": 1.0, "困難": 1.0, "hard": 1.0, "difficult": 1.0,
    "很难": 1.5, "很難": 1.5, "非常难": 1.5, "极难": 1.5, "very hard": 1.5,
}
_NUMBER = re.compile(r"^[1-5](\.\d+)?$")


def label_prior(label: str) -> float | None:
    """The difficulty an author's label stands for (logits), or None if it says nothing we read:
    易/中/难 and their kin, easy/medium/hard, or a number from 1 (easiest) to 5 (hardest)."""
    text = " ".join(label.strip().lower().split())
    if text in _LABELS:
        return _LABELS[text] * LABEL_STEP
    if _NUMBER.match(text):
        return (float(text) - 3.0) * 0.75 * LABEL_STEP
    return None


def question_prior(label: str, points: float, usual_points: float | None) -> Rating:
    """A question before its first counted answer: from its label; without one, from its points
    against the usual points of its kind in its paper (worth more: harder), else the middle."""
    mean = label_prior(label)
    if mean is None:
        mean = 0.0
        if usual_points and usual_points > 0 and points > 0:
            mean = max(-1.0, min(1.0, POINTS_STEP * math.log2(points / usual_points)))
    return Rating(mean, QUESTION_PRIOR)


def deviation_at(person: Rating, now: float) -> float:
    """A person's deviation at `now`: their last one, widened by the time since (never past the prior)."""
    days = max(0.0, now - person.at) / _DAY
    return math.sqrt(min(PERSON_PRIOR ** 2, person.deviation ** 2 + DRIFT_PER_DAY * days))


def provisional(person: Rating, now: float) -> bool:
    """Whether a rating is still too uncertain to rank among the settled ones."""
    return deviation_at(person, now) > PROVISIONAL


def chance(theta: float, question: Rating, floor: float) -> float:
    """The chance that a person of ability `theta` answers the question right, as `play` expects it
    (the question's own uncertainty discounts the difference)."""
    return floor + (1 - floor) * _logistic(_g(question.deviation) * (theta - question.mean))


def play(person: Rating, question: Rating, correct: float, floor: float, at: float) -> tuple[Rating, Rating]:
    """Both sides after one first answer (`correct`: 0..1, a fraction for partial credit), given at `at`."""
    correct = min(1.0, max(0.0, correct))
    deviation = deviation_at(person, at)
    gap = person.mean - question.mean
    # each side sees the other's mean through the other's uncertainty (Glicko's g)
    g_person, g_question = _g(question.deviation), _g(deviation)
    shift, new_deviation = _step(deviation, g_person, _logistic(g_person * gap), floor, correct)
    q_shift, q_deviation = _step(question.deviation, g_question, _logistic(g_question * gap), floor, correct)
    # a right answer is evidence of more ability and of an easier question: the means move apart
    return (Rating(person.mean + shift, new_deviation, person.answers + 1, max(person.at, at)),
            Rating(question.mean - q_shift, q_deviation, question.answers + 1, max(question.at, at)))


def estimate(answers: Iterable[tuple[float, Rating, float]], start: float = 0.0) -> float:
    """A person's ability from their counted answers, each (correct, the question as it stands, its
    floor), with the newcomer's prior: the value where the surprises `play` moves by balance the prior
    (Newton's method from `start`; the running mean is a good one). What a person's rating shows: every
    answer read against what is known of its question now, not when it was given."""
    terms = [(correct, q.mean, (1 - floor) * _g(q.deviation), _g(q.deviation), floor)
             for correct, q, floor in answers]
    theta = start
    for _ in range(_NEWTON):
        pull, information = -theta / PERSON_PRIOR ** 2, 1 / PERSON_PRIOR ** 2
        for correct, mean, weight, g, floor in terms:
            s = _logistic(g * (theta - mean))
            pull += weight * (correct - floor - (1 - floor) * s)
            information += weight * weight * s * (1 - s)
        step = max(-1.0, min(1.0, pull / information))  # a bounded step: no overshoot from a far start
        theta += step
        if abs(step) < 1e-10:
            break
    return theta


def shown(answers: Iterable[tuple[float, Rating, float, float]]) -> Rating | None:
    """The rating a person is shown from these counted answers, each (correct, the question as it
    stands, its floor, when it counted), in the order they counted; None for no answer. Its mean is
    `estimate`'s; its deviation is the person's side of `play` folded over the same answers against
    the same questions, so it never grows with an answer (only with time away: `deviation_at`). One
    reading for every view: the person's own, a team's (its answers only), a topic's, a hiring paper's."""
    person: Rating | None = None
    read: list[tuple[float, Rating, float]] = []
    for correct, question, floor, at in answers:
        person, _ = play(person or newcomer(at), question, correct, floor, at)
        read.append((correct, question, floor))
    if person is None:
        return None
    return Rating(estimate(read, person.mean), person.deviation, person.answers, person.at)


def band(mean: float, deviation: float) -> tuple[int, int]:
    """A rating's band on the scale people read, rounded to tens: what it very likely is."""
    return (int(round(points(mean - BAND * deviation), -1)), int(round(points(mean + BAND * deviation), -1)))


def _step(deviation: float, g: float, s: float, floor: float, correct: float) -> tuple[float, float]:
    """One side's Kalman step: how far its mean moves toward a right answer, and its new deviation.
    The answer's information is ((1-c) g)² s(1-s); the shift is the new variance times (1-c) g times
    the surprise (correct minus the chance of a right answer)."""
    weight = (1 - floor) * g
    variance = 1 / (1 / deviation ** 2 + weight * weight * s * (1 - s))
    surprise = correct - (floor + (1 - floor) * s)
    return variance * weight * surprise, math.sqrt(variance)


def _g(deviation: float) -> float:
    """Glicko's discount of a difference seen through `deviation` of uncertainty."""
    return 1 / math.sqrt(1 + 3 * deviation ** 2 / math.pi ** 2)


def _logistic(z: float) -> float:
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z)
    return e / (1 + e)


def points(logits: float) -> float:
    """A mean on the scale people read: 1500 in the middle, 400 points for a 10:1 chance."""
    return CENTRE + SCALE * logits


def spread(logits: float) -> float:
    """A deviation on the same scale."""
    return SCALE * logits
