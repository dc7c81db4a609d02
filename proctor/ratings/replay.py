"""Replaying answers: the rule folded over first answers in order, without touching the record.

The same fold rebuilds the bot's ratings from its events (proctor/ratings/events.py) and replays a
response log from another system (`proctor ratings replay LOG.csv`): columns `user`, `item`, `correct`
(0..1) and `at` (Unix time), any others ignored; applied in time order, a person's first answer to an
item only. The output files give ratings on the scale people read (rule.points)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bank.csv_safety import safe_row
from proctor.errors import ProctorError
from proctor.ratings import rule
from proctor.ratings.rule import Rating

K = TypeVar("K", bound=Hashable)


class BadLog(ProctorError):
    """A response log that cannot be read: a missing column, or a value that is not what it should be."""


@dataclass(frozen=True, slots=True)
class Answer(Generic[K]):
    """One answer of a log: who, to which item, how right (0..1), when."""

    user: K
    item: K
    correct: float
    at: float


@dataclass(frozen=True, slots=True)
class Start:
    """Where a question starts (its prior) and its guessing floor."""

    prior: Rating = Rating(0.0, rule.QUESTION_PRIOR)
    floor: float = 0.0


@dataclass(slots=True)
class Ratings(Generic[K]):
    """The state of a fold: each person's running belief (what their next answer moves), each
    question's measured difficulty and guessing floor, and each person's counted answers."""

    people: dict[K, Rating] = field(default_factory=dict)
    questions: dict[K, Rating] = field(default_factory=dict)
    floors: dict[K, float] = field(default_factory=dict)
    answered: dict[K, list[tuple[K, float, float]]] = field(default_factory=dict)  # (item, correct, at)

    def ability(self, user: K) -> float:
        """The person's rating (logits): their answers read against the questions as they stand now."""
        return rule.estimate(((correct, self.questions[q], self.floors[q]) for q, correct, _ in self.answered[user]),
                             self.people[user].mean)

    def shown(self, user: K) -> Rating:
        """The person's rating as the bot shows it (rule.shown): its mean and uncertainty."""
        found = rule.shown((correct, self.questions[q], self.floors[q], at) for q, correct, at in self.answered[user])
        assert found is not None, "a person in the fold answered"
        return found


def replay(answers: Iterable[Answer[K]], start: Callable[[K], Start] = lambda item: Start()) -> Ratings[K]:
    """Fold the rule over `answers` in the order given, a person's first answer to an item only;
    `start` gives a question's prior and floor (a log's items: the middle, no floor)."""
    out: Ratings[K] = Ratings()
    seen: set[tuple[K, K]] = set()
    for a in answers:
        if (a.user, a.item) in seen:
            continue
        seen.add((a.user, a.item))
        question = out.questions.get(a.item)
        if question is None:
            begin = start(a.item)
            question, out.floors[a.item] = begin.prior, begin.floor
        person = out.people.get(a.user) or rule.newcomer(a.at)
        out.people[a.user], out.questions[a.item] = rule.play(person, question, a.correct, out.floors[a.item], a.at)
        out.answered.setdefault(a.user, []).append((a.item, a.correct, a.at))
    return out


def read_log(text: str) -> list[Answer[str]]:
    """A response log's answers in time order (a stable sort: ties keep the file's order). Raises BadLog."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = {"user", "item", "correct", "at"} - set(reader.fieldnames or ())
    if missing:
        raise BadLog(f"the log has no column {', '.join(sorted(missing))} (it needs user, item, correct, at)")
    answers = []
    for line, row in enumerate(reader, start=2):
        try:
            correct, at = float(row["correct"]), float(row["at"])
        except (TypeError, ValueError):
            raise BadLog(f"line {line}: correct and at must be numbers") from None
        if not 0.0 <= correct <= 1.0 or not math.isfinite(at):
            raise BadLog(f"line {line}: correct must be between 0 and 1, at a Unix time")
        answers.append(Answer(row["user"] or "", row["item"] or "", correct, at))
    answers.sort(key=lambda a: a.at)
    return answers


def people_csv(ratings: Ratings[K], now: float) -> str:
    """user,rating,uncertainty,answers,provisional: best first, on the scale people read, as of `now`:
    each as the bot shows it (`Ratings.shown`)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["user", "rating", "uncertainty", "answers", "provisional"])
    shown = {user: ratings.shown(user) for user in ratings.people}
    for user, r in sorted(shown.items(), key=lambda kv: -kv[1].mean):
        w.writerow(safe_row([user, f"{rule.points(r.mean):.1f}", f"{rule.spread(rule.deviation_at(r, now)):.1f}",
                             r.answers, int(rule.provisional(r, now))]))
    return out.getvalue()


def items_csv(ratings: Ratings[K]) -> str:
    """item,difficulty,uncertainty,answers: hardest first; a person rated at an item's difficulty
    answers it right half the time (beyond what guessing gives)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["item", "difficulty", "uncertainty", "answers"])
    for item, r in sorted(ratings.questions.items(), key=lambda kv: -kv[1].mean):
        w.writerow(safe_row([item, f"{rule.points(r.mean):.1f}", f"{rule.spread(r.deviation):.1f}", r.answers]))
    return out.getvalue()
