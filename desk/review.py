"""Review queue: written answers awaiting review, oldest first, scored with the domain's review
function (the chat's /review rules: team scope, hiring papers for configured admins, nobody
scores their own answers); the candidate is told in the chat as /review tells them."""

from __future__ import annotations

from aiohttp import web

from bank.errors import NotFound
from desk import params
from desk.web import PREFIX, Lead, ctx, lead_page, lens_of, render
from proctor.teams import review as reviews


def _team_param(team) -> str:
    return "all" if team is None else str(team.chat_id)


async def _show(request: web.Request, lead: Lead, scope, team, skip: int, notice: str = "",
                status: int = 200) -> web.StreamResponse:
    db = ctx(request).db
    await ctx(request).bridge.check_roster(scope)  # members still in the group (consent.py)
    seen_by = await lens_of(request, lead, scope)
    pending = await reviews.next_pending(db, seen_by, skip=skip, now=ctx(request).now())
    steps = reviews.score_steps(pending.max_score) if pending else []
    # hiring papers the team is not verified for: their answers wait for a configured admin
    withheld = [] if pending else [f"“{p}”" for p in await reviews.withheld_papers(db, seen_by)]
    return render(request, lead, "review.html", {
        "team": team, "team_param": _team_param(team), "pending": pending, "skip": skip, "withheld": withheld,
        "steps": steps, "notice": notice,
        "prev": (skip - 1) % pending.remaining if pending else 0,
        "next": (skip + 1) % pending.remaining if pending else 0}, status=status)


@lead_page
async def queue(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/review?team=&skip=: one pending answer, with next / previous."""
    scope, team = lead.access.scope(request.query.get("team"))
    notice = lead.t("d_rv_saved") if request.query.get("saved") else ""
    return await _show(request, lead, scope, team, params.count(request.query, "skip"), notice)


@lead_page
async def score(request: web.Request, lead: Lead) -> web.StreamResponse:
    """POST /desk/review: make one answer's score final, tell the candidate, show the next."""
    form = await request.post()
    scope, team = lead.access.scope(params.text(form, "team"))
    attempt_id, pos = params.row_id(form, "attempt"), params.count(form, "pos")
    skip = params.count(form, "skip")
    value = params.number(form, "score")
    c = ctx(request)
    await c.bridge.check_roster(scope)
    try:
        outcome = await reviews.set_final(c.db, attempt_id, pos, value, viewer=lead.viewer, scope=scope,
                                          now=c.now())
    except reviews.SelfReview:
        return await _show(request, lead, scope, team, skip, lead.t("d_rv_own"), status=403)
    except reviews.OutOfScope:
        return await _show(request, lead, scope, team, skip, lead.t("d_not_your_team"), status=403)
    except reviews.AlreadyReviewed:
        return await _show(request, lead, scope, team, 0, lead.t("d_rv_already"))
    except NotFound:
        return await _show(request, lead, scope, team, 0, lead.t("d_rv_gone"))
    except reviews.BadScore:
        return await _show(request, lead, scope, team, skip, lead.t("d_rv_bad_score"), status=400)
    c.bridge.notify_reviewed(outcome)  # the notice was queued with the score; the outbox delivers it
    raise web.HTTPSeeOther(f"{PREFIX}/review?team={_team_param(team)}&skip={skip}&saved=1")
