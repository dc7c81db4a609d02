"""The desk's aiohttp application: routes, templates, static files, headers."""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from desk import audit, candidate, hiring, items, login, review, team
from desk.web import CTX, PREFIX, DeskContext, security_headers

HERE = Path(__file__).resolve().parent


MAX_REQUEST = 64 * 1024  # the desk's forms are small


def make_app(context: DeskContext) -> web.Application:
    """The desk, to be mounted at PREFIX (`mount`); `context` holds the database, the chat bridge
    and the clock."""
    app = web.Application(middlewares=[security_headers])
    app[CTX] = context
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(HERE / "templates"),
                         autoescape=jinja2.select_autoescape(default=True), undefined=jinja2.StrictUndefined)
    app.router.add_get("/", login.start)
    app.router.add_post("/auth", login.by_init_data)
    app.router.add_get("/link", login.start)
    app.router.add_post("/link", login.by_link)
    app.router.add_post("/logout", login.logout)
    app.router.add_post("/lang", login.set_language)
    app.router.add_get("/team", team.team_page)
    app.router.add_get("/team.csv", team.team_csv)
    app.router.add_get("/candidate", candidate.candidate_page)
    app.router.add_get("/candidate.csv", candidate.candidate_csv)
    app.router.add_get("/review", review.queue)
    app.router.add_post("/review", review.score)
    app.router.add_get("/items", items.items_page)
    app.router.add_get("/items.csv", items.items_csv)
    app.router.add_post("/items", items.curate)
    app.router.add_get("/disputes.csv", items.disputes_csv)
    app.router.add_get("/hiring", hiring.hiring_page)
    app.router.add_get("/hiring.csv", hiring.hiring_csv_download)
    app.router.add_post("/hiring", hiring.change)
    app.router.add_get("/audit", audit.audit_page)
    app.router.add_get("/audit.csv", audit.audit_csv)
    app.router.add_static("/static", HERE / "static")
    app.on_cleanup.append(_stop_refresh)
    return app


async def _stop_refresh(app: web.Application) -> None:
    task = app[CTX].stats_refresh
    if task is not None and not task.done():
        task.cancel()


def mount(root: web.Application, context: DeskContext) -> None:
    """Serve the desk at PREFIX on `root`: its own server (`serve`), or the webhook's."""
    root.add_subapp(PREFIX, make_app(context))
    root[CTX] = context  # whoever holds the server's runner finds the desk's context


async def serve(context: DeskContext, host: str, port: int) -> web.AppRunner:
    """Start the desk on its own server on host:port; the caller cleans the runner up."""
    root = web.Application(client_max_size=MAX_REQUEST)
    mount(root, context)
    runner = web.AppRunner(root)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
