"""Starting and stopping the Application with long polling: `proctor run` (`run`), and the sandbox,
tests and benchmarks (`start_app`, `stop_app`), in the steps PTB's run_polling takes, with the bot's
own polling loop (bot/polling.py) in the Updater's place."""

from __future__ import annotations

import asyncio
import signal

from telegram.ext import Application

from bot.polling import POLL_TIMEOUT, POLLER

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGABRT)


async def start_app(app: Application, *, poll_timeout: int = POLL_TIMEOUT) -> None:
    """initialize → post_init → start → polling."""
    await app.initialize()
    if app.post_init:
        await app.post_init(app)
    await app.start()
    await POLLER.of(app).start(app, timeout=int(poll_timeout))


async def stop_app(app: Application) -> None:
    """Polling stops (what it claimed is confirmed), the Application handles every queued update
    and stops, then shuts down; each step only if it was reached."""
    await POLLER.of(app).stop()
    if app.running:
        await app.stop()
        if app.post_stop:
            await app.post_stop(app)
    await app.shutdown()
    if app.post_shutdown:
        await app.post_shutdown(app)


def run(app: Application, loop: asyncio.AbstractEventLoop) -> int:
    """Run the bot with long polling until SIGINT / SIGTERM (0), or until Telegram rejects the
    token (1, logged)."""
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        return loop.run_until_complete(_serve(app, stop))
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        loop.close()


async def _serve(app: Application, stop: asyncio.Event) -> int:
    poller = POLLER.of(app)
    try:
        await start_app(app)
        stopping = asyncio.ensure_future(stop.wait())
        polling = poller.task
        await asyncio.wait([stopping] if polling is None else [stopping, polling],
                           return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
    finally:
        await stop_app(app)
    return 1 if poller.rejected else 0
