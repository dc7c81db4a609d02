"""The pacer's policy (bot/pacing.py Schedule) on the test's clock: 1 message a second per chat, 30 a
second overall, replies before bulk, a 429 holds only its chat, a chat not ready holds nobody up."""

from __future__ import annotations

import math

from bot.pacing import Pace, Priority, Schedule

TELEGRAM = Pace()


def drain(schedule: Schedule, start: float = 0.0, until: float = 1000.0) -> list[tuple[float, object]]:
    """Run the schedule on a clock that jumps to each next possible grant: (time, key) per grant."""
    now, sent = start, []
    while schedule.waiting() and now <= until:
        granted, soonest = schedule.grant(now)
        sent += [(now, key) for key in granted]
        if math.isinf(soonest):
            break
        now += soonest
    return sent


def busiest(times: list[float], window: float) -> int:
    return max(sum(1 for u in times if t <= u < t + window - 1e-9) for t in times)


def test_one_chat_gets_a_message_a_second_after_a_burst_of_two():
    schedule = Schedule(TELEGRAM, 0.0)
    for k in range(6):
        schedule.add(k, 42, Priority.reply)
    sent = drain(schedule)
    assert [key for _, key in sent] == list(range(6))  # in order
    times = [t for t, _ in sent]
    assert times[:2] == [0.0, 0.0]
    assert all(b - a >= 1 - 1e-9 for a, b in zip(times[1:], times[2:], strict=False))
    assert busiest(times, 1.0) <= 2


def test_a_group_gets_at_most_twenty_a_minute():
    schedule = Schedule(TELEGRAM, 0.0)
    for k in range(45):
        schedule.add(k, -100, Priority.reply)
    times = [t for t, _ in drain(schedule)]
    assert len(times) == 45 and busiest(times, 60.0) <= 20 + TELEGRAM.group_burst


def test_overall_thirty_a_second_across_many_chats_and_no_more():
    schedule = Schedule(TELEGRAM, 0.0)
    for chat in range(1, 301):
        schedule.add(chat, chat, Priority.bulk)
    times = [t for t, _ in drain(schedule)]
    assert len(times) == 300
    assert busiest(times, 1.0) <= 30 + TELEGRAM.burst  # the bucket's burst on top of its rate
    # and the budget is used: 300 messages in 10 s, not more (Telegram's own bound)
    assert times[-1] <= 300 / 30 + 0.1


def test_replies_go_before_bulk_and_bulk_leaves_them_a_token():
    schedule = Schedule(TELEGRAM, 0.0)
    for chat in range(1, 101):
        schedule.add(("card", chat), chat, Priority.bulk)
    first = drain(schedule, until=0.5)  # the burst of cards is under way
    assert first and all(key[0] == "card" for _, key in first)
    now = first[-1][0]
    schedule.add("reply", 500, Priority.reply)
    granted, _ = schedule.grant(now)  # at once: bulk kept a token for it
    assert granted == ["reply"]
    # with both waiting, every reply goes before the next card
    for k in range(5):
        schedule.add(("reply", k), 600 + k, Priority.reply)
    rest = drain(schedule, start=now)
    assert [key for _, key in rest[:5]] == [("reply", k) for k in range(5)]


def test_a_chat_that_must_wait_holds_nobody_up():
    schedule = Schedule(TELEGRAM, 0.0)
    for k in range(5):
        schedule.add(("lead", k), 7, Priority.bulk)  # a lead's cards, queued first
    for chat in range(100, 110):
        schedule.add(("candidate", chat), chat, Priority.bulk)
    sent = drain(schedule)
    lead = [t for t, key in sent if key[0] == "lead"]
    candidates = [t for t, key in sent if key[0] == "candidate"]
    assert max(candidates) < 1.0 < lead[-1]  # ten candidates in well under a second; the lead at 1/s


def test_a_429_holds_only_its_chat_until_its_retry_after():
    schedule = Schedule(TELEGRAM, 0.0)
    schedule.block(7, 5.0)
    schedule.add("held", 7, Priority.reply)
    for chat in range(100, 110):
        schedule.add(chat, chat, Priority.reply)
    sent = dict((key, t) for t, key in drain(schedule))
    assert sent["held"] >= 5.0
    assert all(sent[chat] < 1.0 for chat in range(100, 110))


def test_a_cancelled_wait_is_dropped():
    schedule = Schedule(TELEGRAM, 0.0)
    schedule.add("gone", 1, Priority.reply)
    schedule.add("kept", 2, Priority.reply)
    schedule.drop("gone")
    assert [key for _, key in drain(schedule)] == ["kept"]


def test_an_invites_welcome_waits_for_the_replies_and_goes_before_the_cards():
    schedule = Schedule(Pace(per_second=1, burst=3), 0.0)  # one a second: the order shows
    schedule.add("card", 1, Priority.bulk)
    schedule.add("welcome", 2, Priority.patient)
    schedule.add("next question", 3, Priority.reply)
    assert [key for _, key in drain(schedule)] == ["next question", "welcome", "card"]
