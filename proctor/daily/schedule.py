"""When a chat's daily quiz fires and closes: pure functions of the schedule and `now`.

Local times are turned into instants with zoneinfo, so a 09:00 push stays at 09:00 on the wall
clock across a DST change. A time that does not exist on a spring-forward day (02:30 in Berlin)
fires at the instant that wall time would have had before the change (03:30 summer time), as
APScheduler's CronTrigger does; an ambiguous autumn time fires at its first occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

# re-exported for the daily code; their home is proctor/local_time.py
from proctor.local_time import BadTime as BadTime
from proctor.local_time import BadTimezone as BadTimezone
from proctor.local_time import looks_like_time as looks_like_time
from proctor.local_time import parse_hhmm as parse_hhmm
from proctor.local_time import parse_timezone as parse_timezone

DEFAULT_CLOSE_BEFORE_NEXT = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Schedule:
    at_time: time
    tz: ZoneInfo
    close_after_min: int | None = None  # None: one hour before the next push
    since: float = 0.0  # when the schedule was set: no fire before this instant is due


def fire_at(day: date, at_time: time, tz: ZoneInfo) -> datetime:
    """The instant (UTC) at which `at_time` on the wall clock of `tz` falls on `day`."""
    return datetime.combine(day, at_time, tzinfo=tz).astimezone(UTC)


def local_day(now: float, tz: ZoneInfo) -> date:
    return datetime.fromtimestamp(now, tz).date()


def next_fire(at_time: time, tz: ZoneInfo, after: datetime) -> datetime:
    """The first instant strictly after `after` at which the wall clock of `tz` reads `at_time`."""
    day = after.astimezone(tz).date() - timedelta(days=1)
    while True:
        candidate = fire_at(day, at_time, tz)
        if candidate > after:
            return candidate
        day += timedelta(days=1)


def due_today(schedule: Schedule, now: float) -> date | None:
    """Today's local date if today's push time has passed (and was set before it), else None.

    A bot that was down at the trigger time therefore still sends the day's quiz when it comes
    back the same day; a schedule set after today's time first fires tomorrow.
    """
    day = local_day(now, schedule.tz)
    fire = fire_at(day, schedule.at_time, schedule.tz).timestamp()
    if fire <= now and fire >= schedule.since:
        return day
    return None


def closes_at(schedule: Schedule, day: date, started: float) -> float:
    """When `day`'s quiz closes: close_after_min after it went out, or an hour before the next push.

    `started` is when the push actually began (a catch-up or /daily now may be later or earlier
    than the scheduled time); the result is always after it.
    """
    fire = fire_at(day, schedule.at_time, schedule.tz).timestamp()
    if schedule.close_after_min is not None:
        end = max(fire, started) + schedule.close_after_min * 60
    else:
        following = fire_at(day + timedelta(days=1), schedule.at_time, schedule.tz)
        end = (following - DEFAULT_CLOSE_BEFORE_NEXT).timestamp()
    return max(end, started + 60)
