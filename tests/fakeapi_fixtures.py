"""Fixtures for tests that drive a real PTB Application against the fake Bot API server.

Import them from conftest.py: ``from tests.fakeapi_fixtures import fake_api, bot_builder, run_bot``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager

import pytest
from telegram.ext import Application, ApplicationBuilder

from sandbox.fakeapi import FakeBotApi

POLL_TIMEOUT = 1  # seconds; stop() does not wait for it, the server answers at once


def application_builder(api: FakeBotApi) -> ApplicationBuilder:
    """An ApplicationBuilder wired to the fake server (add handlers/options, then build)."""
    return ApplicationBuilder().token(api.token).base_url(api.base_url).base_file_url(api.base_file_url)


@asynccontextmanager
async def polling(application: Application) -> AsyncIterator[Application]:
    """Runs the application with long polling for the duration of the block."""
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=POLL_TIMEOUT)
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        await application.shutdown()


@pytest.fixture
async def fake_api() -> AsyncIterator[FakeBotApi]:
    """A started FakeBotApi; stopped after the test."""
    async with FakeBotApi() as api:
        yield api


@pytest.fixture
def bot_builder(fake_api: FakeBotApi) -> ApplicationBuilder:
    """ApplicationBuilder pointed at `fake_api`."""
    return application_builder(fake_api)


@pytest.fixture
async def run_bot() -> AsyncIterator[Callable[[Application], Awaitable[Application]]]:
    """`app = await run_bot(application)` starts polling; everything is stopped after the test."""
    async with AsyncExitStack() as stack:

        async def run(application: Application) -> Application:
            return await stack.enter_async_context(polling(application))

        yield run
