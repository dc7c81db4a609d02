"""Audit log: who did what, newest first, filterable by action and actor; a group's leads see
their team's entries only. Each entry reads as a sentence with names and local times
(desk/audit_words.py); the CSV keeps the raw detail beside it. An entry's details that are facts of
a paper (a confirmed key, a question's score) are read through the read rule (proctor.teams.audit.read):
where the lead's Lens does not show them, they read 🔒."""

from __future__ import annotations

import json

from aiohttp import web

from desk import params
from desk.audit_words import WITHHELD, action_words, entry_action, local_time, names_for, sentence
from desk.web import Lead, csv_response, ctx, lead_page, lens_of, render
from proctor.audit import AuditAction
from proctor.teams import audit

LIMIT = 500


async def _entries(request: web.Request, lead: Lead):
    scope, team = lead.access.scope(request.query.get("team"))
    action = params.audit_action(request.query)
    actor = params.optional_id(request.query, "actor")
    c = ctx(request)
    db = c.db
    entries = await audit.read(db, await lens_of(request, lead, scope), now=c.now(), action=action, actor=actor,
                               limit=LIMIT)
    names = await names_for(db, entries, ctx(request).default_zone)
    rows = [{"at": local_time(e.at, names, e.chat_id), "actor": names.users[e.actor_id], "actor_id": e.actor_id,
             "chat_id": e.chat_id, "team": names.teams.get(e.chat_id, "") if e.chat_id is not None else "",
             "action": e.action, "action_words": entry_action(e, lead.t), "what": sentence(e, names, lead.t),
             "target": e.target,
             "detail": json.dumps(e.detail | dict.fromkeys(e.withheld, WITHHELD), ensure_ascii=False)}
            for e in entries]
    return team, action or "", "" if actor is None else str(actor), rows


@lead_page
async def audit_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/audit?team=&action=&actor=."""
    team, action, actor, rows = await _entries(request, lead)
    return render(request, lead, "audit.html", {"team": team, "action": action, "actor": actor, "rows": rows,
                                                "actions": sorted(((a.value, action_words(a, lead.t)) for a in AuditAction),
                                                                  key=lambda a: a[1].casefold())})


@lead_page
async def audit_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    _, _, _, rows = await _entries(request, lead)
    keys = ["at", "actor_id", "actor", "chat_id", "team", "action", "what", "target", "detail"]
    return csv_response("audit.csv", keys, [[r[k] for k in keys] for r in rows])
