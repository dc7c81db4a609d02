"""The aiohttp application: routes, request decoding, error injection, webhook delivery."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import time
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web

from sandbox.fakeapi.limits import RateLimiter
from sandbox.fakeapi.methods import METHODS, Api, ApiError, UploadedPart, decode_params
from sandbox.fakeapi.state import BotState, Call

log = logging.getLogger(__name__)

# Not logged in `calls`: long polling would drown the log.
_UNLOGGED = frozenset({"getUpdates"})


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(data, ensure_ascii=False).encode(), status=status, content_type="application/json"
    )


class ApiServer:
    """Serves `/bot<token>/<method>` and `/file/bot<token>/<path>` on 127.0.0.1."""

    def __init__(
        self, token: str, state: BotState, limiter: RateLimiter, host: str = "127.0.0.1", port: int = 0
    ):
        self.token = token
        self.state = state
        self.api = Api(state, limiter)
        self.host = host
        self.port = port
        self.in_flight = 0
        self.last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._pusher: asyncio.Task[None] | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_method)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.state.closing = False
        self._pusher = asyncio.create_task(self._push_webhook_updates(), name="fakeapi-webhook")

    async def stop(self) -> None:
        self.state.closing = True
        self.state.updates.wake()  # pending long polls answer [] right away
        if self._pusher is not None:
            self._pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pusher
            self._pusher = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- change notification (for waits on the test side) ------------------------------------

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def change_event(self) -> asyncio.Event:
        """An event set at the next change; take it before checking a condition."""
        return self._changed

    # --- requests ----------------------------------------------------------------------------

    async def _read_params(self, request: web.Request) -> dict[str, Any]:
        raw: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if not isinstance(body, dict):
                    raise ApiError.bad_request("request body must be a JSON object")
                raw.update(body)
            else:
                for name, value in (await request.post()).items():
                    if isinstance(value, web.FileField):
                        raw[name] = UploadedPart(value.filename, value.content_type, value.file.read())
                    else:
                        raw[name] = value
        return decode_params(raw)

    async def _handle_method(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _json({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        found = METHODS.get(request.match_info["method"].lower())
        if found is None:
            return _json({"ok": False, "error_code": 404, "description": "Not Found"}, 404)
        name, handler = found
        tracked = name not in _UNLOGGED
        if tracked:
            self.in_flight += 1
        call = Call(name, {})
        fault = None
        try:
            params = await self._read_params(request)
            call = Call(name, params)
            if tracked:
                self.state.calls.append(call)
            fault = self.state.take_fault(name, params.get("chat_id"))
            if fault is not None:
                raise fault
            result = handler(self.api, params)
            if inspect.isawaitable(result):
                result = await result
            hold = self.state.take_hold(name, params) if self.state.holds else None
            if hold is not None:  # done, but the bot hears nothing until the test releases it
                hold.reached.set()
                if hold.error is not None:
                    raise hold.error
                await hold.released.wait()
            if result and not tracked:
                # updates were fetched: the bot is busy until it has been quiet again
                self.last_activity = time.monotonic()
            return _json({"ok": True, "result": result})
        except ApiError as error:
            if error.code == 429:
                self.api.limiter.stats.rejected += fault is not None
            if tracked:
                self.state.errors.append((call, error.code, error.description))
            return _json(error.to_api(), error.code)
        except Exception:
            log.exception("fake Bot API failed on %s", name)
            return _json({"ok": False, "error_code": 500, "description": "Internal Server Error"}, 500)
        finally:
            if tracked:
                self.in_flight -= 1
                self.last_activity = time.monotonic()
            self.notify()

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return _json({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        file_id = request.match_info["path"].rsplit("/", 1)[-1]
        stored = self.state.files.get(file_id)
        if stored is None:
            return _json({"ok": False, "error_code": 404, "description": "Not Found"}, 404)
        return web.Response(body=stored.data, content_type=stored.mime_type or "application/octet-stream")

    # --- webhook delivery --------------------------------------------------------------------

    async def _push_webhook_updates(self) -> None:
        """Delivers queued updates one by one to a local webhook URL, retrying on failure."""
        queue = self.state.updates
        async with ClientSession(timeout=ClientTimeout(total=10)) as session:
            while True:
                hook = self.state.webhook
                if not hook.url or not len(queue):
                    await queue.wait(1.0)
                    continue
                update = queue.take(1)[-1]
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook.secret_token} if hook.secret_token else {}
                try:
                    async with session.post(hook.url, json=update, headers=headers) as response:
                        delivered = response.status == 200
                except Exception as exc:  # noqa: BLE001 - any failure means "retry later"
                    log.debug("webhook delivery failed: %r", exc)
                    delivered = False
                if delivered:
                    queue.confirm(update["update_id"] + 1)
                    self.notify()
                else:
                    await asyncio.sleep(0.2)
