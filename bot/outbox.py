"""Delivering the outbox: one job sends what is due, retries transient failures with backoff and
marks permanent refusals undeliverable (logged once).

Features register a sender per kind (`add_sender`); a sender renders the message and sends it,
raising TelegramError on failure. Only the job sends, under one lock, so a message goes out once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application

from bank.errors import NotFound
from bot import scheduling
from bot.context import Ctx
from bot.services import Slot, services
from proctor import outbox

log = logging.getLogger(__name__)

JOB = scheduling.OUTBOX
Sender = Callable[[Application, outbox.Outgoing], Awaitable[None]]


def is_permanent(error: TelegramError) -> bool:
    """Blocked, kicked, chat not found or any other 400: trying again cannot help. 5xx, 429 and
    network failures can pass (BadRequest is a NetworkError in PTB: checked first)."""
    return isinstance(error, (Forbidden, BadRequest, ChatMigrated))


def retry_after(error: TelegramError) -> float | None:
    """The wait a 429 asked for, in seconds."""
    if not isinstance(error, RetryAfter):
        return None
    wait = error.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


def register(app: Application) -> None:
    """Hand the delivery job to the scheduler."""
    scheduling.register(app, scheduling.OUTBOX, flush_job)


@dataclass
class _Delivery:
    senders: dict[str, Sender] = field(default_factory=dict)  # kind -> its feature's sender
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # only one flush sends at a time


_STATE: Slot[_Delivery] = Slot("outbox", _Delivery)


def add_sender(app: Application, kind: str, sender: Sender) -> None:
    _STATE.of(app).senders[kind] = sender


def kick(app: Application) -> None:
    """Deliver what is due now, in the background (the job)."""
    arm(app, services(app).now())


def arm(app: Application, at: float) -> None:
    """Make the one outbox job run at `at` (clock time), unless it is already due sooner."""
    # a message queued while a flush is finishing must not wait for the next retry: the new run
    # starts beside the finishing one and waits for its lock
    scheduling.once_unless_sooner(app, scheduling.OUTBOX, at - services(app).now(), overlap=True)


async def flush_job(context: Ctx) -> None:
    """The job: send every message that is due, then wait for the next one."""
    await flush(context.application)


async def flush(app: Application) -> None:
    svc = services(app)
    async with _STATE.of(app).lock:
        # each message leaves the due set: delivered, undeliverable, or retried later
        while batch := await outbox.due(svc.db, svc.now()):
            for message in batch:
                await _deliver(app, message)
        at = await outbox.next_try(svc.db)
    if at is not None:
        arm(app, at)


async def _deliver(app: Application, message: outbox.Outgoing) -> None:
    svc = services(app)
    what = f"outbox {message.id} ({message.kind} {message.ref}) to chat {message.chat_id}"
    sender = _STATE.of(app).senders.get(message.kind)
    try:
        if sender is None:
            raise NotFound(f"no sender for {message.kind!r}")
        await sender(app, message)
    except TelegramError as e:
        error = _scrub(app, f"{type(e).__name__}: {e}")
        if is_permanent(e):
            await outbox.mark_undeliverable(svc.db, message.id, svc.now(), error)
            log.warning("%s is undeliverable: %s", what, error)
        else:
            at = await outbox.retry_later(svc.db, message.id, svc.now(), error, retry_after(e))
            log.info("%s failed (%s); next try in %.0fs", what, error, at - svc.now())
    except NotFound as e:  # what it was about is gone (e.g. /forgetme): nothing left to send
        await outbox.mark_undeliverable(svc.db, message.id, svc.now(), f"gone: {e}")
        log.warning("%s is undeliverable: %s", what, e)
    except Exception as e:  # a bug in rendering: keep the message, try again later
        log.exception("%s could not be sent", what)
        await outbox.retry_later(svc.db, message.id, svc.now(), _scrub(app, f"{type(e).__name__}: {e}"))
    else:
        await outbox.mark_delivered(svc.db, message.id, svc.now())


def _scrub(app: Application, text: str) -> str:
    return text.replace(services(app).settings.telegram_bot_token.get_secret_value(), "<token>")


async def on_startup(app: Application) -> None:
    """Say what is waiting, then deliver it in the background: start-up never waits for Telegram."""
    c = await outbox.counts(services(app).db)
    log.info("outbox: %d pending, %d undeliverable", c[outbox.Delivery.pending], c[outbox.Delivery.undeliverable])
    kick(app)
