"""A paper's settings: time limit, attempts allowed, grading method, multi-choice policy, exam-only, shuffle,
invite-only, what a candidate sees at the end (review) and the integrity signals' thresholds."""

from __future__ import annotations

import sqlite3
from typing import Any

from bank import kinds
from bank.errors import BankError, NotFound
from bank.kinds import MultiPolicy, ReviewOption
from bank.store import Store


class BadSetting(BankError):
    """A setting's value is out of range."""


_COLUMNS = {
    "time_limit_min": "time_limit_min", "attempts_allowed": "attempts_allowed",
    "grading_method": "grading_method", "multi_policy": "multi_policy",
    "exam_only": "exam_only", "shuffle_options": "shuffle_options",
    "invite_only": "invite_only", "review": "review", "pass_percent": "pass_percent",
    "signals": "signals", "signal_similar": "signal_similar", "signal_fast": "signal_fast",
    "signal_late": "signal_late", "signal_quick": "signal_quick",
}


def check_settings(changes: dict[str, Any]) -> dict[str, Any]:
    """The changes as stored (the values as a command line or a form gave them: checked here)."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in _COLUMNS:
            raise BadSetting(f"unknown setting {name!r}")
        if name == "time_limit_min" and not (isinstance(value, int) and 1 <= value <= 24 * 60):
            raise BadSetting("the time limit is a whole number of minutes, 1 to 1440")
        if name == "attempts_allowed" and value is not None and not (isinstance(value, int) and value >= 1):
            raise BadSetting("attempts allowed is a number from 1, or unlimited")
        if name == "grading_method" and value not in ("best", "last"):
            raise BadSetting("the grading method is best or last")
        if name == "multi_policy":
            try:
                value = MultiPolicy(value).value
            except ValueError:
                raise BadSetting("the multiple-choice policy is all-or-nothing, partial or weighted") from None
        if name in ("exam_only", "shuffle_options"):
            value = int(bool(value))
        if name == "invite_only":
            value = int(bool(value))
        if name == "review":
            try:
                value = ReviewOption(value).value
            except ValueError:
                raise BadSetting("review is score, sections, full or none") from None
        if name == "pass_percent" and value is not None and not (
                isinstance(value, int | float) and 0 < value <= 100):
            raise BadSetting("the pass mark is a percentage above 0 and up to 100, or off")
        if name == "signals":
            value = int(bool(value))
        if name == "signal_similar" and not (isinstance(value, int | float) and 50 <= value <= 100):
            raise BadSetting("the similarity threshold is a percentage from 50 to 100")
        if name in ("signal_fast", "signal_late") and not (isinstance(value, int) and 1 <= value <= 1000):
            raise BadSetting("a signal's count is a whole number from 1")
        if name == "signal_quick" and not (isinstance(value, int | float) and 0 < value < 100):
            raise BadSetting("the quick hand-in threshold is a percentage of the median, above 0 and below 100")
        out[name] = value
    if out.get("invite_only"):  # invite-only implies exam-only
        out["exam_only"] = 1
    elif out.get("exam_only") == 0 and "invite_only" not in out:
        out["invite_only"] = 0  # exam-only off: no longer invite-only either
    return out


def write_settings_in(conn: sqlite3.Connection, paper_id: int, checked: dict[str, Any]) -> None:
    """Write settings `check_settings` returned, inside the caller's write transaction: the bank's
    part of THE writer of a paper's settings, proctor.teams.curation.write_settings (audited).
    Raises NotFound."""
    sets = ", ".join(f"{_COLUMNS[k]}=?" for k in checked)
    cur = conn.execute(f"UPDATE papers SET {sets} WHERE id=?", (*checked.values(), paper_id))
    if cur.rowcount != 1:
        raise NotFound(f"no paper {paper_id}")


def pass_mark_in(conn: sqlite3.Connection, paper_id: int | None) -> float | None:
    """The paper's pass mark in percent, or None (no pass mark; a mock paper has none), on the database
    thread."""
    if paper_id is None:
        return None
    row = conn.execute("SELECT pass_percent FROM papers WHERE id=?", (paper_id,)).fetchone()
    percent: float | None = None if row is None else row[0]
    return percent


async def review_option(db: Store, paper_id: int | None) -> ReviewOption:
    """What a candidate sees at the end of an attempt on the paper (a mock paper: everything)."""
    if paper_id is None:
        return ReviewOption.full
    return await db.run(lambda conn: review_option_in(conn, paper_id))


def review_option_in(conn: sqlite3.Connection, paper_id: int | None) -> ReviewOption:
    """`review_option` on the database thread."""
    if paper_id is None:
        return ReviewOption.full
    row = conn.execute("SELECT (exam_only <> 0 OR invite_only <> 0) AS hiring, review FROM papers WHERE id=?",
                       (paper_id,)).fetchone()
    if row is None:
        return ReviewOption.full
    return kinds.review_option(bool(row["hiring"]), row["review"])


async def is_invite_only(db: Store, paper_id: int) -> bool:
    return bool(await db.scalar("SELECT invite_only FROM papers WHERE id=?", (paper_id,)))


_POLICY_BY_PAPER = "SELECT multi_policy FROM papers WHERE id=?"
_POLICY_BY_QUESTION = "SELECT p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id WHERE q.id=?"


def policy_of(value: str | None) -> MultiPolicy:
    """A stored multiple-choice policy as the enum; none (a mock paper, an unknown paper) or a value
    no longer known: partial."""
    try:
        return MultiPolicy(value) if value else MultiPolicy.partial
    except ValueError:
        return MultiPolicy.partial


def read_multi_policy(conn: sqlite3.Connection, *, paper_id: int | None = None,
                      question_id: int | None = None) -> MultiPolicy:
    """The one lookup of a paper's multiple-choice scoring rule, by paper or by one of its questions
    (exam and daily quiz alike), inside the step's transaction; partial with neither (a mock paper)
    or for an unknown one."""
    if paper_id is None and question_id is None:
        return MultiPolicy.partial
    row = conn.execute(*((_POLICY_BY_PAPER, (paper_id,)) if paper_id is not None
                         else (_POLICY_BY_QUESTION, (question_id,)))).fetchone()
    return policy_of(row[0] if row else None)

