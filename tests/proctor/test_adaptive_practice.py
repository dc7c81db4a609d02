"""Practice at the person's level (proctor/exams/adaptive.py): over 200 simulated answers a person
answers the questions it picks right 0.70 ± 0.05 of the time, whatever their ability; it never picks a
hiring paper's question, a sealed, held, unaskable, retired or written one, nor one met in the last
seven days (one met before that may come back)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from bank.kinds import Kind
from bank.models import Paper, Question, Section
from proctor.exams import adaptive
from proctor.exams import service as attempts
from proctor.exams.adaptive import Candidate, pick
from proctor.exams.states import AttemptMode
from proctor.ratings import rule
from proctor.ratings.replay import Answer, Start, replay
from proctor.teams.curation import set_retired
from tests.answering import answer
from tests.rating_world import T0, paper, people, sums


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

DAY = 86400.0


def _logistic(z: float) -> float:
    return 1 / (1 + math.exp(-z))


class Bank:
    """A simulated bank that is not the rule's own model: each question has a discrimination, and a
    choice question a guessing floor a little below one in its options (people avoid silly options
    less than chance would); calibrated by 300 other people's answers folded with the rule."""

    def __init__(self, rng: random.Random, n: int = 600) -> None:
        self.questions = []
        for _ in range(n):
            floor = rng.choice((0.25, 0.25, 0.5, 0.0, 0.0))  # single choice of four, true/false, typed
            self.questions.append({"beta": rng.uniform(-3, 3), "a": math.exp(rng.gauss(0, 0.25)), "floor": floor,
                                   "guess": 0.8 * floor})
        log, at = [], 0.0
        for person in range(300):
            theta = rng.gauss(0, 1)
            for q in rng.sample(range(n), 40):
                at += 1
                log.append(Answer(person, q, float(rng.random() < self.p_right(theta, q)), at))
        folded = replay(log, lambda q: Start(rule.Rating(0.0, rule.QUESTION_PRIOR), self.questions[q]["floor"]))
        self.beliefs = {q: folded.questions.get(q, rule.Rating(0.0, rule.QUESTION_PRIOR)) for q in range(n)}
        self.at = at

    def p_right(self, theta: float, q: int) -> float:
        x = self.questions[q]
        return x["guess"] + (1 - x["guess"]) * _logistic(x["a"] * (theta - x["beta"]))


def practise(bank: Bank, theta: float, rng: random.Random, answers: int = 200) -> float:
    """A newcomer of true ability `theta` practises sessions of adaptive.SESSION picked questions, a day
    apart, until `answers` answers; each answer moves their rating and the question as the bot's would
    (its first answer to a question only counts). Their share of right answers."""
    person, met, right, given, at = rule.newcomer(bank.at), {}, 0, 0, bank.at
    while given < answers:
        at += DAY
        fresh = [Candidate(q, bank.beliefs[q], bank.questions[q]["floor"], q in met)
                 for q in range(len(bank.questions)) if at - met.get(q, -math.inf) >= adaptive.AWAY]
        for q in pick(person, fresh, adaptive.SESSION, rng):
            correct = float(rng.random() < bank.p_right(theta, q))
            right, given = right + int(correct), given + 1
            if q not in met:
                person, bank.beliefs[q] = rule.play(person, bank.beliefs[q], correct, bank.questions[q]["floor"], at)
            met[q] = at
    return right / given


@pytest.mark.parametrize("theta", [-1.0, 0.0, 0.8, 1.6])
def test_a_person_answers_the_picked_questions_right_seven_times_in_ten(theta):
    rates = []
    for seed in range(5):
        rng = random.Random(seed)
        rates.append(practise(Bank(rng), theta, rng))
    assert abs(statistics.median(rates) - adaptive.TARGET) <= 0.05, rates


def test_a_harder_question_is_picked_for_a_stronger_person():
    questions = [Candidate(q, rule.Rating(q / 2 - 3, 0.3), 0.0) for q in range(13)]
    weak = pick(rule.Rating(-1.0, 0.3), questions, 3, random.Random(0))
    strong = pick(rule.Rating(1.5, 0.3), questions, 3, random.Random(0))
    assert max(weak) < min(strong)


def _mixed(slug: str) -> Paper:
    """Six fill-ins that may be picked, and one of each kind that may not: a repeat of an earlier stem
    (held), one cut off (unaskable), one to retire, a written one."""
    base = sums(slug, 6).sections[0].questions
    extra = [Question(number=7, kind=Kind.fill, stem=base[0].stem, answer=[["0"]], points=1),
             Question(number=8, kind=Kind.fill, stem=f"{slug} cut off ______", answer=[["x"]], points=1,
                      flags=["truncated"]),
             Question(number=9, kind=Kind.fill, stem=f"{slug} to retire ______", answer=[["x"]], points=1)]
    written = Question(number=1, kind=Kind.short, stem=f"{slug}: explain.", answer="because", points=5)
    return Paper(slug=slug, title=f"Mixed {slug}", sections=[
        Section(kind=Kind.fill, title="填空题", questions=[*base, *extra]),
        Section(kind=Kind.short, title="简答题", questions=[written])])


async def _ids(db, slug: str) -> list[int]:
    return [r[0] for r in await db.fetchall(
        "SELECT q.id FROM questions q JOIN papers p ON p.id = q.paper_id JOIN sections s ON s.id = q.section_id "
        "WHERE p.slug = ? ORDER BY s.position, q.number",
        (slug,))]


async def test_only_askable_practice_questions_not_met_this_week_are_picked(db):
    await people(db, (1, "Ann"))
    practice = await paper(db, _mixed("prac"))
    await paper(db, sums("hire", 4, exam_only=True))
    sealed = await paper(db, sums("sealed", 3))
    now = T0 + 30 * DAY
    prac = await _ids(db, "prac")
    await set_retired(db, prac[8], True, lead=1, chat_id=None, now=T0)
    # she met two questions three days ago, and one eight days ago (shown on her practice's screen)
    for ago, positions in ((8, [2]), (3, [0, 1])):
        a = await attempts.start_attempt(db, user_id=1, chat_id=1, paper_id=practice, mode=AttemptMode.practice,
                                         now=now - ago * DAY, shuffle=False)
        for pos in positions:
            await answer(db, a.id, pos, str(2 * pos), now - ago * DAY + pos)
        await attempts.finish_attempt(db, a.id, now - ago * DAY + 100, attempts.FinishReason.submitted)
    # and her exam on another paper runs now: its questions are sealed for her
    await attempts.start_attempt(db, user_id=1, chat_id=1, paper_id=sealed, mode=AttemptMode.exam, now=now,
                                 shuffle=False)
    drawn = await db.run(lambda conn: adaptive.drawn_in(conn, 1, now, random.Random(0), n=100))
    assert sorted(q.id for _, q in drawn) == sorted([prac[2], *prac[3:6]])
    assert {section for section, _ in drawn} == {"填空题"}
