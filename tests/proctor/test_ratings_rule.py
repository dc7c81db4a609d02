"""The rating rule (proctor/ratings/rule.py) and its fold (proctor/ratings/replay.py): a right answer
never lowers a rating, a harder question raises it more, uncertainty never grows with answers, a
question starts from its label or its points, and a response log replays as the rule says."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bank.kinds import Kind
from proctor.ratings import rule
from proctor.ratings.replay import Answer, BadLog, items_csv, people_csv, read_log, replay
from proctor.ratings.rule import Rating

DAY = 86400.0
means = st.floats(-4, 4)
deviations = st.floats(0.05, rule.PERSON_PRIOR)
floors = st.sampled_from([0.0, 0.25, 0.5])
shares = st.floats(0, 1)


@st.composite
def ratings(draw, *, prior: float = rule.PERSON_PRIOR) -> Rating:
    return Rating(draw(means), draw(st.floats(0.05, prior)), draw(st.integers(0, 500)), 0.0)


@given(ratings(), ratings(prior=rule.QUESTION_PRIOR), floors, st.floats(0, 30 * DAY))
def test_a_right_answer_never_lowers_a_rating_nor_a_wrong_one_raises_it(person, question, floor, later):
    right, _ = rule.play(person, question, 1.0, floor, later)
    wrong, _ = rule.play(person, question, 0.0, floor, later)
    assert right.mean >= person.mean >= wrong.mean


@given(ratings(), ratings(prior=rule.QUESTION_PRIOR), st.floats(0.01, 3), floors)
def test_a_harder_question_raises_it_more(person, question, harder, floor):
    tougher = Rating(question.mean + harder, question.deviation, question.answers, question.at)
    easy, _ = rule.play(person, question, 1.0, floor, 0.0)
    hard, _ = rule.play(person, tougher, 1.0, floor, 0.0)
    assert hard.mean - person.mean >= easy.mean - person.mean
    # and a wrong answer to it costs less
    easy, _ = rule.play(person, question, 0.0, floor, 0.0)
    hard, _ = rule.play(person, tougher, 0.0, floor, 0.0)
    assert person.mean - hard.mean <= person.mean - easy.mean


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 20), shares, floors), min_size=1, max_size=60))
def test_uncertainty_never_grows_with_answers_at_a_fixed_time(game):
    """Whatever the answers, to whatever questions: each one leaves both sides' deviations no wider."""
    person = rule.newcomer(0.0)
    questions: dict[int, Rating] = {}
    for qid, correct, floor in game:
        question = questions.get(qid, rule.question_prior("", 1.0, 1.0))
        after, q_after = rule.play(person, question, correct, floor, 0.0)
        assert after.deviation <= person.deviation and q_after.deviation <= question.deviation
        assert after.answers == person.answers + 1
        person, questions[qid] = after, q_after


def test_only_time_away_widens_a_settled_rating_and_never_past_the_prior():
    person = rule.newcomer(0.0)
    for i in range(40):
        person, _ = rule.play(person, rule.question_prior("", 1.0, 1.0), i % 2, 0.0, 0.0)
    assert not rule.provisional(person, 0.0)
    assert rule.deviation_at(person, 0.0) == person.deviation
    year = rule.deviation_at(person, 365 * DAY)
    assert person.deviation < year < rule.PERSON_PRIOR
    assert rule.deviation_at(person, 1e6 * DAY) == pytest.approx(rule.PERSON_PRIOR)
    assert rule.provisional(rule.newcomer(0.0), 0.0)


def test_a_new_question_starts_from_its_label_else_its_points():
    assert rule.question_prior("难", 1, 1).mean > rule.question_prior("中", 1, 1).mean == 0.0
    assert rule.question_prior("中", 1, 1).mean > rule.question_prior("易", 1, 1).mean
    assert rule.question_prior(" Very  Hard ", 1, 1).mean > rule.question_prior("hard", 1, 1).mean
    assert rule.question_prior("5", 1, 1).mean > rule.question_prior("3", 1, 1).mean > rule.question_prior("1", 1, 1).mean
    # no label we read: its points against its paper's usual points for its kind
    assert rule.question_prior("", 4, 2).mean > rule.question_prior("", 2, 2).mean == 0.0
    assert rule.question_prior("?", 1, 2).mean < 0.0
    assert rule.question_prior("", 100, 1).mean == 1.0  # at most one step
    assert rule.question_prior("", 1, None).mean == 0.0
    assert {rule.question_prior(label, 1, 1).deviation for label in ("", "难", "3")} == {rule.QUESTION_PRIOR}


def test_a_guessable_answer_tells_less():
    assert rule.guess_floor(Kind.single, 4) == 0.25
    assert rule.guess_floor(Kind.truefalse, 0) == 0.5
    assert rule.guess_floor(Kind.multi, 4) == rule.guess_floor(Kind.fill, 0) == 0.0
    person, question = rule.newcomer(0.0), rule.question_prior("", 1, 1)
    guessable, _ = rule.play(person, question, 1.0, 0.25, 0.0)
    typed, _ = rule.play(person, question, 1.0, 0.0, 0.0)
    assert person.mean < guessable.mean < typed.mean


def test_a_rating_reads_every_answer_against_the_question_as_it_stands():
    easy, hard = Rating(-1.0, 0.3), Rating(1.0, 0.3)
    assert rule.estimate([]) == 0.0
    assert rule.estimate([(1.0, hard, 0.0)]) > rule.estimate([(1.0, easy, 0.0)]) > 0
    assert rule.estimate([(0.0, easy, 0.0)]) < rule.estimate([(0.0, hard, 0.0)]) < 0
    # the same answers read against a question found harder since: the right answer to it counts for more
    assert rule.estimate([(1.0, Rating(2.0, 0.3), 0.0), (0.0, easy, 0.0)]) > rule.estimate(
        [(1.0, hard, 0.0), (0.0, easy, 0.0)])
    assert rule.estimate([(1.0, hard, 0.0)] * 30) == pytest.approx(rule.estimate([(1.0, hard, 0.0)] * 30, 3.0))


@settings(max_examples=200)
@given(st.lists(st.tuples(ratings(prior=rule.QUESTION_PRIOR), shares, floors), min_size=1, max_size=40))
def test_the_rating_shown_is_the_estimate_and_its_uncertainty_never_grows_with_an_answer(answers):
    """rule.shown: whatever the answers, one more leaves the uncertainty shown no wider; its mean is
    `estimate`'s over the same answers; its band holds the mean."""
    before = None
    for n in range(1, len(answers) + 1):
        read = [(correct, q, floor, 0.0) for q, correct, floor in answers[:n]]
        shown = rule.shown(read)
        assert shown is not None and shown.answers == n
        assert before is None or shown.deviation <= before.deviation
        assert shown.mean == pytest.approx(rule.estimate([(c, q, f) for c, q, f, _ in read]), abs=1e-6)
        low, high = rule.band(shown.mean, shown.deviation)
        assert low <= round(rule.points(shown.mean)) <= high
        before = shown
    assert rule.shown([]) is None


def test_a_log_replays_in_time_order_first_answers_only():
    log = read_log("\ufeffuser,item,correct,at,label\nann,q1,1,30,x\nbob,q1,0,10,y\nann,q1,0,40,z\n"
                   "ann,q2,0.5,20,\n")
    assert [(a.user, a.item, a.correct, a.at) for a in log] == [
        ("bob", "q1", 0.0, 10.0), ("ann", "q2", 0.5, 20.0), ("ann", "q1", 1.0, 30.0), ("ann", "q1", 0.0, 40.0)]
    folded = replay(log)
    assert {u: [(q, c) for q, c, _ in a] for u, a in folded.answered.items()} == {
        "bob": [("q1", 0.0)], "ann": [("q2", 0.5), ("q1", 1.0)]}
    # the same as playing the rule by hand, in that order
    bob, q1 = rule.play(rule.newcomer(10), Rating(0.0, rule.QUESTION_PRIOR), 0.0, 0.0, 10)
    ann, q2 = rule.play(rule.newcomer(20), Rating(0.0, rule.QUESTION_PRIOR), 0.5, 0.0, 20)
    ann, q1 = rule.play(ann, q1, 1.0, 0.0, 30)
    assert folded.people == {"bob": bob, "ann": ann} and folded.questions == {"q1": q1, "q2": q2}
    rows = [line.split(",") for line in people_csv(folded, 40).splitlines()]
    assert rows[0] == ["user", "rating", "uncertainty", "answers", "provisional"]
    assert [(r[0], r[3], r[4]) for r in rows[1:]] == [("ann", "2", "1"), ("bob", "1", "1")]
    assert float(rows[1][1]) == pytest.approx(rule.points(folded.ability("ann")), abs=0.05)
    assert float(rows[1][2]) == pytest.approx(rule.spread(folded.shown("ann").deviation), abs=0.05)
    items = [line.split(",") for line in items_csv(folded).splitlines()]
    assert items[0] == ["item", "difficulty", "uncertainty", "answers"]
    assert {r[0]: r[3] for r in items[1:]} == {"q1": "2", "q2": "1"}


@pytest.mark.parametrize("text, error", [
    ("user,item,at\na,b,1\n", "no column correct"),
    ("user,item,correct,at\na,b,yes,1\n", "line 2"),
    ("user,item,correct,at\na,b,1,1\na,c,1.5,2\n", "line 3: correct must be between 0 and 1"),
    ("user,item,correct,at\na,b,1,nan\n", "line 2"),
])
def test_a_log_that_cannot_be_read_names_the_place(text, error):
    with pytest.raises(BadLog, match=error):
        read_log(text)


def test_a_formula_in_a_log_stays_text_in_the_output():
    folded = replay([Answer("=HYPERLINK(1)", "@q", 1.0, 0.0)])
    assert people_csv(folded, 0).splitlines()[1].startswith("'=HYPERLINK(1)")
    assert items_csv(folded).splitlines()[1].startswith("'@q")
