"""The desk's aiohttp application: routes, templates, static files, headers."""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from desk import audit, candidate, items, login, review, team
from desk.web import CTX, PREFIX, DeskContext, security_headers

HERE = Path(__file__).resolve().parent


def make_app(context: DeskContext) -> web.Application:
    """The desk under /desk; `context` holds the database, the chat bridge and the clock."""
    app = web.Application(middlewares=[security_headers], client_max_size=64 * 1024)
    app[CTX] = context
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(HERE / "templates"),
                         autoescape=jinja2.select_autoescape(default=True), undefined=jinja2.StrictUndefined)
    app.router.add_get(f"{PREFIX}/", login.start)
    app.router.add_post(f"{PREFIX}/auth", login.by_init_data)
    app.router.add_get(f"{PREFIX}/link", login.start)
    app.router.add_post(f"{PREFIX}/link", login.by_link)
    app.router.add_post(f"{PREFIX}/logout", login.logout)
    app.router.add_post(f"{PREFIX}/lang", login.set_language)
    app.router.add_get(f"{PREFIX}/team", team.team_page)
    app.router.add_get(f"{PREFIX}/team.csv", team.team_csv)
    app.router.add_get(f"{PREFIX}/candidate", candidate.candidate_page)
    app.router.add_get(f"{PREFIX}/candidate.csv", candidate.candidate_csv)
    app.router.add_get(f"{PREFIX}/review", review.queue)
    app.router.add_post(f"{PREFIX}/review", review.score)
    app.router.add_get(f"{PREFIX}/items", items.items_page)
    app.router.add_get(f"{PREFIX}/items.csv", items.items_csv)
    app.router.add_post(f"{PREFIX}/items", items.curate)
    app.router.add_get(f"{PREFIX}/disputes.csv", items.disputes_csv)
    app.router.add_get(f"{PREFIX}/audit", audit.audit_page)
    app.router.add_get(f"{PREFIX}/audit.csv", audit.audit_csv)
    app.router.add_static(f"{PREFIX}/static", HERE / "static")
    return app


async def serve(context: DeskContext, host: str, port: int) -> web.AppRunner:
    """Start the desk on host:port; the caller cleans the runner up."""
    runner = web.AppRunner(make_app(context))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
