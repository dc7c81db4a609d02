"""PTB's HTTP transport over one aiohttp ClientSession: the bot's Bot API calls and its getUpdates.

python-telegram-bot documents `telegram.request.BaseRequest` as the seam for another HTTP library;
this is that seam filled with aiohttp, which the project already uses for the desk and the webhook.
A bare PTB bot spends most of an update's CPU in httpx (about 0.8 ms a request); aiohttp does the
same requests for less (docs/benchmarks.md).

Timeouts, as PTB passes them (`read`, `write`, `connect`, `pool`):
- **pool**: aiohttp waits for a free connection inside its `connect` timeout, with no error of its
  own. Here a semaphore as large as the pool is taken first, within the pool timeout; on expiry PTB's
  TimedOut says the request was *not* sent, as HTTPXRequest's pool timeout does. The connector's own
  limit is the same size, so aiohttp never queues behind the semaphore.
- **connect**: `ClientTimeout.sock_connect` (and `connect`, which then covers only a new socket).
- **read**: `ClientTimeout.sock_read`, the longest wait for the next bytes of the answer.
- **write**: aiohttp has none. The whole exchange after the connection is taken is bounded by
  `ClientTimeout.total` = connect + write + read, so a body that cannot be written fails within the
  write time plus the time the answer would have had.

Bodies: the parameters as one JSON object (PTB's `RequestData.json_payload`), which the Bot API takes
and which costs less to make than the form PTB's httpx client sends; with files, a multipart form of
the same fields and the files (`RequestData.multipart_data`).

Errors: any timeout -> TimedOut; any other aiohttp/OS connection error -> NetworkError. An HTTP
status (400, 403, 429, 5xx) is returned as it is, for PTB's own mapping (BadRequest, Forbidden,
RetryAfter, NetworkError).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

_JSON = {"Content-Type": "application/json"}
POOL_TIMEOUT_MESSAGE = ("Pool timeout: All connections in the connection pool are occupied. Request was *not* "
                        "sent to Telegram. Consider adjusting the connection pool size or the pool timeout.")


class AiohttpRequest(BaseRequest):
    """A `BaseRequest` over one `aiohttp.ClientSession`, created in `initialize()` inside the running
    loop, with keep-alive connection pooling; `shutdown()` closes it, and `initialize()` after that
    opens a new one."""

    def __init__(self, connection_pool_size: int = 1, *, read_timeout: float | None = 5.0,
                 write_timeout: float | None = 5.0, connect_timeout: float | None = 5.0,
                 pool_timeout: float | None = 1.0, media_write_timeout: float | None = 20.0,
                 proxy: str | None = None) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._proxy = proxy
        self._session: aiohttp.ClientSession | None = None
        self._slots: asyncio.Semaphore | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is not None and not self._session.closed:
            return
        connector = aiohttp.TCPConnector(limit=self._pool_size, limit_per_host=self._pool_size)
        self._session = aiohttp.ClientSession(connector=connector, headers={"User-Agent": self.USER_AGENT})
        self._slots = asyncio.Semaphore(self._pool_size)

    async def shutdown(self) -> None:
        if self._session is None or self._session.closed:
            return
        await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session, slots = self._session, self._slots
        if session is None or session.closed or slots is None:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool_timeout if isinstance(pool_timeout, DefaultValue) else pool_timeout
        write = (self._media_write_timeout if files else self._write_timeout) \
            if isinstance(write_timeout, DefaultValue) else write_timeout
        total = None if None in (connect, write, read) else (connect or 0) + (write or 0) + (read or 0)
        timeout = aiohttp.ClientTimeout(total=total, connect=connect, sock_connect=connect, sock_read=read)
        body = _body(request_data, files)
        headers = _JSON if isinstance(body, bytes) else None
        try:
            async with asyncio.timeout(pool):
                await slots.acquire()
        except TimeoutError as err:
            raise TimedOut(POOL_TIMEOUT_MESSAGE) from err
        try:
            async with session.request(method, url, data=body, headers=headers, timeout=timeout,
                                       proxy=self._proxy) as response:
                return response.status, await response.read()
        except TimeoutError as err:  # aiohttp's ServerTimeoutError and ConnectionTimeoutError are ones too
            raise TimedOut from err
        except (aiohttp.ClientError, OSError) as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err
        finally:
            slots.release()


def _body(request_data: RequestData | None, files: dict[str, Any] | None) -> aiohttp.FormData | bytes | None:
    """The request's body: the parameters as one JSON object (each value JSON-encoded where it is not a
    plain string, as PTB encodes them), or with files a multipart form of the same fields and the
    files. The Bot API takes either; JSON costs less to make than a form (no percent-encoding)."""
    if request_data is None:
        return None
    if not files:
        return request_data.json_payload if request_data.parameters else None
    form = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mime) in files.items():
        data = content if isinstance(content, bytes) else _read(content)
        form.add_field(name, data, filename=filename, content_type=mime)
    return form


def _read(handle: Any) -> bytes:
    with contextlib.suppress(AttributeError, OSError):
        handle.seek(0)
    data: bytes = handle.read()
    return data
