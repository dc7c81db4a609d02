"""Audit log: who did what, newest first, filterable by action and actor; a group's leads see
their team's entries only."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from aiohttp import web

from desk import params
from desk.web import Lead, csv_response, ctx, lead_page, render
from proctor.people.users import find_prefs
from proctor.teams import audit

LIMIT = 500


async def _entries(request: web.Request, lead: Lead):
    scope, team = lead.access.scope(request.query.get("team"))
    action = request.query.get("action") or None
    actor = params.optional_id(request.query, "actor")
    db = ctx(request).db
    entries = await audit.recent(db, chat_id=scope, action=action, actor=actor, limit=LIMIT)
    names = {}
    for uid in {e.actor_id for e in entries}:
        prefs = await find_prefs(db, uid)
        names[uid] = prefs.first_name if prefs and prefs.first_name else str(uid)
    rows = [{"at": datetime.fromtimestamp(e.at, UTC).strftime("%Y-%m-%d %H:%M:%S"), "actor": names[e.actor_id],
             "actor_id": e.actor_id, "chat_id": e.chat_id, "action": e.action, "target": e.target,
             "detail": json.dumps(e.detail, ensure_ascii=False)} for e in entries]
    return team, action or "", "" if actor is None else str(actor), rows


@lead_page
async def audit_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/audit?team=&action=&actor=."""
    team, action, actor, rows = await _entries(request, lead)
    return render(request, lead, "audit.html", {"team": team, "action": action, "actor": actor, "rows": rows})


@lead_page
async def audit_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    _, _, _, rows = await _entries(request, lead)
    keys = ["at", "actor_id", "actor", "chat_id", "action", "target", "detail"]
    return csv_response("audit.csv", keys, [[r[k] for k in keys] for r in rows])
