"""Items: difficulty and discrimination per question with the import lint's flags, and its measured
difficulty beside the author's label with the flags its measure raises (proctor/teams/measured.py), sortable;
the questions held out of use (quarantine) with "confirm key"; retire / restore, a paper's exam-only
switch, open disputes (uphold / dismiss) and an upheld dispute's key fix (with the regrade) for
configured admins, audited by the same domain functions as /bankstats' buttons, /examonly and
/keyfix. The bank is shared: group administrators only look.

Every fact here is read through the read rule (the lead's Lens, asked at each request): a hiring
paper's statistics, doubts, disputes and current keys only by the configured admins and the teams
verified for it; for any other team its rows are absent, and the paper asked for by name answers
the one line /bankstats <paper> says."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlencode

from aiohttp import web

from bank.errors import NotFound
from bank.item_stats import is_exam_only
from bank.paper_list import find_paper, paper_summaries
from bank.paper_settings import is_invite_only
from bank.question_checks import HELD_DUPLICATE
from desk import params
from desk.web import PREFIX, DeskContext, Lead, Withheld, csv_response, ctx, lead_page, lens_of, render
from proctor.chats import chat_zone
from proctor.exams.visibility import Fact, Lens
from proctor.local_time import moment
from proctor.teams import disputes as dsp
from proctor.teams import doubts
from proctor.teams import key_fix as kf
from proctor.teams.curation import confirm_key, set_exam_only, set_retired, write_settings
from proctor.teams.item_stats import cached, refresh_cache
from proctor.teams.measured import Measured, measured
from proctor.teams.paper_counts import question_standings, shown_tallies

log = logging.getLogger(__name__)
STATS_MAX_AGE = 600.0  # seconds: older statistics are refreshed in the background


async def _stats(request: web.Request, lens: Lens, paper: str):
    """(paper key, paper id or None, the statistics the lens shows, when they were computed). They are
    read from the cache (proctor.teams.item_stats.cached): computed on the first visit, then refreshed
    in the background when older than STATS_MAX_AGE, so a page never waits for a million answers.
    Raises Withheld for a paper whose statistics the lens does not show."""
    c = ctx(request)
    paper_id = None
    if paper:
        try:
            found = await find_paper(c.db, paper)
        except NotFound:
            raise web.HTTPNotFound(text="no such paper") from None
        paper_id = found.id
        if not lens.of(paper_id).shows(Fact.item_stats):
            raise Withheld(found.title or found.code)
    stats, computed_at = await cached(c.db, lens, paper_id)
    if computed_at is None:
        await _refresh(c)
        stats, computed_at = await cached(c.db, lens, paper_id)
    elif c.now() - computed_at > STATS_MAX_AGE:
        _refresh(c)  # in the background: this page shows the figures it has
    return paper, paper_id, stats, computed_at


def _refresh(c: DeskContext) -> asyncio.Task:
    """The statistics' refresh: one at a time."""
    if c.stats_refresh is None or c.stats_refresh.done():
        c.stats_refresh = asyncio.get_running_loop().create_task(_refresh_now(c))
    return c.stats_refresh


async def _refresh_now(c: DeskContext) -> None:
    try:
        await refresh_cache(c.db, c.now())
    except Exception:
        log.exception("the question statistics could not be refreshed")


@lead_page
async def items_page(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/items?paper=: every question's statistics, and the open disputes."""
    notice = lead.t(request.query["done"]) if request.query.get("done") in _NOTICES else ""
    return await _show(request, lead, request.query.get("team"), request.query.get("paper") or "", notice)


async def _show(request: web.Request, lead: Lead, team: str | None, paper_key: str, notice: str,
                status: int = 200) -> web.StreamResponse:
    scope, _ = lead.access.scope(team)  # a lead of some team; refused otherwise
    lens = await lens_of(request, lead, scope)
    paper, paper_id, stats, computed_at = await _stats(request, lens, paper_key)
    c = ctx(request)
    disputes = await dsp.open_disputes(c.db, lens, limit=100)  # raised by that team's roster
    to_fix = [(d, _key_words(lead, key)) for d in await dsp.awaiting_key_fix(c.db, lens)
              if (key := await kf.current_key(c.db, lens, d.id, now=c.now())) is not None]
    held = {h.question_id: h for h in await doubts.held(c.db, lens)}
    exam_only = None if paper_id is None else await is_exam_only(c.db, paper_id)
    invite_only = paper_id is not None and await is_invite_only(c.db, paper_id)
    counted = await shown_tallies(c.db, lens)  # what the paper's counts are: only where its statistics show
    counts = [(p, counted[p.id]) for p in await paper_summaries(c.db, composed=True)
              if p.id in counted and paper_id in (None, p.id)]
    return render(request, lead, "items.html", {"paper": paper, "paper_id": paper_id, "exam_only": exam_only,
                                                 "measured": await measured(c.db, lens, paper_id),
                                                 "invite_only": invite_only, "counts": counts,
                                                 "placed": await question_standings(c.db, paper_id),
                                                 "stats": stats, "disputes": disputes, "to_fix": to_fix,
                                                 "held": held, "duplicate": HELD_DUPLICATE,
                                                 "can_curate": lead.access.admin, "notice": notice,
                                                 "computed_at": moment(computed_at, await chat_zone(
                                                     c.db, scope, c.default_zone))},
                  status=status)


def _key_words(lead: Lead, key: kf.KeyAsSeen) -> str:
    """A disputed key as the chat's key-fix prompt says it (bot.leads.render.key_words): in the disputer's
    letters with the options' texts, or said to be the bank's where the dispute kept no order."""
    if not key.options:
        return lead.t("bank_letters", letters=key.text) if key.bank_letters else key.text
    return lead.t("bank_letters" if key.bank_letters else "letters_seen", letters=lead.seen(key.options))


@lead_page
async def items_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    scope, _ = lead.access.scope(request.query.get("team"))
    lens = await lens_of(request, lead, scope)
    _, _, stats, _ = await _stats(request, lens, request.query.get("paper") or "")
    held = {h.question_id: h for h in await doubts.held(ctx(request).db, lens)}
    found = await measured(ctx(request).db, lens)
    return csv_response("items.csv", ["question_id", "paper", "section", "number", "responses", "difficulty",
                                      "discrimination", "flags", "retired", "held", "label", "measured_difficulty",
                                      "right_at_median_rating", "measured_answers", "measure_flags"],
                        [[s.question_id, s.paper, s.section, s.number, s.responses, s.difficulty,
                          s.discrimination, " ".join(s.flags), int(s.retired),
                          held[s.question_id].reason if s.question_id in held else "", *_measure(found.get(s.question_id))]
                         for s in stats])


def _measure(m: Measured | None) -> list[object]:
    """A question's measure as the CSV gives it: its label, difficulty, share right at the median rating,
    answers, flags; empty before its first counted answer."""
    if m is None or not m.answers:
        return [m.label if m else "", "", "", 0, ""]
    return [m.label, m.difficulty, f"{m.right:.3f}", m.answers, " ".join(m.flags)]


@lead_page
async def disputes_csv(request: web.Request, lead: Lead) -> web.StreamResponse:
    """GET /desk/disputes.csv: the open disputes (and the upheld ones awaiting a key fix)."""
    scope, _ = lead.access.scope(request.query.get("team"))
    lens = await lens_of(request, lead, scope)
    db = ctx(request).db
    rows = [*await dsp.open_disputes(db, lens, limit=1000), *await dsp.awaiting_key_fix(db, lens, limit=1000)]
    return csv_response("disputes.csv", ["dispute", "question_id", "paper", "section", "number", "status", "reason"],
                        [[d.id, d.question_id, d.paper, d.section, d.number, d.status, d.reason] for d in rows])


_NOTICES = ("d_it_retired", "d_it_restored", "d_it_upheld", "d_it_dismissed", "d_it_exam_only_on",
            "d_it_exam_only_off", "d_it_invite_only_on", "d_it_invite_only_off", "d_it_key_confirmed",
            "d_it_key_not_held", "d_it_key_fixed")


@lead_page
async def curate(request: web.Request, lead: Lead) -> web.StreamResponse:
    """POST /desk/items: retire, restore, confirm a key, uphold, dismiss, fix a key, exam-only and
    invite-only on / off (configured admins only)."""
    if not lead.access.admin:
        return render(request, lead, "refused.html", {"message": lead.t("d_bank_admin_only")}, status=403)
    form = await request.post()
    action, c = form.get("action"), ctx(request)
    target = params.row_id(form, "target")
    paper = str(form.get("paper") or "")
    back = {"paper": paper} if paper else {}
    try:
        if action in ("retire", "restore"):
            await set_retired(c.db, target, action == "retire", lead=lead.session.user_id, chat_id=None,
                              now=c.now())
            done = "d_it_retired" if action == "retire" else "d_it_restored"
        elif action == "confirm_key":  # /bankstats' confirm button and `proctor bank confirm`
            confirmed = await confirm_key(c.db, target, actor=lead.session.user_id, now=c.now())
            done = "d_it_key_confirmed" if confirmed else "d_it_key_not_held"
        elif action in ("uphold", "dismiss"):  # upholding leads to the key fix, as in the chat
            await dsp.resolve(c.db, target, upheld=action == "uphold", lead=lead.session.user_id, chat_id=None,
                              now=c.now())
            done = "d_it_upheld" if action == "uphold" else "d_it_dismissed"
        elif action == "key_fix":  # /keyfix: the new key (or an accepted alternative), regraded unless kept
            text = str(form.get("key", "")).strip()
            alternative = form.get("kind") == "alternative"
            await kf.fix_key(c.db, target, actor=lead.session.user_id, now=c.now(), chat_id=None,
                             key=None if alternative else text, alternative=text if alternative else None,
                             regrade=form.get("keep") != "1")
            c.bridge.deliver_notices()  # the notices were queued with the fix
            done = "d_it_key_fixed"
        elif action in ("exam_only_on", "exam_only_off"):
            on = action == "exam_only_on"
            await set_exam_only(c.db, target, on, lead=lead.session.user_id, chat_id=None, now=c.now())
            done = "d_it_exam_only_on" if on else "d_it_exam_only_off"
        elif action in ("invite_only_on", "invite_only_off"):  # invite-only implies exam-only
            on = action == "invite_only_on"
            await write_settings(c.db, target, actor=lead.session.user_id, chat_id=None, now=c.now(), invite_only=on)
            done = "d_it_invite_only_on" if on else "d_it_invite_only_off"
        else:
            raise web.HTTPBadRequest(text="action: retire, restore, confirm_key, uphold, dismiss, key_fix, "
                                           "exam_only_on|off or invite_only_on|off")
    except dsp.OwnDispute:
        return await _show(request, lead, None, paper, lead.t("d_it_own_dispute"), status=403)
    except kf.OwnScore:  # nothing written: another admin makes this fix
        return await _show(request, lead, None, paper, lead.t("d_it_own_score"), status=403)
    except dsp.NotUpheld:
        return await _show(request, lead, None, paper, lead.t("d_it_not_upheld"), status=409)
    except kf.BadKey as e:
        return await _show(request, lead, None, paper, lead.t("d_it_bad_key", why=str(e)), status=400)
    except NotFound:
        raise web.HTTPNotFound(text="no such question, paper or open dispute") from None
    raise web.HTTPSeeOther(f"{PREFIX}/items?" + urlencode({"done": done, **back}))
