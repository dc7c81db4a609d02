"""The lease's connection fails fast instead of hanging: a slow statement, a connect into a dead
network, a statement on a connection cut mid-way (tests/tcp_proxy.py between it and PostgreSQL)."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from proctor.storage.campaign import abort
from proctor.storage.lease import Timings, connect
from tests.tcp_proxy import TcpProxy


def test_a_statement_longer_than_the_call_timeout_is_cancelled_by_postgresql(pg_url):
    with connect(pg_url, Timings(call_timeout=1.2)) as conn:
        began = time.monotonic()
        with pytest.raises(psycopg.errors.QueryCanceled):
            conn.execute("SELECT pg_sleep(5)")
        assert 1.1 < time.monotonic() - began < 1.6


async def test_a_connect_into_a_dead_network_fails_within_its_timeout(pg_url):
    proxy = await TcpProxy.to(pg_url)
    proxy.cut()
    try:
        began = time.monotonic()
        with pytest.raises(psycopg.OperationalError):
            await asyncio.to_thread(connect, proxy.url(pg_url))
        assert time.monotonic() - began < 2.6  # connect_timeout: 2 s, libpq's least
    finally:
        await proxy.close()


async def test_a_statement_on_a_cut_connection_returns_when_its_socket_is_shut(pg_url):
    proxy = await TcpProxy.to(pg_url)
    try:
        conn = await asyncio.to_thread(connect, proxy.url(pg_url))
        await asyncio.to_thread(conn.execute, "SELECT 1")
        proxy.cut()
        waiting = asyncio.ensure_future(asyncio.to_thread(conn.execute, "SELECT 1"))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # nothing comes back through a cut network
        began = time.monotonic()
        abort(conn)
        with pytest.raises(psycopg.OperationalError):
            await asyncio.wait_for(waiting, 1)
        assert time.monotonic() - began < 0.5
        conn.close()
    finally:
        await proxy.close()
