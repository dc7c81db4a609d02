"""`proctor run --webhook URL` given bodies Telegram never sends (issue 21, item 8): JSON nested
100,000 deep, and an update whose message has no chat. Each is refused with 400 and one log line,
no traceback; the bot goes on answering."""

from __future__ import annotations

import aiohttp

from tests.process_helpers import STARTUP, ProctorProcess, child_env, free_port

DEEP = b"[" * 100_000 + b"]" * 100_000
NO_CHAT = {"update_id": 991, "message": {"message_id": 1, "date": 0, "text": "/start",
                                         "from": {"id": 1004, "is_bot": False, "first_name": "Ann"}}}
NO_USER = {"update_id": 992, "callback_query": {"id": "q", "chat_instance": "1", "data": "x"}}


async def test_malformed_bodies_get_400_and_one_log_line_each(tmp_path, api):
    port = free_port()
    hook = f"http://127.0.0.1:{port}/hook"
    env = child_env(tmp_path, api, PROCTOR_WEBHOOK_PORT=str(port), PROCTOR_WEBHOOK_LISTEN="127.0.0.1")
    bot = await ProctorProcess.start(["--db", str(tmp_path / "p.db"), "run", "--webhook", hook], env=env,
                                     cwd=tmp_path)
    try:
        [params] = await api.wait_for(lambda: api.calls_to("setWebhook"), STARTUP, "setWebhook")
        headers = {"X-Telegram-Bot-Api-Secret-Token": params["secret_token"], "Content-Type": "application/json"}
        async with aiohttp.ClientSession() as http:
            async with http.post(hook, data=DEEP, headers=headers) as r:
                assert r.status == 400
            for body in (NO_CHAT, NO_USER):
                async with http.post(hook, json=body, headers=headers) as r:
                    assert r.status == 400
        ann = api.user(1004, "Ann", language_code="en")  # and the bot still answers
        await ann.send("/start")
        assert "Ann" in (await ann.wait_message(timeout=10)).text
        assert await bot.stop() == 0
    finally:
        await bot.cleanup()
    output = bot.stdout + bot.stderr
    assert "Traceback" not in output and "Error" not in output, output
    refused = [line for line in output.splitlines() if "webhook: " in line and "refused" in line]
    assert len(refused) == 3, output
    assert "nested too deep" in refused[0] and "message: no chat" in refused[1]
    assert "callback_query.from: no user" in refused[2]
