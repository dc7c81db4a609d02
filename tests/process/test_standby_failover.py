"""Two real `proctor run` processes on one PostgreSQL record (bot/leadership.py), a candidate mid-exam:
the active is killed (-9), frozen (SIGSTOP) or cut off from PostgreSQL (a TCP proxy), and the standby
takes over within 5 s and goes on from the record: the candidate's next answer is handled at the
question where the exam stood, no answer lost or counted twice, no message sent twice."""

from __future__ import annotations

import asyncio
import re
import signal
import time

from tests.postgres_fixtures import pg_rows
from tests.process_helpers import wait_update_done
from tests.standby_world import (
    EXIT_STOOD_DOWN,
    STEP_DOWN,
    TAKEOVER,
    answers,
    leads,
    sent_twice,
    start_paper,
    two_bots,
    type_answer,
)
from tests.tcp_proxy import TcpProxy


async def mid_exam(api, url: str):
    """Ann starts the first paper and answers its first question; returns her and her attempt's id."""
    ann = api.user(1001, "Ann", language_code="en")
    await start_paper(api, ann)
    await type_answer(api, ann, "批量大小", next_q=2)
    await wait_update_done(url, api)  # the screen moves before the update is marked done
    [(attempt,)] = pg_rows(url, "SELECT id FROM attempts WHERE status = 'running'")
    return ann, attempt


async def goes_on(api, url: str, ann, attempt: int) -> None:
    """Ann's next answer is handled by the new active at the question where the exam stood."""
    assert pg_rows(url, "SELECT current_pos FROM attempts WHERE id = %s", attempt) == [(1,)]
    await type_answer(api, ann, "显存", next_q=3, timeout=15)
    assert answers(url) == [(0, "批量大小"), (1, "显存")]  # none lost, none twice
    assert pg_rows(url, "SELECT status, current_pos FROM attempts WHERE id = %s", attempt) == [("running", 2)]
    assert sent_twice(api, ann.id) == []


async def test_the_active_killed_mid_exam_the_standby_leads_within_5_s_and_the_exam_goes_on(tmp_path, api,
                                                                                          pg_record_url):
    a, b = await two_bots(tmp_path, api, pg_record_url, pg_record_url)
    try:
        ann, attempt = await mid_exam(api, pg_record_url)
        killed = time.monotonic()
        await a.kill()
        await leads(b, 2, timeout=TAKEOVER + 1)
        assert time.monotonic() - killed < TAKEOVER
        await goes_on(api, pg_record_url, ann, attempt)
        assert await b.stop() == 0
    finally:
        await a.cleanup()
        await b.cleanup()


async def test_the_active_frozen_mid_exam_is_taken_over_and_woken_sends_nothing_and_exits(tmp_path, api,
                                                                                        pg_record_url):
    a, b = await two_bots(tmp_path, api, pg_record_url, pg_record_url)
    try:
        ann, attempt = await mid_exam(api, pg_record_url)
        a.proc.send_signal(signal.SIGSTOP)
        frozen = time.monotonic()
        await leads(b, 2, timeout=TAKEOVER + 1)
        assert time.monotonic() - frozen < TAKEOVER
        await goes_on(api, pg_record_url, ann, attempt)
        calls = len(api.calls)
        a.proc.send_signal(signal.SIGCONT)
        assert await a.wait(5) == EXIT_STOOD_DOWN
        # woken, its watchdog finds it overdue, or its lease thread's renew finds the lease taken: either way
        # one line, and nothing sent
        assert a.stderr.count("stopped leading") == 1
        assert re.search(r"stopped leading \(epoch 1, (overdue|lost)\)", a.stderr), a.stderr
        await asyncio.sleep(0.5)
        assert api.calls[calls:] == []  # the woken process sent nothing (b is idle)
        assert answers(pg_record_url) == [(0, "批量大小"), (1, "显存")]
        assert await b.stop() == 0
    finally:
        if a.running:
            a.proc.send_signal(signal.SIGCONT)
        await a.cleanup()
        await b.cleanup()


async def test_the_active_cut_off_from_postgresql_stops_within_2_s_and_the_standby_leads_within_5(
        tmp_path, api, pg_record_url):
    proxy = await TcpProxy.to(pg_record_url)
    a, b = await two_bots(tmp_path, api, proxy.url(pg_record_url), pg_record_url)
    try:
        ann, attempt = await mid_exam(api, pg_record_url)
        proxy.cut()
        cut = time.monotonic()
        assert await a.wait(STEP_DOWN + 1) == EXIT_STOOD_DOWN
        assert time.monotonic() - cut < STEP_DOWN + 0.5  # within 2 s of its last good renew's start
        assert "stopped leading (epoch 1, overdue)" in a.stderr
        await leads(b, 2, timeout=TAKEOVER + 1)
        assert time.monotonic() - cut < TAKEOVER
        await goes_on(api, pg_record_url, ann, attempt)
        assert await b.stop() == 0
    finally:
        await a.cleanup()
        await b.cleanup()
        await proxy.close()
