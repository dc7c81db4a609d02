"""Two `proctor run --webhook` processes on one PostgreSQL record, each with its own URL: the standby
serves nothing and sets no webhook while it waits; when the active is killed it leads and points the
webhook at its own URL, and the updates Telegram posts there are handled."""

from __future__ import annotations

import time

from tests.process_helpers import free_port
from tests.standby_world import STARTUP, TAKEOVER, leads, stands_by, start_bot


async def test_the_new_active_sets_the_webhook_to_its_own_url(tmp_path, api, pg_record_url):
    ports = {name: free_port() for name in ("a", "b")}
    hooks = {name: f"http://127.0.0.1:{port}/hook" for name, port in ports.items()}

    async def bot(name: str):
        return await start_bot(tmp_path, api, pg_record_url, name, "--webhook", hooks[name],
                               PROCTOR_WEBHOOK_PORT=str(ports[name]), PROCTOR_WEBHOOK_LISTEN="127.0.0.1")

    a = await bot("a")
    b = None
    try:
        await leads(a, 1)
        [params] = await api.wait_for(lambda: api.calls_to("setWebhook"), STARTUP, "a's setWebhook")
        assert params["url"] == hooks["a"]
        b = await bot("b")
        await stands_by(b)
        assert [p["url"] for p in api.calls_to("setWebhook")] == [hooks["a"]]  # the standby set none
        killed = time.monotonic()
        await a.kill()
        await leads(b, 2, timeout=TAKEOVER + 1)
        assert time.monotonic() - killed < TAKEOVER
        await api.wait_for(lambda: len(api.calls_to("setWebhook")) == 2, STARTUP, "b's setWebhook")
        assert api.calls_to("setWebhook")[-1]["url"] == hooks["b"]
        ann = api.user(1004, "Ann", language_code="en")
        await ann.send("/start")  # posted to b's URL
        assert "Ann" in (await ann.wait_message(timeout=10)).text
        assert await b.stop() == 0
    finally:
        await a.cleanup()
        if b is not None:
            await b.cleanup()
