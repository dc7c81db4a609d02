"""bot/aiohttp_request.py against a local aiohttp server: bodies as PTB sends them, error mapping
through PTB's own request wrapper, timeouts, an exhausted pool, a restart of the session, a proxy,
and the Application's wiring (both of PTB's clients, PROCTOR_BOT_API_PROXY)."""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import timedelta

import pytest
from aiohttp import web
from telegram import Bot, InputFile
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.aiohttp_request import AiohttpRequest
from bot.app import build_application
from bot.settings import Settings

TOKEN = "123456:transport-test-token-abcdefgh"


class Server:
    """A local server that records each request and answers as the test tells it."""

    def __init__(self) -> None:
        self.seen: list[dict] = []
        self.answer: tuple[int, dict] = (200, {"ok": True, "result": True})
        self.results: dict[str, object] = {}  # a method's result, over `answer`'s
        self.delay = 0.0  # seconds before each answer
        self.hang = asyncio.Event()  # set: answer; clear: never answer
        self.hang.set()
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def handle(self, request: web.Request) -> web.Response:
        record: dict = {"path": request.path, "type": request.content_type, "agent": request.headers["User-Agent"],
                        "host": request.host, "proxy_auth": request.headers.get("Proxy-Authorization")}
        if request.content_type.startswith("multipart/"):
            fields, files = {}, {}
            async for part in await request.multipart():
                if part.filename is not None:
                    files[part.name] = (part.filename, part.headers.get("Content-Type"), await part.read())
                else:
                    fields[part.name] = await part.text()
            record |= {"fields": fields, "files": files}
        elif request.content_type == "application/json":
            record["fields"] = await request.json()
        else:
            record["body"] = await request.read()
            record["fields"] = dict(await request.post())
        self.seen.append(record)
        await self.hang.wait()
        await asyncio.sleep(self.delay)
        method = request.path.rsplit("/", 1)[1]
        if method in self.results:
            return web.json_response({"ok": True, "result": self.results[method]})
        status, body = self.answer
        return web.json_response(body, status=status)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = self.runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/bot"

    async def stop(self) -> None:
        self.hang.set()
        if self.runner is not None:
            await self.runner.cleanup()


@pytest.fixture
async def server():
    s = Server()
    await s.start()
    yield s
    await s.stop()


def data(**params) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in params.items()])


async def test_parameters_go_as_one_json_object_each_value_as_ptb_encodes_it(server):
    request = AiohttpRequest()
    await request.initialize()
    try:
        result = await request.post(f"{server.url}/sendMessage",
                                    data(chat_id=5, text="héllo 你好", reply_markup={"inline_keyboard": []}))
        await request.post(f"{server.url}/getMe", data())  # no parameters: no body
    finally:
        await request.shutdown()
    assert result is True
    seen, bare = server.seen
    assert seen["path"] == "/bot/sendMessage" and seen["type"] == "application/json"
    assert seen["fields"] == {"chat_id": "5", "text": "héllo 你好", "reply_markup": json.dumps({"inline_keyboard": []})}
    assert seen["agent"].startswith("python-telegram-bot")
    assert (bare["path"], bare["body"]) == ("/bot/getMe", b"")


async def test_a_document_with_a_non_ascii_name_goes_as_multipart(server):
    request = AiohttpRequest()
    await request.initialize()
    try:
        document = InputFile(b"::q:: 2+2 {=4}\n", filename="题库 v2.gift")
        await request.post(f"{server.url}/sendDocument", data(chat_id=7, document=document, caption="试题"))
    finally:
        await request.shutdown()
    [seen] = server.seen
    assert seen["type"] == "multipart/form-data"
    assert seen["fields"]["chat_id"] == "7" and seen["fields"]["caption"] == "试题"
    assert seen["files"] == {"document": ("题库 v2.gift", "application/octet-stream", b"::q:: 2+2 {=4}\n")}


async def test_a_bot_sends_through_it_end_to_end(server):
    server.answer = (200, {"ok": True, "result": {"id": 42, "is_bot": True, "first_name": "B", "username": "b_bot"}})
    bot = Bot("123:abc", base_url=server.url, request=AiohttpRequest(), get_updates_request=AiohttpRequest())
    async with bot:
        assert bot.username == "b_bot"
    assert [s["path"] for s in server.seen] == ["/bot123:abc/getMe"]


@pytest.mark.parametrize("status,body,error", [
    (400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}, BadRequest),
    (403, {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}, Forbidden),
    (429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 7",
           "parameters": {"retry_after": 7}}, RetryAfter),
    (502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}, NetworkError),
])
async def test_http_errors_are_left_to_ptbs_mapping(server, status, body, error):
    server.answer = (status, body)
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(error) as raised:
            await request.post(f"{server.url}/sendMessage", data(chat_id=1, text="x"))
    finally:
        await request.shutdown()
    if error is RetryAfter:
        assert raised.value.retry_after == timedelta(seconds=7)  # PTB_TIMEDELTA (tests/conftest.py)


async def test_a_silent_server_times_out(server):
    server.hang.clear()
    request = AiohttpRequest(read_timeout=0.2)
    await request.initialize()
    try:
        with pytest.raises(TimedOut):
            await request.post(f"{server.url}/getMe")
    finally:
        await request.shutdown()


async def test_nothing_listening_is_a_network_error():
    request = AiohttpRequest(connect_timeout=2)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:
            await request.post("http://127.0.0.1:9/bot/getMe")  # the discard port: refused here
    finally:
        await request.shutdown()
    assert not isinstance(raised.value, TimedOut)


async def test_an_exhausted_pool_times_out_without_sending(server):
    server.hang.clear()
    request = AiohttpRequest(connection_pool_size=1, read_timeout=5, pool_timeout=0.1)
    await request.initialize()
    try:
        first = asyncio.create_task(request.post(f"{server.url}/first"))
        while not server.seen:
            await asyncio.sleep(0.01)
        with pytest.raises(TimedOut, match="Pool timeout"):
            await request.post(f"{server.url}/second")
        assert [s["path"] for s in server.seen] == ["/bot/first"]  # the second was never sent
        server.hang.set()
        assert await first is True
    finally:
        await request.shutdown()


async def test_shutdown_then_initialize_opens_a_new_session(server):
    request = AiohttpRequest()
    await request.initialize()
    await request.post(f"{server.url}/one")
    await request.shutdown()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(f"{server.url}/two", "POST")
    await request.initialize()
    try:
        assert await request.post(f"{server.url}/three") is True
    finally:
        await request.shutdown()
    await request.shutdown()  # twice is harmless
    assert [s["path"] for s in server.seen] == ["/bot/one", "/bot/three"]


async def test_a_long_poll_waits_beyond_the_read_timeout(server):
    """PTB adds getUpdates' `timeout` to the client's read timeout and passes it per call."""
    server.results["getUpdates"] = []
    server.delay = 0.5
    polling = AiohttpRequest(read_timeout=0.2)
    bot = Bot(TOKEN, base_url=server.url, get_updates_request=polling)
    await polling.initialize()
    try:
        assert await bot.get_updates(timeout=1) == ()
        with pytest.raises(TimedOut):  # the client's own read timeout, without the poll's
            await polling.post(f"{server.url}/getUpdates")
    finally:
        await polling.shutdown()


async def test_a_proxy_carries_the_request_and_its_credentials(server):
    """The proxy (here the local server) gets the request for a host only it can reach."""
    proxy = server.url.replace("http://", "http://ann:s3cret@").removesuffix("/bot")
    request = AiohttpRequest(proxy=proxy)
    await request.initialize()
    try:
        assert await request.post("http://bot-api.invalid/bot1/getMe") is True
    finally:
        await request.shutdown()
    [seen] = server.seen
    assert (seen["host"], seen["path"]) == ("bot-api.invalid", "/bot1/getMe")
    assert seen["proxy_auth"] == "Basic " + base64.b64encode(b"ann:s3cret").decode()


async def test_the_application_sends_and_polls_through_aiohttp_and_the_proxy_setting(server, tmp_path):
    server.results |= {"getMe": {"id": 123456, "is_bot": True, "first_name": "P", "username": "p_bot"},
                       "getUpdates": []}
    settings = Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DB=tmp_path / "p.db",
                        PROCTOR_BOT_API_URL="http://bot-api.invalid/bot",
                        PROCTOR_BOT_API_PROXY=server.url.removesuffix("/bot"))
    app = build_application(settings, rate_limiter=False)
    updates_client, bot_client = app.bot._request  # PTB's pair: (getUpdates', everything else's)
    assert isinstance(updates_client, AiohttpRequest) and isinstance(bot_client, AiohttpRequest)
    async with app.bot:  # both clients initialised; getMe on the bot's
        assert await app.bot.get_updates(timeout=0) == ()  # on the updates' client
    assert [(s["host"], s["path"]) for s in server.seen] == [("bot-api.invalid", f"/bot{TOKEN}/getMe"),
                                                             ("bot-api.invalid", f"/bot{TOKEN}/getUpdates")]


def test_the_proxy_setting_must_be_an_http_url():
    with pytest.raises(ValueError, match="PROCTOR_BOT_API_PROXY"):
        Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_BOT_API_PROXY="socks5://127.0.0.1:1080")
    assert Settings(TELEGRAM_BOT_TOKEN=TOKEN).bot_api_proxy is None
