"""Items: difficulty and discrimination per question with the import lint's flags, sortable;
retire / restore, a paper's exam-only switch and open disputes (uphold / dismiss) for configured
admins, audited by the same domain functions as /bankstats' buttons and /examonly. The bank is
shared: group administrators only look."""

from __future__ import annotations

from urllib.parse import urlencode

from aiohttp import web

from bank.errors import NotFound
from bank.item_stats import find_paper, is_exam_only, item_stats, set_retired
from bank.paper_settings import is_invite_only, set_exam_only, write_settings
from desk.web import PREFIX, Lead, csv_response, ctx, form_text, lead_page, render
from proctor.teams import disputes as dsp


async def _stats(request: web.Request):
    """(paper key, paper id or None, the statistics)."""
    db = ctx(request).db
    paper = request.query.get("paper") or ""
    paper_id = None
    if paper:
        try:
            paper_id, _, _ = await find_paper(db, paper)
        except NotFound:
            raise web.HTTPNotFound(text="no such paper") from None
    return paper, paper_id, await item_stats(db, paper_id)


@lead_page
async def items_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/items?paper=: every question's statistics, and the open disputes."""
    scope, _ = lead.access.scope(request.query.get("team"))  # a lead of some team; refused otherwise
    paper, paper_id, stats = await _stats(request)
    db = ctx(request).db
    disputes = await dsp.open_disputes(db, scope, limit=100)  # raised by that team's roster
    notice = lead.t(request.query["done"]) if request.query.get("done") in _NOTICES else ""
    exam_only = None if paper_id is None else await is_exam_only(db, paper_id)
    invite_only = paper_id is not None and await is_invite_only(db, paper_id)
    return render(request, lead, "items.html", {"paper": paper, "paper_id": paper_id, "exam_only": exam_only,
                                                 "invite_only": invite_only,
                                                 "stats": stats, "disputes": disputes,
                                                 "can_curate": lead.access.admin, "notice": notice})


@lead_page
async def items_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    lead.access.scope(request.query.get("team"))
    _, _, stats = await _stats(request)
    return csv_response("items.csv", ["question_id", "paper", "section", "number", "responses", "difficulty",
                                      "discrimination", "flags", "retired"],
                        [[s.question_id, s.paper, s.section, s.number, s.responses, s.difficulty,
                          s.discrimination, " ".join(s.flags), int(s.retired)] for s in stats])


_NOTICES = ("d_it_retired", "d_it_restored", "d_it_upheld", "d_it_dismissed", "d_it_exam_only_on",
            "d_it_exam_only_off", "d_it_invite_only_on", "d_it_invite_only_off")


@lead_page
async def curate(request: web.Request, lead: Lead) -> web.StreamResponse:
    """POST /desk/items: retire, restore, uphold, dismiss, exam-only and invite-only on / off (configured admins only)."""
    if not lead.access.admin:
        return render(request, lead, "refused.html", {"message": lead.t("d_bank_admin_only")}, status=403)
    form = await request.post()
    action, c = form.get("action"), ctx(request)
    try:
        target = int(form_text(form, "target") or "")
    except ValueError:
        raise web.HTTPBadRequest(text="target: an id") from None
    try:
        if action in ("retire", "restore"):
            await set_retired(c.db, target, action == "retire", lead=lead.session.user_id, chat_id=None,
                              now=c.now())
            done = "d_it_retired" if action == "retire" else "d_it_restored"
        elif action in ("uphold", "dismiss"):
            await dsp.resolve(c.db, target, upheld=action == "uphold", lead=lead.session.user_id, chat_id=None,
                              now=c.now())
            done = "d_it_upheld" if action == "uphold" else "d_it_dismissed"
        elif action in ("exam_only_on", "exam_only_off"):
            on = action == "exam_only_on"
            await set_exam_only(c.db, target, on, lead=lead.session.user_id, chat_id=None, now=c.now())
            done = "d_it_exam_only_on" if on else "d_it_exam_only_off"
        elif action in ("invite_only_on", "invite_only_off"):  # invite-only implies exam-only
            on = action == "invite_only_on"
            await write_settings(c.db, target, actor=lead.session.user_id, chat_id=None, now=c.now(), invite_only=on)
            done = "d_it_invite_only_on" if on else "d_it_invite_only_off"
        else:
            raise web.HTTPBadRequest(text="action: retire, restore, uphold, dismiss, exam_only_on|off or invite_only_on|off")
    except NotFound:
        raise web.HTTPNotFound(text="no such question, paper or open dispute") from None
    paper = form.get("paper") or ""
    raise web.HTTPSeeOther(f"{PREFIX}/items?" + urlencode({"done": done, **({"paper": paper} if paper else {})}))
