"""bot/aiohttp_request.py against a local aiohttp server: bodies as PTB sends them, error mapping
through PTB's own request wrapper, timeouts, an exhausted pool, and a restart of the session."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import web
from telegram import Bot, InputFile
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.aiohttp_request import AiohttpRequest


class Server:
    """A local server that records each request and answers as the test tells it."""

    def __init__(self) -> None:
        self.seen: list[dict] = []
        self.answer: tuple[int, dict] = (200, {"ok": True, "result": True})
        self.hang = asyncio.Event()  # set: answer; clear: never answer
        self.hang.set()
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def handle(self, request: web.Request) -> web.Response:
        record: dict = {"path": request.path, "type": request.content_type, "agent": request.headers["User-Agent"]}
        if request.content_type.startswith("multipart/"):
            fields, files = {}, {}
            async for part in await request.multipart():
                if part.filename is not None:
                    files[part.name] = (part.filename, part.headers.get("Content-Type"), await part.read())
                else:
                    fields[part.name] = await part.text()
            record |= {"fields": fields, "files": files}
        else:
            record["fields"] = dict(await request.post())
        self.seen.append(record)
        await self.hang.wait()
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


async def test_form_body_as_ptb_sends_it_json_encoded_where_not_a_string(server):
    request = AiohttpRequest()
    await request.initialize()
    try:
        result = await request.post(f"{server.url}/sendMessage",
                                    data(chat_id=5, text="héllo 你好", reply_markup={"inline_keyboard": []}))
    finally:
        await request.shutdown()
    assert result is True
    [seen] = server.seen
    assert seen["path"] == "/bot/sendMessage" and seen["type"] == "application/x-www-form-urlencoded"
    assert seen["fields"] == {"chat_id": "5", "text": "héllo 你好", "reply_markup": json.dumps({"inline_keyboard": []})}
    assert seen["agent"].startswith("python-telegram-bot")


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
        assert raised.value.retry_after == 7


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
