"""A lead's /invite: its words parsed (`<paper words…> [48h] [+15m] [@username] [2x] [notify]`), its
bounds checked and its paper found. A request that cannot be read raises BadInvite naming the
problem; the bot says it in the lead's language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bank.paper_list import paper_summaries, pick_paper
from proctor.errors import ProctorError
from proctor.storage.db import Database

DEFAULT_WINDOW = 72 * 3600.0
MAX_WINDOW = 60 * 86400.0
MAX_EXTRA_MIN = 24 * 60
MAX_COUNT = 500
MAX_ATTEMPTS = 20


class Problem(StrEnum):
    """What an invite request gets wrong."""
    duration = "duration"  # `text` is not a duration like 90m, 48h or 3d
    no_paper = "no_paper"  # no paper named
    window = "window"  # the window is longer than MAX_WINDOW
    extra = "extra"  # extra time over MAX_EXTRA_MIN
    attempts = "attempts"  # attempts outside 1 to MAX_ATTEMPTS
    batch = "batch"  # invites at once outside 1 to MAX_COUNT (not `count`: str has a method of that name)


class BadInvite(ProctorError):
    """An invite request could not be understood: `problem`, and `text` the words at fault."""

    def __init__(self, problem: Problem, text: str = ""):
        self.problem, self.text = problem, text
        super().__init__(f"{problem.value}: {text!r}" if text else problem.value)


_DURATION = re.compile(r"^(\d{1,4})([mhd])$")
_UNIT = {"m": 60, "h": 3600, "d": 86400}
_ATTEMPTS = re.compile(r"^(\d{1,2})x$")


def parse_duration(text: str) -> float:
    """'90m', '48h', '3d' in seconds. Raises BadInvite."""
    m = _DURATION.match(text.strip().lower())
    if not m or int(m.group(1)) == 0:
        raise BadInvite(Problem.duration, text)
    return int(m.group(1)) * _UNIT[m.group(2)]


@dataclass(frozen=True, slots=True)
class Request:
    paper: str
    window: float = DEFAULT_WINDOW
    extra_min: int = 0
    username: str | None = None
    notify: bool = False
    attempts: int = 1


def parse_request(args: list[str]) -> Request:
    """`<paper words…> [48h] [+15m] [@username] [2x] [notify]`. Raises BadInvite."""
    words: list[str] = []
    window, extra, username, notify, attempts = None, 0, None, False, 1
    for a in args:
        if words and (m := _ATTEMPTS.match(a.lower())):
            attempts = check_attempts(int(m.group(1)))
        elif a.startswith("@") and len(a) > 1:
            username = a[1:]
        elif a.startswith("+"):
            extra = int(parse_duration(a[1:]) // 60)
        elif a.lower() == "notify":
            notify = True
        elif _DURATION.match(a.lower()) and words:
            window = parse_duration(a)
        else:
            words.append(a)
    if not words:
        raise BadInvite(Problem.no_paper)
    return Request(" ".join(words), check_window(window or DEFAULT_WINDOW), check_extra(extra), username, notify,
                   attempts)


def check_window(seconds: float) -> float:
    if not 0 < seconds <= MAX_WINDOW:
        raise BadInvite(Problem.window)
    return seconds


def check_extra(minutes: int) -> int:
    if not 0 <= minutes <= MAX_EXTRA_MIN:
        raise BadInvite(Problem.extra)
    return minutes


def check_attempts(attempts: int) -> int:
    if not 1 <= attempts <= MAX_ATTEMPTS:
        raise BadInvite(Problem.attempts)
    return attempts


def check_count(count: int) -> int:
    if not 1 <= count <= MAX_COUNT:
        raise BadInvite(Problem.batch)
    return count


async def find_paper(db: Database, key: str) -> tuple[int, str]:
    """The paper an /invite names, as every command reads a paper (`bank.paper_list.pick_paper`: its
    code, slug, title or a unique part of it), among the papers with questions to ask (invite-only
    papers too, which /papers never lists). Returns (id, title). Raises NotFound, AmbiguousPaper."""
    paper = pick_paper([p for p in await paper_summaries(db, composed=True) if p.askable], key)
    return paper.id, paper.title
