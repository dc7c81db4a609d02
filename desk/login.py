"""Getting in: the Mini App's signed initData, or a one-time login link; and getting out.

Secrets travel in POST bodies only (the page reads them from the URL fragment, which browsers
never send to a server), so no access log or proxy log ever holds one.
"""

from __future__ import annotations

import logging

from aiohttp import web

from desk.auth import MAX_AGE, BadInitData, check_init_data
from desk.web import COOKIE, PREFIX, Lead, ctx, current_lead, lead_page, render, set_session_cookie
from proctor.people.users import ensure_user
from proctor.people.users import set_language as set_lang_pref
from proctor.teams import desk_tokens

log = logging.getLogger(__name__)


async def start(request: web.Request) -> web.StreamResponse:
    """The page the WebApp button opens: its script signs in with the launch data in the fragment
    (a new launch may be another user), or goes on to the team page with the session it has."""
    return render(request, None, "login.html", {"signed_in": await current_lead(request) is not None})


async def _field(request: web.Request, name: str) -> str:
    form = await request.post()
    value = form.get(name)
    return value if isinstance(value, str) else ""


async def by_init_data(request: web.Request) -> web.StreamResponse:
    """POST init_data: check Telegram's signature and age, refuse a replay, open a session."""
    c = ctx(request)
    now = c.now()
    try:
        data = check_init_data(await _field(request, "init_data"), c.bot_token, now)
    except BadInitData as e:
        log.info("desk login refused: %s", e)
        raise web.HTTPForbidden(text="refused") from None
    if not await desk_tokens.spend_once(c.db, data.hash, data.user_id, now, data.auth_date + MAX_AGE):
        log.info("desk login refused: initData replayed (user %s)", data.user_id)
        raise web.HTTPForbidden(text="refused")
    if data.first_name:
        await ensure_user(c.db, data.user_id, data.first_name, data.username, now)
    return _signed_in(request, data.user_id, data.language_code)


async def by_link(request: web.Request) -> web.StreamResponse:
    """POST token: a one-time login link from `/desk link` (10 minutes, once)."""
    c = ctx(request)
    user_id = await desk_tokens.redeem_link(c.db, await _field(request, "token"), c.now())
    if user_id is None:
        log.info("desk login refused: unknown, used or expired link")
        raise web.HTTPForbidden(text="refused")
    return _signed_in(request, user_id, None)


def _signed_in(request: web.Request, user_id: int, telegram_lang: str | None) -> web.StreamResponse:
    c = ctx(request)
    session = c.sessions.create(user_id, c.now(), telegram_lang)
    log.info("desk session opened for user %s", user_id)
    response = web.json_response({"next": f"{PREFIX}/team"})
    set_session_cookie(request, response, session)
    return response


@lead_page
async def logout(request: web.Request, lead: Lead) -> web.StreamResponse:
    """End the session (a form with the CSRF token)."""
    ctx(request).sessions.drop(lead.session.sid)
    response = web.Response(status=303, headers={"Location": f"{PREFIX}/"})  # a response, not an exception
    response.del_cookie(COOKIE, path=PREFIX)
    return response


@lead_page
async def set_language(request: web.Request, lead: Lead) -> web.StreamResponse:
    """The desk's language switch is the lead's /lang: one preference for chat and desk."""
    choice = (await request.post()).get("lang")
    if choice not in ("en", "zh"):
        raise web.HTTPBadRequest(text="lang: en or zh")
    await set_lang_pref(ctx(request).db, lead.session.user_id, choice)
    back = (await request.post()).get("back")
    raise web.HTTPSeeOther(back if isinstance(back, str) and back.startswith(f"{PREFIX}/") else f"{PREFIX}/team")
