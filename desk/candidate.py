"""Candidate page: every finished attempt with per-section scores, time used, a per-question grid
and the answers one by one (a choice answer in the letters the candidate saw, with the options' texts), and the disputes they raised; printable. A group's leads see their
team's members; configured admins see everyone. What of it is shown is the read rule's (the lead's
Lens, asked at each request): a hiring paper's sittings only to the configured admins and the teams
verified for it; a similar answer's other candidate named, with their answer, only when the team
may read their record."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bank.csv_safety import file_stem
from bank.question_ref import question_refs
from desk import params
from desk.access import Refused
from desk.web import Lead, csv_response, ctx, lead_page, lens_of, render
from proctor.chats import chat_zone
from proctor.exams.integrity import Evidence
from proctor.exams.visibility import Lens
from proctor.integrity.signals import Signal
from proctor.local_time import iso, moment, time_of_day
from proctor.people.users import find_prefs
from proctor.storage.db import Database
from proctor.teams import candidate as record
from proctor.teams.consent import seen_since
from proctor.teams.roster import display_name


def _clock(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


async def _record(request: web.Request, lead: Lead):
    """(team, user id, name, scope, since) of the request's candidate, if the lead may see them;
    `since`: a team sees what the member did from joining its roster on (None: everything)."""
    scope, team = lead.access.scope(request.query.get("team"))
    user_id = params.row_id(request.query, "user")
    db = ctx(request).db
    since = None
    if scope is not None:
        await ctx(request).bridge.check_roster(scope)  # still in the group? (consent.py)
        since = await seen_since(db, scope, user_id)
        if since is None:
            raise Refused("not on the team")
        name = await display_name(db, user_id)
    else:
        prefs = await find_prefs(db, user_id)
        if prefs is None:
            raise web.HTTPNotFound(text="no such user")
        name = prefs.first_name
    return team, user_id, name, scope, since


@lead_page
async def candidate_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/candidate?team=&user=."""
    team, user_id, name, scope, since = await _record(request, lead)
    db = ctx(request).db
    lens = await lens_of(request, lead, scope)
    attempts = await record.attempts(db, user_id, lens, since=since)
    disputes = await record.raised_disputes(db, user_id, lens, since=since)
    signals = await _signals(db, lens, [a.id for a in attempts])
    refs = await question_refs(db, [c.question_id for a in attempts for c in a.cells]
                               + [d.question_id for d in disputes]
                               + [q for shown in signals.values() for s in shown if (q := s.evidence.question_id) is not None])
    tz = await chat_zone(db, scope, ctx(request).default_zone)  # the team's, else the desk's default
    return render(request, lead, "candidate.html", {
        "team": team, "user_id": user_id, "name": name or str(user_id), "attempts": attempts,
        "disputes": disputes, "clock": _clock, "day": lambda ts: moment(ts, tz),
        "time": lambda ts: "" if ts is None else time_of_day(ts, tz), "signals": signals,
        "Signal": Signal, "refs": refs})


async def _signals(db: Database, lens: Lens, attempt_ids: list[int]) -> dict[int, list[Shown]]:
    """Each attempt's integrity signals with their evidence; the other candidate of a similar answer
    is named only when the lead may read their record (proctor.teams.candidate.evidence)."""
    out: dict[int, list[Shown]] = {}
    names: dict[int, str] = {}
    for attempt_id, found in (await record.evidence(db, lens, attempt_ids)).items():
        for e in found:
            other = e.other_user_id
            if other is not None and other not in names:
                names[other] = await display_name(db, other) or str(other)
            out.setdefault(attempt_id, []).append(Shown(e, names.get(other) if other is not None else None))
    return out


@dataclass(frozen=True)
class Shown:
    """A signal as the page shows it: the evidence, and the other candidate's name if the lead may see it."""
    evidence: Evidence
    other_name: str | None


@lead_page
async def candidate_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/candidate.csv?team=&user=[&table=disputes]: every answer of every attempt, or the disputes."""
    _, user_id, name, scope, since = await _record(request, lead)
    who = file_stem(name, "candidate")
    db = ctx(request).db
    lens = await lens_of(request, lead, scope)
    tz = await chat_zone(db, scope, ctx(request).default_zone)
    if request.query.get("table") == "disputes":
        return csv_response(f"disputes-{who}.csv", ["dispute", "question_id", "reason", "status", "raised_at"],
                            [[d.id, d.question_id, d.reason, d.status, iso(d.created_at, tz)]
                             for d in await record.raised_disputes(db, user_id, lens, since=since)])
    return csv_response(f"answers-{who}.csv",
                        ["attempt", "title", "mode", "finished_at", "seconds", "pos", "question_id", "section",
                         "state", "score", "max_score", "response"],
                        [[a.id, a.title, a.mode, iso(a.finished_at, tz), round(a.seconds), c.pos + 1, c.question_id,
                          c.section, c.state, c.score, c.max_score, lead.seen(c.seen) if c.seen else c.response]
                         for a in await record.attempts(db, user_id, lens, since=since)
                         for c in a.cells])

