"""Webhook mode on our own aiohttp server, so the desk shares it (`proctor run --webhook URL`).

PTB's `run_webhook` serves with tornado on a port of its own; the desk is aiohttp. Here one aiohttp
server holds both: the webhook route at the URL's path, which checks Telegram's
`X-Telegram-Bot-Api-Secret-Token` header, decodes the update with `Update.de_json` and puts it on
the Application's update queue (what PTB's own webhook handler does), and the desk at /desk. The
Application is initialised, started, stopped and shut down here as `run_webhook` would; PTB's
Updater is not used. The secret is registered for redaction by the caller (bot.app.run_bot).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import signal
from collections.abc import Awaitable, Callable
from urllib.parse import urlparse

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from desk.server import mount
from desk.web import DeskContext

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE = 1024 * 1024
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGABRT)


def webhook_route(app: Application, secret: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The handler Telegram POSTs updates to: a wrong or missing secret is refused (403); an update
    is acknowledged (200) once it is on the queue; while stopping, 503 (Telegram sends it again)."""
    expected = secret.encode()

    async def receive(request: web.Request) -> web.StreamResponse:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            log.debug("webhook: a request without the right secret token was refused")
            raise web.HTTPForbidden()
        try:
            update = Update.de_json(json.loads(await request.read()), app.bot)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            log.warning("webhook: an undecodable update was refused (%s)", type(e).__name__)
            raise web.HTTPBadRequest() from None
        if update is None:
            raise web.HTTPBadRequest()
        if not app.running:
            raise web.HTTPServiceUnavailable()
        await app.update_queue.put(update)
        return web.Response()

    return receive


def build_server(app: Application, url: str, secret: str, desk: DeskContext | None) -> web.Application:
    """The one web server of webhook mode: the webhook route, and the desk when it is configured."""
    root = web.Application(client_max_size=MAX_UPDATE)
    root.router.add_post(urlparse(url).path or "/", webhook_route(app, secret))
    if desk is not None:
        mount(root, desk)
    return root


def run(app: Application, loop: asyncio.AbstractEventLoop, *, listen: str, port: int, url: str, secret: str,
        prepare: Callable[[Application], Awaitable[None]],
        desk: Callable[[Application], DeskContext] | None) -> None:
    """Run the bot on a webhook until SIGINT / SIGTERM. `prepare` opens the bot's services (the
    post-init step without the desk's own server); `desk` builds the desk's context once they are open."""
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        loop.run_until_complete(_serve(app, stop, listen=listen, port=port, url=url, secret=secret,
                                       prepare=prepare, desk=desk))
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        loop.close()


async def _serve(app: Application, stop: asyncio.Event, *, listen: str, port: int, url: str, secret: str,
                 prepare: Callable[[Application], Awaitable[None]],
                 desk: Callable[[Application], DeskContext] | None) -> None:
    runner: web.AppRunner | None = None
    await app.initialize()
    try:
        await prepare(app)
        server = build_server(app, url, secret, desk(app) if desk is not None else None)
        await app.start()
        runner = web.AppRunner(server)
        await runner.setup()
        await web.TCPSite(runner, listen, port).start()
        await app.bot.set_webhook(url, secret_token=secret, drop_pending_updates=False)
        log.info("webhook served on %s:%s%s", listen, port, " with the desk at /desk" if desk else "")
        await stop.wait()
    finally:
        if runner is not None:  # no update is acknowledged once the Application stops
            await runner.cleanup()
        if app.running:
            await app.stop()
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
