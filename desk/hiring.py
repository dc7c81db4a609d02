"""Hiring: the teams a configured admin verified for hiring papers (exam-only or invite-only), verify
and undo (audited by proctor.hiring, as `proctor team verify|unverify`), and the teams holding
invites to hiring papers they are not verified for. Configured admins only."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from aiohttp import web

from bank.errors import NotFound
from bank.paper_list import find_paper
from desk import params
from desk.web import PREFIX, Lead, ctx, lead_page, refused, render
from proctor import hiring


class Change(StrEnum):
    verify = "verify"
    unverify = "unverify"


_DONE = {Change.verify: "d_hv_verified", Change.unverify: "d_hv_undone"}


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M")


@lead_page
async def hiring_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/hiring: who is verified for which hiring paper, and who holds invites unverified."""
    if not lead.access.admin:
        return refused(request, lead, "d_hv_admin_only")
    db = ctx(request).db
    done = request.query.get("done") or ""
    return render(request, lead, "hiring.html", {
        "verified": await hiring.listing(db), "papers": await hiring.hiring_papers(db),
        "teams": lead.access.teams, "unverified": await hiring.unverified_invites(db), "day": _day,
        "notice": lead.t(done) if done in _DONE.values() else ""})


@lead_page
async def change(request: web.Request, lead: Lead) -> web.StreamResponse:
    """POST /desk/hiring: verify a team for one hiring paper (or every one), or undo it."""
    if not lead.access.admin:
        return refused(request, lead, "d_hv_admin_only")
    form = await request.post()
    try:
        action = Change(params.text(form, "action") or "")
    except ValueError:
        raise web.HTTPBadRequest(text="action: verify or unverify") from None
    if (chat_id := params.chat_id(params.text(form, "team") or "")) is None:  # bounded: SQLite's 64 bits
        raise web.HTTPBadRequest(text="team: a chat id")
    c = ctx(request)
    key = params.text(form, "paper") or ""
    try:
        papers = None if key in ("", "all") else [(await find_paper(c.db, key)).id]
    except NotFound:
        raise web.HTTPNotFound(text="no such paper") from None
    try:
        match action:
            case Change.verify:
                await hiring.verify(c.db, chat_id, papers, actor=lead.session.user_id, now=c.now())
            case Change.unverify:
                await hiring.unverify(c.db, chat_id, papers, actor=lead.session.user_id, now=c.now())
    except hiring.BadTeam:
        raise web.HTTPBadRequest(text="team: a group's chat id (negative)") from None
    raise web.HTTPSeeOther(f"{PREFIX}/hiring?done={_DONE[action]}")
