"""The hiring view: one row per invited candidate (not per attempt), read once for `/report invites`'
CSV and the desk's Hiring page. A row has the score, the sections (only where the read rule shows
them: proctor/exams/visibility.py), the time used, the extra time given, the integrity signals of every attempt
on the invite and the invite's history (created, opened, each start and hand-in, revoked or
expired), each step with its time."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from dataclasses import dataclass
from datetime import tzinfo
from enum import StrEnum

from bank.csv_safety import safe_cell
from bank.store import ids_in, json_rows
from proctor.exams import integrity
from proctor.exams.ability import estimates
from proctor.exams.states import FinishReason
from proctor.exams.visibility import Fact, Lens
from proctor.integrity.signals import Signal, summary
from proctor.invites.states import InviteStatus
from proctor.invites.store import Invite
from proctor.local_time import iso
from proctor.ratings.shown import Shown
from proctor.storage.db import Database


class Event(StrEnum):
    created = "created"  # with the extra time given
    opened = "opened"  # the candidate's first open of the link: it is theirs
    started = "started"
    handed_in = "handed_in"  # with why (submitted, timeout, cancelled) and the score
    revoked = "revoked"
    expired = "expired"  # the window closed before a start (read from the window)


@dataclass(frozen=True, slots=True)
class Step:
    event: Event
    at: float
    extra_min: int = 0  # created: the extra time given
    reason: FinishReason | None = None  # handed in: submitted, timeout or cancelled
    score: float | None = None  # handed in: the attempt's score now
    max_score: float | None = None


@dataclass(frozen=True, slots=True)
class SectionScore:
    title: str
    score: float
    max_score: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """One invite and the candidate who holds it, with every attempt they made on it."""

    invite: Invite
    status: InviteStatus  # effective now
    paper: str  # "P3 title"
    name: str  # '' before anyone opened the link
    username: str
    score: float | None  # the latest attempt's, as it stands (a regrade moves it)
    max_score: float | None
    sections: tuple[SectionScore, ...] | None  # None: withheld (a hiring paper the team is not verified for)
    time_used: float | None  # seconds of the latest attempt (so far, while it runs)
    finish_reason: FinishReason | None
    pending_review: int
    signals: dict[Signal, int]  # summed over the invite's attempts
    history: tuple[Step, ...]  # oldest first
    ability: Shown | None = None  # the latest attempt's estimate on the paper (proctor/exams/ability.py);
    # None: none yet, or withheld where the read rule shows no per-question results

    @property
    def signal_count(self) -> int:
        return sum(self.signals.values())


async def candidates(db: Database, lens: Lens, now: float) -> list[Candidate]:
    """Team `lens.scope`'s invites (every team's for None), newest first, one row each. A paper's
    sections only where the read rule shows them to the lens's viewer: a hiring paper's to a configured
    admin or a team verified for it."""
    scope = lens.scope
    where, params = ("WHERE i.team_chat_id=?", [scope]) if scope is not None else ("", [])
    # an oracle on the keys: each section's score moving between sittings tells which answers are right
    shown, shown_params = f"i.paper_id IN ({ids_in(db.engine)})", [lens.papers_showing(Fact.section)]
    by_section = json_rows(db.engine, ["sec", "got", "top"], """FROM (
                      SELECT t.section AS sec, COALESCE(SUM(x.score), 0) AS got, SUM(t.points) AS top
                      FROM attempt_items t LEFT JOIN answers x ON x.attempt_id = t.attempt_id AND x.pos = t.pos
                      WHERE t.attempt_id = a.id GROUP BY t.section ORDER BY MIN(t.pos)) sections""")
    rows = await db.fetchall(
        f"""SELECT i.*, p.code || ' ' || p.title AS paper, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name,
                   u.username, a.score, a.max_score, a.finish_reason, a.started_at AS a_started,
                   a.finished_at AS a_finished,
                   (SELECT COUNT(*) FROM answers x WHERE x.attempt_id = a.id AND x.final = 0) AS pending,
                   CASE WHEN a.id IS NOT NULL AND {shown} THEN {by_section} END AS sections
            FROM invites i JOIN papers p ON p.id = i.paper_id LEFT JOIN users u ON u.id = i.candidate_id
            LEFT JOIN attempts a ON a.id = i.attempt_id {where}
            ORDER BY i.created_at DESC, i.id DESC""", [*shown_params, *params])
    sittings = await db.fetchall(
        f"""SELECT a.id, a.invite_id, a.started_at, a.finished_at, a.finish_reason, a.score, a.max_score
            FROM attempts a JOIN invites i ON i.id = a.invite_id {where} ORDER BY a.id""", params)
    by_invite: dict[int, list[sqlite3.Row]] = {}
    for s in sittings:
        by_invite.setdefault(s["invite_id"], []).append(s)
    signals = await integrity.counts(db, [s["id"] for s in sittings])
    # every candidate read against the same difficulties, at once; which answers were right moves an
    # estimate, so only where the lens shows per-question results
    abilities = await estimates(db, [r["attempt_id"] for r in rows
                                     if r["a_finished"] is not None and lens.of(r["paper_id"]).shows(Fact.result)])
    out = []
    for r in rows:
        inv = Invite.from_row(r)
        status = inv.status_at(now)
        mine = by_invite.get(inv.id, [])
        found: dict[Signal, int] = {}
        for s in mine:
            for code, n in signals.get(s["id"], {}).items():
                found[code] = found.get(code, 0) + n
        sections = None if r["sections"] is None and r["attempt_id"] is not None else tuple(
            SectionScore(t, float(g), float(m)) for t, g, m in json.loads(r["sections"] or "[]"))
        used = None if r["a_started"] is None else (r["a_finished"] or now) - r["a_started"]
        out.append(Candidate(
            inv, status, r["paper"], r["name"] or "", r["username"] or "", r["score"], r["max_score"], sections,
            used, _reason(r["finish_reason"]), r["pending"] or 0, found,
            _history(inv, r, mine, status), abilities.get(r["attempt_id"])))
    return out


def _reason(stored: str | None) -> FinishReason | None:
    """The stored finish reason; None for none, or for a value no release writes (the column is free
    text: `finish_attempt` takes a str), so that one odd row never stops the report."""
    try:
        return None if stored is None else FinishReason(stored)
    except ValueError:
        return None


def _history(inv: Invite, r: sqlite3.Row, sittings: list[sqlite3.Row], status: InviteStatus) -> tuple[Step, ...]:
    steps = [Step(Event.created, inv.created_at, extra_min=inv.extra_min)]
    if r["claimed_at"] is not None:
        steps.append(Step(Event.opened, r["claimed_at"]))
    for s in sittings:
        steps.append(Step(Event.started, s["started_at"]))
        if s["finished_at"] is not None:
            steps.append(Step(Event.handed_in, s["finished_at"], reason=_reason(s["finish_reason"]),
                              score=s["score"], max_score=s["max_score"]))
    if r["revoked_at"] is not None:
        steps.append(Step(Event.revoked, r["revoked_at"]))
    if status == InviteStatus.expired:
        steps.append(Step(Event.expired, inv.closes_at))
    return tuple(sorted(steps, key=lambda s: s.at))


# ---- the CSV ----------------------------------------------------------------------------------

def _num(x: float | None) -> str:
    return "" if x is None else f"{round(x, 2):g}"


def duration(seconds: float | None) -> str:
    """'1:02:05': hours, minutes and seconds (what a spreadsheet reads as a duration)."""
    if seconds is None:
        return ""
    s = max(0, int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _step(s: Step, tz: tzinfo) -> str:
    text = f"{s.event.value} {iso(s.at, tz)}"
    if s.event == Event.created and s.extra_min:
        text += f" +{s.extra_min}m"
    if s.event == Event.handed_in:
        text += f" {s.reason.value if s.reason else ''} {_num(s.score)}/{_num(s.max_score)}".rstrip("/")
    return text


HEADER = ["invite", "paper", "status", "candidate", "username", "created_at", "closes_at", "claimed_at",
          "started_at", "finished_at", "finish_reason", "extra_min", "attempts_used", "score", "max_score",
          "ability", "ability_low", "ability_high", "sections", "awaiting_review", "signals", "time_used", "signal_count", "history"]


def to_csv(rows: list[Candidate], tz: tzinfo) -> bytes:
    """The rows as CSV (UTF-8 with a BOM, times ISO 8601 in `tz` with its offset); text cells are made
    safe for spreadsheets.
    `sections` and `ability` (with its band's ends) are empty where they are withheld; `history` is its
    steps as `event time`, `; `-separated."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(HEADER)
    for c in rows:
        inv = c.invite
        sections = "; ".join(f"{s.title} {_num(s.score)}/{_num(s.max_score)}" for s in c.sections or ())
        w.writerow([inv.id, safe_cell(c.paper), c.status.value, safe_cell(c.name), safe_cell(c.username),
                    iso(inv.created_at, tz), iso(inv.closes_at, tz), iso(_at(c, Event.opened), tz),
                    iso(_last(c, Event.started), tz), iso(_last(c, Event.handed_in), tz),
                    c.finish_reason.value if c.finish_reason else "", inv.extra_min, inv.attempts_used,
                    _num(c.score), _num(c.max_score), *_ability(c.ability), safe_cell(sections), c.pending_review,
                    summary(c.signals), duration(c.time_used), c.signal_count, "; ".join(_step(s, tz) for s in c.history)])
    return out.getvalue().encode("utf-8-sig")


def _ability(s: Shown | None) -> tuple[str, str, str]:
    """The estimate and its band's ends; empty where there is none or it is withheld."""
    return ("", "", "") if s is None else (str(s.rating), str(s.low), str(s.high))


def _at(c: Candidate, event: Event) -> float | None:
    return next((s.at for s in c.history if s.event == event), None)


def _last(c: Candidate, event: Event) -> float | None:
    return next((s.at for s in reversed(c.history) if s.event == event), None)


async def hiring_csv(db: Database, lens: Lens, now: float, tz: tzinfo) -> tuple[bytes, int]:
    """`/report invites` and the desk's download: `candidates` as CSV (times in `tz`), and how many rows."""
    rows = await candidates(db, lens, now)
    return to_csv(rows, tz), len(rows)
