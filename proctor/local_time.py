"""The one home of wall-clock time, read and written. Read: a time of day ("21:30", "21.30", "9h05",
"21：30") and an IANA time zone; `/daily on`, `/digest`, the settings (PROCTOR_DAILY_TIME,
PROCTOR_TIMEZONE) and the leaderboards all read them here, so one spelling is accepted or refused the
same everywhere. Written: a moment as every screen, card, page and command line shows it (`moment`,
`time_of_day`, in the reader's zone or the group's: bot/voice.py `zone_for`) and as every CSV cell
holds it (`iso`: ISO 8601 with its offset, so a spreadsheet in any zone reads the same moment)."""

from __future__ import annotations

import re
from datetime import datetime, time, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from proctor.errors import ProctorError

_HHMM = re.compile(r"^([01]?\d|2[0-3])[:：.h]([0-5]\d)$")


class BadTime(ProctorError):
    """A time of day that is not HH:MM."""


class BadTimezone(ProctorError):
    """A time zone name that is not a known IANA zone (Area/City)."""


def parse_hhmm(text: str) -> time:
    """'9:00', '09:00', '21.30', '9h05' or '21：30' as a time of day. Raises BadTime."""
    m = _HHMM.match(text.strip())
    if not m:
        raise BadTime(text)
    return time(int(m.group(1)), int(m.group(2)))


def looks_like_time(text: str) -> bool:
    return bool(_HHMM.match(text.strip()))


def parse_timezone(name: str) -> ZoneInfo:
    """An IANA zone such as 'Asia/Shanghai' or 'UTC'. Raises BadTimezone."""
    name = name.strip()
    if not name or ".." in name or name.startswith("/"):
        raise BadTimezone(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as e:
        raise BadTimezone(name) from e


def zone(name: str | None, fallback: str = "UTC") -> ZoneInfo:
    """The zone `name`, else `fallback`, else UTC: for stored names that may have gone stale."""
    for candidate in (name, fallback, "UTC"):
        if candidate:
            try:
                return parse_timezone(candidate)
            except BadTimezone:
                continue
    return ZoneInfo("UTC")


def moment(ts: float | datetime, tz: tzinfo) -> str:
    """"2027-01-15 17:30 CST": a moment as a reader reads it, in `tz`, the zone named."""
    dt = ts if isinstance(ts, datetime) else datetime.fromtimestamp(ts, tz)
    return dt.astimezone(tz).strftime("%Y-%m-%d %H:%M %Z")


def time_of_day(ts: float, tz: tzinfo) -> str:
    """"17:30:05 CST": a moment within a day the screen has named already, to the second."""
    return datetime.fromtimestamp(ts, tz).strftime("%H:%M:%S %Z")


def iso(ts: float | None, tz: tzinfo) -> str:
    """"2027-01-15T17:30:05+08:00": a CSV cell's moment, ISO 8601 with its offset ('' for none)."""
    return "" if ts is None else datetime.fromtimestamp(ts, tz).isoformat(timespec="seconds")
