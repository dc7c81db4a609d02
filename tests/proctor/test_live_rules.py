"""The live round's pure rules: the scoring, the next step, the pacing, /live's arguments."""

from __future__ import annotations

import pytest

from bank.kinds import MultiPolicy
from proctor.live import scoring
from proctor.live.draw import BadArgument, Request, parse_args
from proctor.live.model import Item, Round
from proctor.live.plan import (
    CALLS_PER_QUESTION,
    COUNTDOWN,
    GROUP_PER_MINUTE,
    MIN_GAP,
    Act,
    Next,
    gap,
    next_step,
)
from proctor.live.states import ItemStatus, RoundStatus


@pytest.mark.parametrize(("t", "open_for", "points"), [(0, 20, 1000), (10, 20, 750), (20, 20, 500), (30, 20, 500),
                                                       (-1, 20, 1000), (3, 10, 850), (1, 20, 975)])
def test_speed_points(t, open_for, points):
    assert scoring.speed_points(t, open_for) == points


@pytest.mark.parametrize(("run", "bonus"), [(0, 0), (1, 0), (2, 50), (3, 100), (5, 200), (9, 200)])
def test_streak_bonus(run, bonus):
    assert scoring.streak_bonus(run) == bonus


def test_points_wrong_and_partial_answers():
    assert scoring.points(0.0, 1, 20, 0) == 0
    assert scoring.points(1.0, 0, 20, 3) == 1100
    assert scoring.points(0.5, 0, 20, 0) == 500  # a partial answer has no streak bonus
    assert scoring.points(0.5, 10, 20, 5) == 375


@pytest.mark.parametrize(("policy", "chosen", "share"), [
    (MultiPolicy.partial, {0, 2}, 1.0), (MultiPolicy.partial, {0}, 0.5), (MultiPolicy.partial, {0, 1}, 0.0),
    (MultiPolicy.all_or_nothing, {0}, 0.0), (MultiPolicy.all_or_nothing, {2, 0}, 1.0),
    (MultiPolicy.weighted, {0}, 0.5), (MultiPolicy.weighted, {0, 2, 1}, 0.5)])
def test_a_multiple_answer_is_scored_by_the_papers_policy(policy, chosen, share):
    assert scoring.fraction(frozenset({0, 2}), frozenset(chosen), multiple=True, policy=policy,
                            n_options=4) == share


def test_a_single_answer_is_right_or_wrong():
    assert scoring.fraction(frozenset({1}), frozenset({1}), multiple=False, policy=MultiPolicy.partial,
                            n_options=3) == 1.0
    assert scoring.fraction(frozenset({1}), frozenset({1, 2}), multiple=False, policy=MultiPolicy.partial,
                            n_options=3) == 0.0


def test_the_gap_fits_a_questions_calls_into_the_groups_minute():
    for seconds in range(10, 121):
        cycle = seconds + gap(seconds)
        assert cycle >= CALLS_PER_QUESTION * 60 / GROUP_PER_MINUTE and gap(seconds) >= MIN_GAP


def _round(status=RoundStatus.asking, announced=True, podium=False) -> Round:
    return Round(id=1, chat_id=-1, lead_id=1, status=status, questions=2, seconds=10, lang="en", script="orig",
                 created_at=0.0, starts_at=COUNTDOWN, announced=announced, standings_id=None, ended_at=None,
                 podium_posted=podium)


def _item(pos, status, posted=None, closed=None) -> Item:
    return Item(round_id=1, pos=pos, question_id=pos + 10, option_order="ABC", correct=frozenset({0}),
                multiple=False, policy=MultiPolicy.partial, status=status, poll_id=None, message_id=None,
                posted_at=posted, closes_at=None if posted is None else posted + 10, closed_at=closed)


def test_the_next_step_from_each_state():
    pending = [_item(0, ItemStatus.pending), _item(1, ItemStatus.pending)]
    assert next_step(_round(RoundStatus.countdown, announced=False), pending, 0) == Next(Act.announce)
    assert next_step(_round(RoundStatus.countdown), pending, 1) == Next(Act.wait, at=COUNTDOWN)
    assert next_step(_round(RoundStatus.countdown), pending, COUNTDOWN) == Next(Act.begin)
    assert next_step(_round(), pending, COUNTDOWN) == Next(Act.send, 0)
    sent = [_item(0, ItemStatus.sending), pending[1]]
    assert next_step(_round(), sent, 100) == Next(Act.send, 0)  # again after a crash inside the send
    opened = [_item(0, ItemStatus.open, posted=10), pending[1]]
    assert next_step(_round(), opened, 15) == Next(Act.wait, 0, 20)
    assert next_step(_round(), opened, 20) == Next(Act.close, 0)
    closed = [_item(0, ItemStatus.closed, posted=10, closed=20), pending[1]]
    assert next_step(_round(), closed, 21) == Next(Act.wait, 1, 20 + gap(10))
    assert next_step(_round(), closed, 20 + gap(10)) == Next(Act.send, 1)
    done = [closed[0], _item(1, ItemStatus.closed, posted=40, closed=50)]
    assert next_step(_round(), done, 60) == Next(Act.finish)
    assert next_step(_round(RoundStatus.finished), done, 60) == Next(Act.podium)
    assert next_step(_round(RoundStatus.stopped), done, 60) == Next(Act.podium)
    assert next_step(_round(RoundStatus.finished, podium=True), done, 60) == Next(Act.done)
    assert next_step(_round(RoundStatus.gone), done, 60) == Next(Act.done)  # no podium where it may not post


@pytest.mark.parametrize(("words", "request_"), [
    ([], Request(5, 20, "")), (["4q", "12s"], Request(4, 12, "")), (["12s", "4Q"], Request(4, 12, "")),
    (["推理", "10q"], Request(10, 20, "推理")), (["deep", "learning", "30q", "120s"], Request(30, 120, "deep learning")),
    (["1q", "10s"], Request(1, 10, ""))])
def test_arguments_in_any_order(words, request_):
    assert parse_args(words) == request_


@pytest.mark.parametrize("bad", ["0q", "31q", "9s", "121s", "5x", "12m"])
def test_a_wrong_argument_is_named(bad):
    with pytest.raises(BadArgument) as e:
        parse_args(["3q", bad])
    assert str(e.value) == bad
