"""A TCP proxy in the test's event loop, between a client and a server, that a test can cut.

    proxy = TcpProxy("127.0.0.1", 5432); await proxy.start()
    url = proxy.url(pg_url)          # the same URL through the proxy
    proxy.cut()                      # the network drops everything from now on

A cut carries nothing either way and closes nothing: bytes already in flight are dropped, a peer's
close is not passed on, and a new connection is accepted and never answered, as when a cable is pulled
or a firewall drops the packets (no reset reaches either side).
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class TcpProxy:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.listen_port = 0
        self.cut_off = False
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task] = set()

    @classmethod
    async def to(cls, url: str) -> TcpProxy:
        parts = urlsplit(url)
        proxy = cls(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.start()
        return proxy

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.listen_port = self._server.sockets[0].getsockname()[1]

    def url(self, url: str) -> str:
        """`url` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        user = f"{parts.username}@" if parts.username else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.listen_port}"))

    def cut(self) -> None:
        self.cut_off = True

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self._writers.append(client_writer)
        if self.cut_off:
            await self._drain_forever(client_reader)
            return
        server_reader, server_writer = await asyncio.open_connection(self.host, self.port)
        self._writers.append(server_writer)
        for reader, writer in ((client_reader, server_writer), (server_reader, client_writer)):
            task = asyncio.create_task(self._pump(reader, writer))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if self.cut_off:
                    continue
                writer.write(data)
                await writer.drain()
        if not self.cut_off:
            writer.close()

    async def _drain_forever(self, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(ConnectionError):
            while await reader.read(65536):
                pass
