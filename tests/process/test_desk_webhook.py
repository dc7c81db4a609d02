"""`proctor run --webhook URL` with the desk configured: one aiohttp server holds the webhook route
and the desk. Telegram's updates arrive by POST (the secret checked), and the desk answers on the
same port; PROCTOR_DESK_PORT stays closed; no secret reaches the output."""

from __future__ import annotations

import json
import time

import aiohttp

from tests.desk_helpers import sign_init_data
from tests.process_helpers import SECRET, STARTUP, TOKEN, ProctorProcess, child_env, free_port

ADMIN = 1007


async def test_webhook_and_desk_share_one_server(tmp_path, api):
    port, desk_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    hook = f"{base}/hook"
    env = child_env(tmp_path, api, PROCTOR_WEBHOOK_PORT=str(port), PROCTOR_WEBHOOK_LISTEN="127.0.0.1",
                    PROCTOR_DESK_URL="https://desk.example", PROCTOR_DESK_PORT=str(desk_port),
                    PROCTOR_ADMINS=str(ADMIN))
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "run", "--webhook", hook], env=env,
                                     cwd=tmp_path)
    try:
        [params] = await api.wait_for(lambda: api.calls_to("setWebhook"), STARTUP, "setWebhook")
        assert params["url"] == hook
        secret = params["secret_token"]
        # an update posted to the webhook route is handled
        ann = api.user(1004, "Ann", language_code="en")
        await ann.send("/start")
        assert "Ann" in (await ann.wait_message(timeout=10)).text
        await api.wait_idle(timeout=10)
        assert len(api.state.updates) == 0  # delivered by POST and acknowledged
        update = {"update_id": 999, "message": {"message_id": 1, "date": 0, "text": "/start",
                                                "chat": {"id": 1004, "type": "private"}}}
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
                async with http.post(hook, json=update, headers=headers) as r:
                    assert r.status == 403
            async with http.post(hook, data=b"not json",
                                 headers={"X-Telegram-Bot-Api-Secret-Token": secret}) as r:
                assert r.status == 400
            # the desk, on the same port: its page, a sign-in with Telegram's signed initData, a page
            async with http.get(f"{base}/desk/") as r:
                assert r.status == 200 and 'id="login"' in await r.text()
                assert "script-src 'self'" in r.headers["Content-Security-Policy"]
            user = json.dumps({"id": ADMIN, "first_name": "Boss", "language_code": "en"})
            signed = sign_init_data({"user": user, "auth_date": str(int(time.time()))}, TOKEN)
            async with http.post(f"{base}/desk/auth", data={"init_data": signed}) as r:
                assert r.status == 200
                sid = r.cookies["proctor_desk"].value
            async with http.get(f"{base}/desk/items", headers={"Cookie": f"proctor_desk={sid}"}) as r:
                assert r.status == 200 and 'id="items"' in await r.text()
            async with http.get(f"{base}/desk/static/desk.js") as r:
                assert r.status == 200
            # the polling mode's own desk port is not opened in webhook mode
            try:
                async with http.get(f"http://127.0.0.1:{desk_port}/desk/"):
                    raise AssertionError("the desk port answered")
            except aiohttp.ClientConnectorError:
                pass
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()
    output = bot.stdout + bot.stderr
    assert "webhook served on 127.0.0.1" in output and "with the desk at /desk" in output
    for leaked in (secret, SECRET, sid):
        assert leaked not in output
    assert "Traceback" not in output
