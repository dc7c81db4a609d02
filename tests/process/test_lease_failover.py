"""Two real processes run for the lease on one PostgreSQL (tests/lease_runner.py), each writing a counter
row every 100 ms under `fence` while it leads. The active is killed (-9), frozen (SIGSTOP) or cut off
(tests/tcp_proxy.py between it and PostgreSQL); the standby leads within 5 s, and the counter's rows
never interleave: every row of the old epoch was committed before the first of the new one."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
import time

import psycopg
import pytest

from tests.lease_runner import COUNTER_DDL
from tests.process_helpers import REPO, ProctorProcess, child_env
from tests.tcp_proxy import TcpProxy

TAKEOVER = 5.0  # the standby leads within this of the active's death
STOP = 2.0  # a cut-off active stops within this of its last good renew


@pytest.fixture
def url(pg_record_url):
    with psycopg.connect(pg_record_url, autocommit=True) as conn:
        conn.execute(COUNTER_DDL)
    return pg_record_url


async def runner(url: str, tmp_path, *flags: str) -> ProctorProcess:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.lease_runner", url, *flags,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=child_env(tmp_path), cwd=REPO,
    )
    return ProctorProcess(proc)


async def event(runner: ProctorProcess, name: str, timeout: float = 5.0) -> dict[str, str]:
    """The fields of the runner's first `name` line (`active epoch=2 at=123.456` -> {"epoch": "2", ...})."""
    line = re.compile(rf"^{name} (.*)\n", re.M)
    try:
        async with asyncio.timeout(timeout):
            while not (found := line.search(runner.stdout)):
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"no {name!r} line in {timeout} s:\n{runner.stdout}\n{runner.stderr}") from None
    return dict(word.split("=", 1) for word in found.group(1).split())


def rows(url: str) -> list[tuple[int, str, int]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT id, holder, epoch FROM lease_counter ORDER BY id").fetchall()


async def written_by(url: str, epoch: int, timeout: float = 3.0) -> None:
    async with asyncio.timeout(timeout):
        while not any(e == epoch for _, _, e in await asyncio.to_thread(rows, url)):
            await asyncio.sleep(0.05)


def assert_one_writer_at_a_time(url: str, a_holder: str, b_holder: str) -> None:
    written = rows(url)
    epochs = [epoch for _, _, epoch in written]
    assert epochs == sorted(epochs), "rows of two epochs interleave: two writers at once"
    assert {(holder, epoch) for _, holder, epoch in written} == {(a_holder, 1), (b_holder, 2)}


async def two_runners(url_a: str, url_b: str, tmp_path, *a_flags: str) -> tuple[ProctorProcess, ProctorProcess, str, str]:
    a = await runner(url_a, tmp_path, *a_flags)
    a_holder = (await event(a, "standby"))["holder"]
    assert (await event(a, "active"))["epoch"] == "1"
    b = await runner(url_b, tmp_path)
    b_holder = (await event(b, "standby"))["holder"]
    await written_by(url_b, 1)
    await asyncio.sleep(0.5)  # b polls a few times, a renews and writes
    return a, b, a_holder, b_holder


async def test_the_standby_leads_within_5_s_of_the_active_killed(url, tmp_path):
    a, b, a_holder, b_holder = await two_runners(url, url, tmp_path)
    try:
        killed = time.monotonic()
        await a.kill()
        took = float((await event(b, "active", timeout=TAKEOVER + 1))["at"]) - killed
        print(f"takeover after kill -9: {took:.2f} s")
        assert took < TAKEOVER
        await written_by(url, 2)
        assert_one_writer_at_a_time(url, a_holder, b_holder)
    finally:
        await a.cleanup()
        await b.cleanup()


async def test_a_frozen_active_is_taken_over_and_its_write_refused_when_it_wakes(url, tmp_path):
    a, b, a_holder, b_holder = await two_runners(url, url, tmp_path, "--ignore-stop")
    try:
        a.proc.send_signal(signal.SIGSTOP)
        frozen = time.monotonic()
        active = await event(b, "active", timeout=TAKEOVER + 1)
        took = float(active["at"]) - frozen
        print(f"takeover after SIGSTOP: {took:.2f} s")
        assert took < TAKEOVER and active["epoch"] == "2"
        await written_by(url, 2)
        a.proc.send_signal(signal.SIGCONT)
        assert (await event(a, "refused"))["epoch"] == "1"  # it writes on, as a write under way would: refused
        assert (await event(a, "stopped"))["epoch"] == "1"
        assert await a.wait(5) == 0
        await asyncio.sleep(0.3)  # b writes on
        assert_one_writer_at_a_time(url, a_holder, b_holder)
    finally:
        if a.running:
            a.proc.send_signal(signal.SIGCONT)
        await a.cleanup()
        await b.cleanup()


async def test_an_active_cut_off_from_postgresql_stops_within_2_s_and_the_standby_leads_within_5(url, tmp_path):
    proxy = await TcpProxy.to(url)
    a, b, a_holder, b_holder = await two_runners(proxy.url(url), url, tmp_path)
    try:
        proxy.cut()
        cut = time.monotonic()
        stopped = await event(a, "stopped", timeout=STOP + 1)
        assert stopped["reason"] == "overdue"
        since_renew = float(stopped["at"]) - float(stopped["last_renew"])
        print(f"cut off: stopped {since_renew:.2f} s after its last renew began, "
              f"{float(stopped['at']) - cut:.2f} s after the cut")
        assert since_renew <= STOP and float(stopped["last_renew"]) < cut
        took = float((await event(b, "active", timeout=TAKEOVER + 1))["at"]) - cut
        print(f"takeover after the cut: {took:.2f} s")
        assert took < TAKEOVER
        assert await a.wait(5) == 0
        await written_by(url, 2)
        assert_one_writer_at_a_time(url, a_holder, b_holder)
    finally:
        await a.cleanup()
        await b.cleanup()
        await proxy.close()
