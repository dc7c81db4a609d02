"""Hiring: every lead's invited candidates, one row each (the same read as `/report invites`, and
its CSV), and, for configured admins, the teams verified for hiring papers (exam-only or
invite-only), verify and undo (audited by proctor.hiring, as `proctor team verify|unverify`), and
the teams holding invites to hiring papers they are not verified for. A row's sections are shown
where the lead's Lens shows the paper's sections, its ability estimate where it shows per-question
results (the read rule, asked at each request)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from zoneinfo import ZoneInfo

from aiohttp import web

from bank.csv_safety import file_stem
from bank.errors import NotFound
from bank.paper_list import find_paper
from bank.section_names import short_section
from desk import params
from desk.web import PREFIX, Lead, attachment, ctx, lead_page, lens_of, refused, render
from proctor import hiring
from proctor.audit import AuditAction
from proctor.chats import chat_zone
from proctor.exams.states import FinishReason
from proctor.integrity.signals import Signal
from proctor.invites_report import Candidate, Event, Step, candidates, duration, hiring_csv
from proctor.local_time import moment
from proctor.teams import audit


class Change(StrEnum):
    verify = "verify"
    unverify = "unverify"


_DONE = {Change.verify: "d_hv_verified", Change.unverify: "d_hv_undone"}


def _pts(x: float | None) -> str:
    return "" if x is None else f"{round(x, 2):g}"


@dataclass(frozen=True)
class Row:
    """A candidate as the page shows it: texts in the lead's language, times in the team's zone."""

    candidate: Candidate
    status: str
    score: str
    sections: list[str] | None  # None: withheld
    time_used: str
    extra: str
    signals: str
    history: list[str]
    ability: str  # the estimate on the paper with its band; '' where there is none or it is withheld


def _step(s: Step, lead: Lead, tz: ZoneInfo) -> str:
    at = moment(s.at, tz)
    match s.event:
        case Event.created if s.extra_min:
            what = lead.t("d_hv_ev_created_extra", minutes=s.extra_min)
        case Event.handed_in if s.reason == FinishReason.timeout:
            what = lead.t("d_hv_ev_timeout", score=_pts(s.score), max=_pts(s.max_score))
        case Event.handed_in if s.reason == FinishReason.cancelled:
            what = lead.t("d_hv_ev_cancelled")
        case Event.handed_in:
            what = lead.t("d_hv_ev_handed_in", score=_pts(s.score), max=_pts(s.max_score))
        case _:
            what = lead.t(f"d_hv_ev_{s.event.value}")
    return f"{at} {what}"


def shown(c: Candidate, lead: Lead, tz: ZoneInfo) -> Row:
    score = "" if c.score is None else f"{_pts(c.score)}/{_pts(c.max_score)}"
    sections = None if c.sections is None else [f"{short_section(s.title)} {_pts(s.score)}/{_pts(s.max_score)}"
                                                 for s in c.sections]
    signals = ", ".join(lead.t(f"sig_{code.value}", n=c.signals[code]) for code in Signal if c.signals.get(code))
    return Row(c, lead.t(f"iv_status_{c.status.value}"), score, sections, duration(c.time_used),
               lead.t("d_hv_extra", minutes=c.invite.extra_min) if c.invite.extra_min else "",
               f"{c.signal_count} · {signals}" if c.signal_count else "0",
               [_step(s, lead, tz) for s in c.history],
               "" if c.ability is None else lead.t("rt_band", rating=c.ability.rating, low=c.ability.low,
                                                   high=c.ability.high))


async def _candidates(request: web.Request, lead: Lead, scope: int | None) -> list[Candidate]:
    """The team's invited candidates (every team's for scope None), with their sections where the lead's
    Lens shows the paper's sections."""
    c = ctx(request)
    return await candidates(c.db, await lens_of(request, lead, scope), c.now())


async def _scope(request: web.Request, lead: Lead):
    """(scope, team, its zone): the team the request names (every team: configured admins)."""
    scope, team = lead.access.scope(request.query.get("team"))
    c = ctx(request)
    tz = await chat_zone(c.db, scope, c.default_zone)  # the team's, else the desk's default (every team)
    return scope, team, tz


@lead_page
async def hiring_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/hiring?team=: the team's invited candidates; for configured admins also who is
    verified for which hiring paper, and who holds invites unverified."""
    scope, team, tz = await _scope(request, lead)
    c = ctx(request)
    db = c.db
    rows = [shown(x, lead, tz) for x in await _candidates(request, lead, scope)]
    page = {"team": team, "allow_all": True, "rows": rows, "zone": tz.key,
            "csv": f"{PREFIX}/hiring.csv?team={'all' if scope is None else scope}"}
    if lead.access.admin:
        done = request.query.get("done") or ""
        page |= {"verified": await hiring.listing(db), "papers": await hiring.hiring_papers(db),
                 "teams": lead.access.teams, "unverified": await hiring.unverified_invites(db),
                 "day": lambda ts: moment(ts, tz),
                 "notice": lead.t(done) if done in _DONE.values() else ""}
    return render(request, lead, "hiring.html", page)


@lead_page
async def hiring_csv_download(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/hiring.csv?team=: the same rows as `/report invites` sends (audited as that report)."""
    scope, team, tz = await _scope(request, lead)
    c = ctx(request)
    data, n = await hiring_csv(c.db, await lens_of(request, lead, scope), c.now(), tz)
    await audit.log(c.db, at=c.now(), actor=lead.session.user_id, chat_id=scope, action=AuditAction.report, target="invites",
                    rows=n)
    name = f"invites-{'all' if team is None else file_stem(team.title)}.csv"
    return web.Response(body=data, content_type="text/csv", charset="utf-8",
                        headers={"Content-Disposition": attachment(name)})


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
