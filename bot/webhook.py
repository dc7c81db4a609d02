"""Webhook mode on our own aiohttp server, so the desk shares it (`proctor run --webhook URL`).

PTB's `run_webhook` serves with tornado on a port of its own; the desk is aiohttp. Here one aiohttp
server holds both: the webhook route at the URL's path, which checks Telegram's
`X-Telegram-Bot-Api-Secret-Token` header, checks the body's ids, decodes the update with
`Update.de_json` and takes it in by the bot's one door (bot/intake.py: claimed and stored, then
queued), and the desk at /desk. Telegram forgets an update once it is answered 200, so the 200
comes only after the claim has committed; a claim that fails is answered 500 and Telegram sends
the update again. The Application is initialised, started, stopped and shut down here as
`run_webhook` would; PTB's Updater is not used. The secret is registered for redaction by the caller
(bot.app.run_bot).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlparse

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot import intake
from bot.lifecycle import STOP_SIGNALS
from desk.server import mount
from desk.web import DeskContext

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE = 1024 * 1024
MAX_ID = 2**53  # Telegram's ids fit in 52 bits and a sign (a double holds them exactly)
# objects whose `id` is a chat's or a user's, wherever they are in an update
ID_HOLDERS = ("chat", "from", "user", "sender_chat")


def webhook_route(app: Application, secret: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The handler Telegram POSTs updates to: a wrong or missing secret is refused (403), a malformed
    body too (400); an update is acknowledged (200) once it is claimed; a claim that fails is 500
    and, while stopping, 503 (Telegram sends it again)."""
    expected = secret.encode()

    async def receive(request: web.Request) -> web.StreamResponse:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            log.debug("webhook: a request without the right secret token was refused")
            raise web.HTTPForbidden()
        try:
            data = json.loads(await request.read())
        except RecursionError:  # the C decoder counts its depth against the recursion limit
            log.warning("webhook: a body nested too deep was refused")
            raise web.HTTPBadRequest() from None
        except ValueError as e:
            log.warning("webhook: a body that is not JSON was refused (%s)", type(e).__name__)
            raise web.HTTPBadRequest() from None
        if (why := malformed(data)) is not None:
            log.warning("webhook: a malformed update was refused (%s)", why)
            raise web.HTTPBadRequest()
        try:
            update = Update.de_json(data, app.bot)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
            log.warning("webhook: an undecodable update was refused (%s)", type(e).__name__)
            raise web.HTTPBadRequest() from None
        if not app.running:
            raise web.HTTPServiceUnavailable()
        try:
            await intake.take_in(app, [update])
        except Exception:  # not claimed: a 500 leaves it with Telegram, which sends it again
            log.exception("webhook: update %s could not be claimed", update.update_id)
            raise web.HTTPInternalServerError() from None
        return web.Response()

    return receive


MESSAGES = ("message", "edited_message", "channel_post", "edited_channel_post", "business_message",
            "edited_business_message")


def malformed(data: object) -> str | None:
    """What an update lacks that PTB's decoding takes for granted (None when it has it).

    `Update.de_json` checks nothing: a message without its chat decodes into a Message whose chat is
    None, and every handler after it fails; `true` passes for an id (True is 1 in Python and in
    SQLite, so `"update_id": true` would be claimed as update 1). Telegram always sends these fields,
    and its ids are integers below 2**53 in size (`update_id` above 0); only a forged or broken body
    differs, so it is refused here, once, instead of failing in each handler.
    """
    if not isinstance(data, dict) or not _is_int(data.get("update_id")):
        return "no update_id"
    if not 0 < data["update_id"] < MAX_ID:
        return "update_id out of range"
    if (why := _bad_ids(data)) is not None:
        return why
    for kind in MESSAGES:
        if kind in data and (why := _bad_message(data[kind])) is not None:
            return f"{kind}: {why}"
    if "callback_query" in data:
        query = data["callback_query"]
        if not isinstance(query, dict) or not isinstance(query.get("id"), str):
            return "callback_query: no id"
        if (why := _bad_user(query.get("from"))) is not None:
            return f"callback_query.from: {why}"
        if "message" in query and (why := _bad_message(query["message"])) is not None:
            return f"callback_query.message: {why}"
    return None


def _is_int(value: object) -> bool:
    """A JSON integer: not a boolean (bool is an int in Python), not a float."""
    return type(value) is int


def _is_id(value: object) -> bool:
    return type(value) is int and abs(value) < MAX_ID


def _bad_ids(data: dict) -> str | None:
    """The first chat or user object anywhere in the update whose `id` is not an id (walked without
    recursion: the body may nest as deep as the JSON decoder allows)."""
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                where = f"{path}.{key}" if path else key
                if key in ID_HOLDERS and isinstance(value, dict) and "id" in value and not _is_id(value["id"]):
                    return f"{where}.id: not an id"
                stack.append((where, value))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(node))
    return None


def _bad_message(message: object) -> str | None:
    if not isinstance(message, dict):
        return "not an object"
    if not _is_int(message.get("message_id")) or not _is_int(message.get("date")):
        return "no message_id or date"
    chat = message.get("chat")
    if not isinstance(chat, dict) or not _is_int(chat.get("id")) or not isinstance(chat.get("type"), str):
        return "no chat"
    if "from" in message:
        return _bad_user(message["from"])
    return None


def _bad_user(user: object) -> str | None:
    if not isinstance(user, dict) or not _is_int(user.get("id")) or not isinstance(user.get("first_name"), str):
        return "no user"
    return None


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
            if app.post_stop:
                await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
