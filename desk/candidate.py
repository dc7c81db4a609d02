"""Candidate page: every finished attempt with per-section scores, time used, a per-question grid
and the answers one by one, and the disputes they raised; printable. A group's leads see their
team's members (not hiring papers); configured admins see everyone."""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp import web

from desk import params
from desk.access import Refused
from desk.web import Lead, csv_response, ctx, lead_page, render
from proctor.people.users import find_prefs
from proctor.teams import candidate as record
from proctor.teams.reports import team_members


def _clock(seconds: float) -> str:
    s = max(0, int(round(seconds)))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


async def _record(request: web.Request, lead: Lead):
    """(team, user id, name, scope) of the request's candidate, if the lead may see them."""
    scope, team = lead.access.scope(request.query.get("team"))
    user_id = params.row_id(request.query, "user")
    db = ctx(request).db
    if scope is not None:
        members = dict(await team_members(db, scope))
        if user_id not in members:
            raise Refused("not on the team")
        name = members[user_id]
    else:
        prefs = await find_prefs(db, user_id)
        if prefs is None:
            raise web.HTTPNotFound(text="no such user")
        name = prefs.first_name
    return team, user_id, name, scope


@lead_page
async def candidate_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/candidate?team=&user=."""
    team, user_id, name, scope = await _record(request, lead)
    db = ctx(request).db
    attempts = await record.attempts(db, user_id, with_exam_only=scope is None)
    return render(request, lead, "candidate.html", {
        "team": team, "user_id": user_id, "name": name or str(user_id), "attempts": attempts,
        "disputes": await record.raised_disputes(db, user_id), "clock": _clock,
        "day": _day})


@lead_page
async def candidate_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/candidate.csv?team=&user=[&table=disputes]: every answer of every attempt, or the disputes."""
    _, user_id, _, scope = await _record(request, lead)
    db = ctx(request).db
    if request.query.get("table") == "disputes":
        return csv_response(f"disputes-{user_id}.csv", ["dispute", "question_id", "reason", "status", "raised_at"],
                            [[d.id, d.question_id, d.reason, d.status, _day(d.created_at)]
                             for d in await record.raised_disputes(db, user_id)])
    return csv_response(f"answers-{user_id}.csv",
                        ["attempt", "title", "mode", "finished_at", "seconds", "pos", "question_id", "section",
                         "state", "score", "max_score", "response"],
                        [[a.id, a.title, a.mode, _day(a.finished_at), round(a.seconds), c.pos + 1, c.question_id,
                          c.section, c.state, c.score, c.max_score, c.response]
                         for a in await record.attempts(db, user_id, with_exam_only=scope is None) for c in a.cells])


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M")
