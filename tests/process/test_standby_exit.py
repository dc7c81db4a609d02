"""A process whose campaign stops leading exits at once with its own status and one log line
(bot.leadership.stood_down), as `proctor run` does: a real child process on a real PostgreSQL, its
lease taken from under it, or its connection to PostgreSQL cut (tests/tcp_proxy.py)."""

from __future__ import annotations

import asyncio
import sys
import time

import psycopg

from bot.leadership import EXIT_STOOD_DOWN
from tests.process_helpers import REPO, ProctorProcess, child_env
from tests.tcp_proxy import TcpProxy

STEP_DOWN = 2.0  # an active stops within this of failing to renew

# a campaign wired as `proctor run` wires it, without the bot
CHILD = """
import sys, time
from bot.leadership import stood_down
from bot.logging_setup import setup_logging
from proctor.storage.campaign import Campaign
setup_logging()
Campaign(sys.argv[1], on_active=lambda epoch: print(f"active {epoch}", flush=True), on_stopped=stood_down).start()
time.sleep(60)
"""


async def child(url: str, tmp_path) -> ProctorProcess:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, url, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=child_env(tmp_path), cwd=REPO)
    return ProctorProcess(proc)


async def test_a_process_whose_lease_was_taken_exits_with_its_status_and_one_line(pg_record_url, tmp_path):
    active = await child(pg_record_url, tmp_path)
    try:
        await active.wait_output("active 1")
        with psycopg.connect(pg_record_url, autocommit=True) as conn:
            conn.execute("UPDATE leader_lease SET holder = 'other', epoch = epoch + 1")
        assert await active.wait(5) == EXIT_STOOD_DOWN
        assert active.stderr.count("stopped leading") == 1, active.stderr
        assert f"stopped leading (epoch 1, lost): exiting with status {EXIT_STOOD_DOWN}" in active.stderr
    finally:
        await active.cleanup()


async def test_a_process_cut_off_from_postgresql_exits_within_2_s(pg_record_url, tmp_path):
    proxy = await TcpProxy.to(pg_record_url)
    active = await child(proxy.url(pg_record_url), tmp_path)
    try:
        await active.wait_output("active 1")
        await asyncio.sleep(1.5)  # a renew or two
        proxy.cut()
        cut = time.monotonic()
        assert await active.wait(STEP_DOWN + 1) == EXIT_STOOD_DOWN
        assert time.monotonic() - cut < STEP_DOWN
        assert active.stderr.count("stopped leading") == 1 and "(epoch 1, overdue)" in active.stderr
    finally:
        await active.cleanup()
        await proxy.close()
