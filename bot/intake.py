"""The one door updates come in by: long polling (bot/polling.py), the webhook (bot/webhook.py) and
start-up's unfinished updates all hand their batch to `take_in`.

A batch is claimed in one transaction (proctor/storage/updates.py `claim`) before anything confirms
it to Telegram: each update is stored with its claim, and the claim reads what its handlers need
first (the user's record and the group's language, bot/userctx.py `seen_in`). Only then are the
claimed updates put on the Application's update queue, in order, and only then does the caller
confirm them (the next getUpdates' offset, the webhook's 200). A repeat is neither queued nor run.
An update claimed but not handled when its process stopped is taken in again from its stored body
at the next start (`take_back`); one the flood meter drops is marked done unhandled (`dropped`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial

from telegram import Update
from telegram.ext import Application

from bot.context import Claim, Seen
from bot.services import Slot, services
from bot.userctx import group_of, seen_in
from proctor.storage import updates

log = logging.getLogger(__name__)

# claimed by the door and queued, not yet taken by ProctorApplication: update_id -> its claim
_QUEUED: Slot[dict[int, Claim]] = Slot("intake_queued", dict)


def _nothing(conn: sqlite3.Connection) -> None:
    return None


def _first_read(update: Update, now: float) -> Callable[[sqlite3.Connection], Seen | None]:
    """What the update's handlers need first, read in its claim's transaction: the user's record
    (written on first sight) and, for a message in a group, the group's language."""
    tg = update.effective_user
    if tg is None:
        return _nothing
    return partial(seen_in, user_id=tg.id, first_name=tg.first_name or "", username=tg.username, now=now,
                   group_id=group_of(update), telegram_language=tg.language_code)


async def claim(app: Application, batch: Sequence[Update]) -> list[tuple[Update, Claim]]:
    """Claim the batch in one transaction, each update with its body: the claimed ones in order
    (repeats left out). Raises what the database raises: then nothing is claimed."""
    svc = services(app)
    now = svc.now()
    incoming = [updates.Incoming(u.update_id, u.to_json(), _first_read(u, now)) for u in batch]
    seen = await updates.claim(svc.db, app.bot.id, incoming, now, svc.run)
    claimed = []
    for update in batch:
        if update.update_id in seen:
            claimed.append((update, Claim(update.update_id, seen.pop(update.update_id))))
        else:
            log.info("update %s delivered again: ignored", update.update_id)
    return claimed


async def take_in(app: Application, batch: Sequence[Update]) -> None:
    """Claim the batch, then queue the claimed updates for the handlers, in order. When this returns
    the batch may be confirmed to Telegram; when it raises, nothing is claimed or queued."""
    queued = _QUEUED.of(app)
    for update, its_claim in await claim(app, batch):
        queued[update.update_id] = its_claim
        await app.update_queue.put(update)


def claim_of(app: Application, update: Update) -> Claim | None:
    """The claim the door made for this queued update (taken: asked once), None if it was not
    queued by the door."""
    return _QUEUED.of(app).pop(update.update_id, None)


async def dropped(app: Application, update: object) -> None:
    """The flood meter dropped a queued update (bot/ordering.py): it is done, never to be run again."""
    if not isinstance(update, Update) or claim_of(app, update) is None:
        return
    svc = services(app)
    await updates.done(svc.db, app.bot.id, update.update_id, svc.run)


async def take_back(app: Application) -> int:
    """At start-up: take in again the updates earlier runs claimed and never finished (they were
    confirmed to Telegram, which will not send them again), from their stored bodies; how many.
    Only those Telegram would still have kept had they not been confirmed: within a day."""
    svc = services(app)
    batch = []
    for update_id, body in await updates.unfinished(svc.db, app.bot.id, svc.run, svc.now()):
        try:
            batch.append(Update.de_json(json.loads(body), app.bot))
        except (ValueError, TypeError, KeyError, AttributeError) as e:  # written by this code: a bug
            log.error("update %s: its stored body cannot be read (%s); left claimed", update_id, e)
    if batch:
        log.info("taking in %d update(s) claimed by an earlier run and never finished", len(batch))
        await take_in(app, batch)
    return len(batch)
