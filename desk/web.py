"""The desk's request plumbing: its context, security headers, sessions, CSRF, role checks."""

from __future__ import annotations

import asyncio
import csv
import functools
import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import quote

import aiohttp_jinja2
from aiohttp import web

from bank.csv_safety import safe_cell
from bank.option_order import SeenOption
from desk.access import Access, Bridge, Refused, access_of
from desk.auth import Session, Sessions, csrf_ok
from proctor.clock import Clock
from proctor.exams.visibility import Lens, Role, Viewer, lens
from proctor.people.users import find_prefs
from proctor.storage.db import Database

log = logging.getLogger(__name__)

COOKIE = "proctor_desk"
PREFIX = "/desk"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'self' https://web.telegram.org "
       "https://*.telegram.org")


class Texts(Protocol):
    """The interface text catalogue, handed in by the bot (bot.desk_bridge passes `bot.i18n`):
    the desk sits below the bot and never imports it."""

    def t(self, key: str, lang: str, /, **kw) -> str: ...

    def joined(self, items: Iterable[object], lang: str, /) -> str: ...

    def pick_lang(self, stored: str | None, telegram_code: str | None, default: str = "en") -> str: ...


@dataclass
class DeskContext:
    db: Database
    bridge: Bridge
    bot_token: str
    clock: Clock
    texts: Texts
    default_lang: str = "en"
    default_zone: str = "UTC"
    https: bool = False  # the public URL is https: cookies are Secure
    sessions: Sessions = field(default_factory=Sessions)
    stats_refresh: asyncio.Task | None = None  # the Items page's background statistics refresh

    def now(self) -> float:
        return self.clock.now()


CTX = web.AppKey("desk", DeskContext)


def ctx(request: web.Request) -> DeskContext:
    return request.app[CTX]


@web.middleware
async def security_headers(request: web.Request, handler):
    """Every response: a CSP without inline scripts, no sniffing, no referrer, no caching."""
    try:
        response = await handler(request)
    except web.HTTPException as e:
        response = e
        _harden(response)
        raise
    _harden(response)
    return response


def _harden(response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Cache-Control", "no-store")


def set_session_cookie(request: web.Request, response: web.StreamResponse, session: Session) -> None:
    response.set_cookie(COOKIE, session.sid, max_age=int(ctx(request).sessions.ttl), path=PREFIX,
                        httponly=True, samesite="Strict", secure=ctx(request).https or request.secure)


@dataclass(frozen=True)
class Lead:
    """The signed-in user of one request, with their access checked for this request."""

    session: Session
    access: Access
    lang: str
    texts: Texts

    def t(self, key: str, /, **kw) -> str:  # positional: a text may take a `key` parameter itself
        return self.texts.t(key, self.lang, **kw)

    def seen(self, options: Iterable[SeenOption]) -> str:
        """Options as the person saw them, letter and text: "C · 数据并行, D · 模型并行" (the chat's
        bot.answer_forms.seen_text)."""
        return self.texts.joined((self.t("seen_option", letter=o.letter, text=o.text) for o in options), self.lang)

    @property
    def viewer(self) -> Viewer:
        """Who reads, for the read rule: a configured admin, or a group's lead (checked by access_of)."""
        return Viewer(Role.admin if self.access.admin else Role.lead, self.session.user_id)


async def lens_of(request: web.Request, lead: Lead, scope: int | None) -> Lens:
    """What the lead may read of every paper for team `scope` (None: every team), asked at this
    request: nothing caches it, so a team that loses its verification reads nothing more of the
    paper from its next request on."""
    return await lens(ctx(request).db, lead.viewer, scope)


async def current_lead(request: web.Request) -> Lead | None:
    """The session's user and their access now; None without a valid session."""
    c = ctx(request)
    session = c.sessions.get(request.cookies.get(COOKIE), c.now())
    if session is None:
        return None
    prefs = await find_prefs(c.db, session.user_id)
    lang = c.texts.pick_lang(prefs.language if prefs else None, session.telegram_lang, c.default_lang)
    return Lead(session, await access_of(c.db, c.bridge, session.user_id), lang, c.texts)


class Withheld(Exception):
    """A page about one paper the lead's Lens shows nothing of (a hiring paper the team is not
    verified for): `lead_page` answers it with one line, as /bankstats <paper> does."""

    def __init__(self, title: str):
        super().__init__(title)
        self.title = title


Handler = Callable[[web.Request, Lead], Awaitable[web.StreamResponse]]


def lead_page(handler: Handler):
    """A page for leads: a session, and a lead role checked now; state changes need the CSRF token."""

    @functools.wraps(handler)
    async def wrapper(request: web.Request) -> web.StreamResponse:
        lead = await current_lead(request)
        if lead is None:
            if request.method == "GET":
                raise web.HTTPSeeOther(f"{PREFIX}/")
            raise web.HTTPForbidden(text="no session")
        if request.method != "GET":
            form = await request.post()
            token = request.headers.get("X-CSRF-Token") or form.get("csrf")
            if not csrf_ok(lead.session, token if isinstance(token, str) else None):
                raise web.HTTPForbidden(text="missing or wrong CSRF token")
        if not lead.access.is_lead:
            return refused(request, lead, "d_not_lead")
        try:
            return await handler(request, lead)
        except Refused:
            return refused(request, lead, "d_not_your_team")
        except Withheld as e:  # the one line /bankstats <paper> says
            return render(request, lead, "refused.html", {"message": lead.t("hv_withheld", paper=e.title)},
                          status=403)

    return wrapper


def refused(request: web.Request, lead: Lead, key: str) -> web.StreamResponse:
    return render(request, lead, "refused.html", {"message": lead.t(key)}, status=403)


def render(request: web.Request, lead: Lead | None, template: str, context: dict,
           status: int = 200) -> web.StreamResponse:
    lang = lead.lang if lead else ctx(request).default_lang
    base = {"lang": lang, "_": lambda key, **kw: ctx(request).texts.t(key, lang, **kw), "lead": lead, "csrf": lead.session.csrf if lead else "", "path": request.path,
            "query": request.query_string, "prefix": PREFIX}
    return aiohttp_jinja2.render_template(template, request, {**base, **context}, status=status)


def attachment(name: str) -> str:
    """A Content-Disposition for a download named `name` (titles people gave, any script): an ASCII
    `filename` for old clients and RFC 6266's `filename*` with the name itself in UTF-8."""
    stem, dot, ext = name.rpartition(".")
    ascii_stem = re.sub(r"-{2,}", "-", stem.encode("ascii", "ignore").decode()).strip("-_") or "download"
    fallback = f"{ascii_stem}{dot}{ext}".replace('"', "").replace("\\", "")
    if fallback == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


def csv_response(name: str, header: list[str], rows: list[list]) -> web.Response:
    """A table as a CSV download named `name` (made of titles, bank.csv_safety.file_stem, never of ids);
    cells that a spreadsheet would run as a formula are quoted."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(c) for c in row])
    return web.Response(body=("\ufeff" + out.getvalue()).encode("utf-8"), content_type="text/csv",
                        charset="utf-8", headers={"Content-Disposition": attachment(name)})
