"""Delivering the outbox: one job places what is due, one lane per chat sends it, retrying
transient failures with backoff and marking permanent refusals undeliverable (logged once).

Features register a sender per kind (`add_sender`, keyed by `proctor.outbox.Kind`); a sender renders
the message and sends it, raising TelegramError on failure. It gets the delivery's turn at the
pacer (`pacing.Turn`, None when the application has no pacer) and passes it as `rate_limit_args`
with its Bot API calls: its first send uses the token the lane took, so a message costs one.

A chat's messages go out in order, one at a time, from its lane (a task that sends the chat's
oldest due message, then the next, until none is due). Lanes of different chats run side by side,
each waiting for its turn at the pacer (bot/pacing.py: 1 a second per chat, 30 a second overall,
after the replies), so a lead's hundred cards never hold up a candidate's result card; a kind whose
sender only edits a message already there (an invited attempt's card) takes no turn. A lane
renders a message only once its turn has come. Nothing is kept in memory that SQLite does not
hold: a row stays pending until it is sent, so a restart (or kill -9) resumes the backlog.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application

from bank.errors import NotFound
from bot import pacing, scheduling
from bot.context import Ctx
from bot.scheduling import JobKind
from bot.services import Slot, services
from proctor import outbox

log = logging.getLogger(__name__)

JOB = JobKind.outbox
Sender = Callable[[Application, outbox.Outgoing, pacing.Turn | None], Awaitable[None]]


def is_permanent(error: TelegramError) -> bool:
    """Blocked, kicked, chat not found or any other 400: trying again cannot help. 5xx, 429 and
    network failures can pass (BadRequest is a NetworkError in PTB: checked first)."""
    return isinstance(error, (Forbidden, BadRequest, ChatMigrated))


def retry_after(error: TelegramError) -> float | None:
    """The wait a 429 asked for, in seconds."""
    return pacing.seconds(error.retry_after) if isinstance(error, RetryAfter) else None


def register(app: Application) -> None:
    """Hand the delivery job to the scheduler."""
    scheduling.register(app, JobKind.outbox, flush_job)


# a sender that only edits a message already there takes no turn at the pacer (an edit is not one of
# Telegram's messages); this many render at once, so a backlog after a restart is not read all at once
UNPACED_AT_ONCE = 4


@dataclass
class _Delivery:
    senders: dict[outbox.Kind, Sender] = field(default_factory=dict)  # kind -> its feature's sender
    unpaced: set[outbox.Kind] = field(default_factory=set)  # kinds whose sender edits (add_sender)
    edits: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(UNPACED_AT_ONCE))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one flush places lanes at a time
    lanes: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # chat -> the task sending to it
    # chats a flush skipped because their lane was running: the lane looks once more before it ends
    recheck: set[int] = field(default_factory=set)


_STATE: Slot[_Delivery] = Slot("outbox", _Delivery)


def add_sender(app: Application, kind: outbox.Kind, sender: Sender, *, paced: bool = True) -> None:
    """`paced=False`: the sender edits a message already there; its turn took no token (a send it
    falls back to waits as bulk)."""
    state = _STATE.of(app)
    state.senders[kind] = sender
    if not paced:
        state.unpaced.add(kind)


def senders(app: Application) -> dict[outbox.Kind, Sender]:
    """Each kind's registered sender."""
    return dict(_STATE.of(app).senders)


def kick(app: Application) -> None:
    """Deliver what is due now, in the background (the job)."""
    arm(app, services(app).now())


def arm(app: Application, at: float) -> None:
    """Make the one outbox job run at `at` (clock time), unless it is already due sooner."""
    # a message queued while a flush is finishing must not wait for the next retry: the new run
    # starts beside the finishing one and waits for its lock
    scheduling.once_unless_sooner(app, JobKind.outbox, at - services(app).now(), overlap=True)


async def flush_job(context: Ctx) -> None:
    """The job: send every message that is due, then wait for the next one."""
    await flush(context.application)


async def flush(app: Application) -> None:
    """Give every chat with a message due a lane (unless it has one), then wait for the next try."""
    svc, state = services(app), _STATE.of(app)
    async with state.lock:
        state.recheck |= state.lanes.keys()
        while heads := await outbox.due_heads(svc.db, svc.now(), skip=list(state.lanes)):
            for message in heads:
                if message.chat_id not in state.lanes:
                    state.lanes[message.chat_id] = asyncio.create_task(
                        _lane(app, message), name=f"outbox-lane:{message.chat_id}")
        at = await outbox.next_try(svc.db, after=svc.now())
    if at is not None:
        arm(app, at)


async def _lane(app: Application, first: outbox.Outgoing) -> None:
    """Send `first`, then the chat's next due message, until none is due or one must wait."""
    svc, state, chat = services(app), _STATE.of(app), first.chat_id
    message: outbox.Outgoing | None = first
    try:
        while True:
            if message is None:
                state.recheck.discard(chat)
                message = await outbox.next_for(svc.db, chat, svc.now())
                if message is None and chat not in state.recheck:
                    return
                continue
            if not await _deliver(app, message):
                return  # its next try is armed; a later flush gives the chat a lane again
            message = None
    except Exception:  # the database failed: what is pending stays pending, a later flush takes it
        log.exception("outbox: the lane of chat %s stopped", chat)
        arm(app, svc.now() + outbox.FIRST_RETRY)
    finally:
        state.lanes.pop(chat, None)


async def on_stop(app: Application) -> None:
    """Stop the lanes (what they were sending stays pending and goes after the restart)."""
    lanes = list(_STATE.of(app).lanes.values())
    for lane in lanes:
        lane.cancel()
    await asyncio.gather(*lanes, return_exceptions=True)


async def _deliver(app: Application, message: outbox.Outgoing) -> bool:
    """Send one message once its turn at the pacer has come. False if it must be tried later."""
    svc = services(app)
    what = f"outbox {message.id} ({message.kind} {message.ref}) to chat {message.chat_id}"
    state = _STATE.of(app)
    sender = state.senders.get(message.kind)
    try:
        if sender is None:
            raise NotFound(f"no sender for {message.kind!r}")
        if message.kind in state.unpaced:
            async with state.edits:
                await sender(app, message, await pacing.bulk_turn(app, message.chat_id, take=False))
        else:
            await sender(app, message, await pacing.bulk_turn(app, message.chat_id))
    except TelegramError as e:
        error = _scrub(app, f"{type(e).__name__}: {e}")
        if is_permanent(e):
            await outbox.mark_undeliverable(svc.db, message.id, svc.now(), error)
            log.warning("%s is undeliverable: %s", what, error)
            return True
        at = await outbox.retry_later(svc.db, message.id, svc.now(), error, retry_after(e))
        log.info("%s failed (%s); next try in %.0fs", what, error, at - svc.now())
        arm(app, at)
        return False
    except NotFound as e:  # what it was about is gone (e.g. /forgetme): nothing left to send
        await outbox.mark_undeliverable(svc.db, message.id, svc.now(), f"gone: {e}")
        log.warning("%s is undeliverable: %s", what, e)
        return True
    except Exception as e:  # a bug in rendering: keep the message, try again later
        log.exception("%s could not be sent", what)
        arm(app, await outbox.retry_later(svc.db, message.id, svc.now(), _scrub(app, f"{type(e).__name__}: {e}")))
        return False
    await outbox.mark_delivered(svc.db, message.id, svc.now())
    return True


def _scrub(app: Application, text: str) -> str:
    return text.replace(services(app).settings.telegram_bot_token.get_secret_value(), "<token>")


async def on_startup(app: Application) -> None:
    """Say what is waiting, then deliver it in the background: start-up never waits for Telegram. A
    message of a kind this code does not know is undeliverable (logged)."""
    svc = services(app)
    for unknown in await outbox.set_aside_unknown(svc.db, svc.now()):
        log.warning("outbox %s (kind %r) to chat %s is undeliverable: no sender knows its kind",
                    unknown.id, unknown.kind, unknown.chat_id)
    c = await outbox.counts(svc.db)
    log.info("outbox: %d pending, %d undeliverable", c[outbox.Delivery.pending], c[outbox.Delivery.undeliverable])
    kick(app)
