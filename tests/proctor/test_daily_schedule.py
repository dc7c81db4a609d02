"""Next-fire, due-today and close-time decisions: pure, with zoneinfo, across DST changes."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from proctor.daily.schedule import (
    BadTime,
    BadTimezone,
    Schedule,
    closes_at,
    due_today,
    fire_at,
    next_fire,
    parse_hhmm,
    parse_timezone,
)

BERLIN = ZoneInfo("Europe/Berlin")
SHANGHAI = ZoneInfo("Asia/Shanghai")
NINE = time(9, 0)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize("after, expected", [
    # Shanghai has no DST: 09:00 is always 01:00 UTC
    (utc(2025, 3, 29, 12), utc(2025, 3, 30, 1)),
    (utc(2025, 3, 30, 0, 59), utc(2025, 3, 30, 1)),
    (utc(2025, 3, 30, 1), utc(2025, 3, 31, 1)),  # strictly after
])
def test_shanghai_nine_oclock(after, expected):
    assert next_fire(NINE, SHANGHAI, after) == expected


def test_berlin_nine_oclock_across_spring_forward():
    # 2025-03-30: clocks go 02:00 CET -> 03:00 CEST
    first = next_fire(NINE, BERLIN, utc(2025, 3, 29, 12))
    assert first == utc(2025, 3, 30, 7)  # 09:00 CEST
    before = next_fire(NINE, BERLIN, utc(2025, 3, 28, 12))
    assert before == utc(2025, 3, 29, 8)  # 09:00 CET
    assert first - before == timedelta(hours=23)
    for fire in (before, first):
        assert fire.astimezone(BERLIN).time() == NINE


def test_berlin_nine_oclock_across_fall_back():
    # 2025-10-26: clocks go 03:00 CEST -> 02:00 CET
    a = next_fire(NINE, BERLIN, utc(2025, 10, 25, 12))
    b = next_fire(NINE, BERLIN, a)
    assert a == utc(2025, 10, 26, 8)
    assert b == utc(2025, 10, 27, 8)
    assert a - next_fire(NINE, BERLIN, utc(2025, 10, 24, 12)) == timedelta(hours=25)


def test_time_in_the_spring_gap_fires_as_apscheduler_does():
    from apscheduler.triggers.cron import CronTrigger

    at = time(2, 30)
    ours = next_fire(at, BERLIN, utc(2025, 3, 29, 12))
    theirs = CronTrigger(hour=2, minute=30, timezone=BERLIN).get_next_fire_time(
        None, utc(2025, 3, 29, 12).astimezone(BERLIN))
    # a wall time inside the gap never compares equal across zones (PEP 495): compare instants
    assert ours.timestamp() == theirs.timestamp() == utc(2025, 3, 30, 1, 30).timestamp()


@pytest.mark.parametrize("tz", ["Europe/Berlin", "Asia/Shanghai", "America/New_York", "UTC"])
def test_next_fire_matches_apscheduler_cron_for_a_year(tz):
    from apscheduler.triggers.cron import CronTrigger

    zone = ZoneInfo(tz)
    trigger = CronTrigger(hour=9, minute=0, timezone=zone)
    ours = theirs = utc(2025, 1, 1)
    for _ in range(366):
        ours = next_fire(NINE, zone, ours)
        theirs = trigger.get_next_fire_time(None, theirs + timedelta(seconds=1))
        assert ours.timestamp() == theirs.timestamp()


def test_due_today_after_the_time_and_not_before():
    sch = Schedule(NINE, SHANGHAI)
    fire = fire_at(date(2025, 3, 30), NINE, SHANGHAI).timestamp()
    assert due_today(sch, fire - 1) is None
    assert due_today(sch, fire) == date(2025, 3, 30)
    assert due_today(sch, fire + 14 * 3600) == date(2025, 3, 30)  # back later the same day
    # after local midnight it is the next day, not yet due
    assert due_today(sch, fire + 15 * 3600 + 1) is None


def test_a_schedule_set_after_todays_time_first_fires_tomorrow():
    fire = fire_at(date(2025, 3, 30), NINE, SHANGHAI).timestamp()
    sch = Schedule(NINE, SHANGHAI, since=fire + 3600)
    assert due_today(sch, fire + 7200) is None
    assert due_today(sch, fire + 86400) == date(2025, 3, 31)


def test_close_is_an_hour_before_the_next_push_even_across_dst():
    sch = Schedule(NINE, BERLIN)
    day = date(2025, 3, 29)
    start = fire_at(day, NINE, BERLIN).timestamp()
    assert closes_at(sch, day, start) == utc(2025, 3, 30, 6).timestamp()  # 08:00 CEST


def test_close_after_minutes_counts_from_a_late_start():
    sch = Schedule(NINE, SHANGHAI, close_after_min=120)
    day = date(2025, 3, 30)
    fire = fire_at(day, NINE, SHANGHAI).timestamp()
    assert closes_at(sch, day, fire) == fire + 7200
    assert closes_at(sch, day, fire + 600) == fire + 600 + 7200


@pytest.mark.parametrize("text, expected", [("9:00", time(9)), ("09:30", time(9, 30)), ("21.05", time(21, 5)),
                                            ("07：15", time(7, 15))])
def test_parse_hhmm(text, expected):
    assert parse_hhmm(text) == expected


@pytest.mark.parametrize("text", ["24:00", "9", "9:60", "nine", ""])
def test_parse_hhmm_refuses(text):
    with pytest.raises(BadTime):
        parse_hhmm(text)


@pytest.mark.parametrize("name", ["Mars/Olympus", "../etc/passwd", "", "Europe/"])
def test_parse_timezone_refuses(name):
    with pytest.raises(BadTimezone):
        parse_timezone(name)
