"""Starting and stopping an Application by hand (sandbox, tests, benchmarks), as run_polling would."""

from __future__ import annotations

from telegram.ext import Application


async def start_app(app: Application, *, poll_timeout: int = 1) -> None:
    """initialize → post_init → start → polling: the same steps run_polling takes."""
    await app.initialize()
    if app.post_init:
        await app.post_init(app)
    await app.start()
    if app.updater is None:
        raise RuntimeError("the Application was built without an Updater")
    await app.updater.start_polling(poll_interval=0.0, timeout=int(poll_timeout), drop_pending_updates=False)


async def stop_app(app: Application) -> None:
    if app.updater and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
        if app.post_stop:
            await app.post_stop(app)
    await app.shutdown()
    if app.post_shutdown:
        await app.post_shutdown(app)
