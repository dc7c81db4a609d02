"""Long polling by the bot's own loop: a batch of updates is confirmed to Telegram only once it is claimed.

Telegram forgets every update below the offset of the next getUpdates. PTB's Updater moves that
offset on as soon as it has put a batch on the update queue, before anything has claimed it, so a
kill in between loses updates Telegram will never send again. Here the Application has no Updater
(`updater(None)`, bot/app.py); `Poller` fetches with `Bot.get_updates`, hands each batch to the door
(bot/intake.py `take_in`: claimed and stored in one transaction, then queued) and only then moves
the offset on. A batch that cannot be claimed (the database locked or failing) is fetched again
later: Telegram still holds it.

Errors are met as PTB's Updater meets them (its network retry loop): a 429 waits what it says and
half a second more, a timed-out poll is repeated at once, other Bot API errors (a network failure, a
Conflict with another poller or a webhook) are logged and retried after 1 s, then 1.5 times longer
each time up to 30 s; a rejected token ends polling. Stopping cancels a poll in flight (what it
would have brought stays unconfirmed), lets a batch being claimed finish, and confirms what was
claimed with one last getUpdates, as the Updater does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram import Update
from telegram.error import InvalidToken, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application

from bot import intake
from bot.pacing import seconds
from bot.services import Slot

log = logging.getLogger(__name__)

POLL_TIMEOUT = 10  # seconds a getUpdates waits for updates (PTB's run_polling default)
RETRY_AFTER_SLACK = 0.5  # added to a 429's retry_after, as PTB does
MAX_WAIT = 30.0


def next_wait(wait: float) -> float:
    """The wait after another failure: 1 s, then 1.5 times the last, at most 30 s."""
    return 1.0 if wait == 0 else min(MAX_WAIT, 1.5 * wait)


class Poller:
    """The polling loop of one Application: `start` it once the Application runs, `stop` it before
    the Application stops. `task` ends when polling stops or the token is rejected (`rejected`)."""

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        self.rejected = False
        self._app: Application | None = None
        self._timeout = POLL_TIMEOUT
        self._offset: int | None = None  # the next getUpdates' offset: every update below it is claimed
        self._confirmed: int | None = None  # the offset Telegram last received
        self._stopping = asyncio.Event()

    async def start(self, app: Application, *, timeout: int = POLL_TIMEOUT) -> None:
        """Delete a webhook (getUpdates is refused while one is set), as PTB's Updater does before
        polling, keeping the updates waiting; then poll in a task of its own."""
        self._app, self._timeout = app, timeout
        await app.bot.delete_webhook(drop_pending_updates=False)
        self.task = asyncio.create_task(self._poll(app), name="polling")

    async def stop(self) -> None:
        """Stop polling and confirm what was claimed; harmless if it never started or already ended."""
        self._stopping.set()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
            await self._confirm()

    async def _poll(self, app: Application) -> None:
        wait = 0.0
        while not self._stopping.is_set():
            if wait and await self._stopped_within(wait):
                return
            try:
                batch = await self._fetch(app)
            except RetryAfter as e:
                wait = seconds(e.retry_after) + RETRY_AFTER_SLACK
                log.warning("getUpdates: flood control, polling again in %.1f s", wait)
                continue
            except TimedOut:  # the long poll outlived the client's timeout: poll again at once
                wait = 0.0
                continue
            except InvalidToken:
                self.rejected = True
                log.error("the Bot API rejected TELEGRAM_BOT_TOKEN (revoked?): polling stops")
                return
            except TelegramError as e:  # a network failure, a 5xx, a Conflict
                wait = next_wait(wait)
                log.warning("getUpdates failed (%s); polling again in %.1f s", e, wait)
                continue
            except Exception:  # a batch PTB cannot decode: not confirmed, fetched again (PTB's Updater too)
                wait = next_wait(wait)
                log.exception("getUpdates brought what cannot be read; polling again in %.1f s", wait)
                continue
            if batch is None:  # stopped while waiting for updates
                return
            if batch:
                try:
                    await intake.take_in(app, batch)
                except Exception:  # nothing claimed: not confirmed either, so Telegram sends it again
                    wait = next_wait(wait)
                    log.exception("could not claim %d update(s); fetching them again in %.1f s", len(batch), wait)
                    continue
                self._offset = batch[-1].update_id + 1  # the next getUpdates confirms the batch
            wait = 0.0

    async def _fetch(self, app: Application) -> tuple[Update, ...] | None:
        """The next batch (confirming the last), or None if polling stopped first."""
        offset = self._offset
        fetch = asyncio.ensure_future(app.bot.get_updates(offset=offset, timeout=self._timeout))
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait((fetch, stopping), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not fetch.done():
                fetch.cancel()
            await asyncio.wait((fetch, stopping))  # both ended: nothing left running or unread
        if fetch.cancelled():
            return None
        batch = fetch.result()  # raises what the poll raised
        self._confirmed = offset
        return batch

    async def _stopped_within(self, wait: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), wait)
        return self._stopping.is_set()

    async def _confirm(self) -> None:
        """Tell Telegram the updates claimed since the last poll are taken (a poll of 0 s)."""
        if self._app is None or self.rejected or self._offset is None or self._offset == self._confirmed:
            return
        try:
            await self._app.bot.get_updates(offset=self._offset, timeout=0)
            self._confirmed = self._offset
        except TelegramError as e:  # claimed all the same: a delivery again is a repeat, ignored
            log.warning("could not confirm the last updates on stopping (%s); they come again as repeats", e)


POLLER: Slot[Poller] = Slot("poller", Poller)
