"""Jobs: one cron job per subscribed chat (`daily:<chat>`), one close job per open quiz
(`daily-close:<delivery>`), all rebuilt from the database at start-up. They are armed through
bot/scheduling.py, which holds this module's callbacks (bot/daily/__init__.py registers them), so
push.py arms a close without importing this module.

Job callbacks read the clock and hand it to the pure decisions in proctor.daily.schedule; the
catch-up at start-up runs the very same callback, so a restart sends exactly what is missing.
"""

from __future__ import annotations

import logging

from telegram.error import NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

from bot import scheduling
from bot.context import Ctx
from bot.daily import push
from bot.scheduling import JobKind
from bot.services import services
from proctor.daily import delivery as dstore
from proctor.daily import subscriptions as subs
from proctor.daily.delivery import EmptyBank
from proctor.daily.schedule import due_today
from proctor.daily.subscriptions import Subscription

log = logging.getLogger(__name__)

RETRY_SECONDS = 60  # a push or close that hit a network error is tried again after this
_TRANSIENT = (NetworkError, RetryAfter)  # worth retrying soon; other refusals (400) are not


def arm_push(app: Application, sub: Subscription) -> None:
    """(Re)schedule the chat's daily push; the stable name replaces its previous job at once."""
    if not sub.enabled:
        disarm_push(app, sub.chat_id)
        return
    schedule = sub.schedule()
    scheduling.daily(app, JobKind.daily_push, sub.chat_id, schedule.at_time.replace(tzinfo=schedule.tz))


def disarm_push(app: Application, chat_id: int) -> None:
    scheduling.disarm(app, JobKind.daily_push, chat_id)


async def push_job(context: Ctx) -> None:
    """The chat's push time came (or the bot came back the same day): send today's quiz, once."""
    app, chat_id = context.application, context.job_key
    svc = context.services
    sub = await subs.get_subscription(svc.db, chat_id)
    if sub is None or not sub.enabled:
        return
    day = due_today(sub.schedule(), svc.now())
    if day is None:
        return
    try:
        await _guarded(app, push.push_day(app, chat_id, sub.private, day), f"chat {chat_id}: daily push",
                       JobKind.daily_retry, chat_id)
    except EmptyBank:
        log.warning("chat %s: no question may be asked in daily practice", chat_id)


async def resume_job(context: Ctx) -> None:
    """Send what an interrupted push still lacks."""
    app, delivery_id = context.application, context.job_key
    await _guarded(app, push.resume(app, delivery_id), f"delivery {delivery_id}: resume",
                   JobKind.daily_resume, delivery_id)


async def close_job(context: Ctx) -> None:
    """Close time: stop answers, post the keys and the day's top (once)."""
    app, delivery_id = context.application, context.job_key
    await _guarded(app, push.close(app, delivery_id), f"delivery {delivery_id}: close",
                   JobKind.daily_close, delivery_id)


async def _guarded(app: Application, work, what: str, retry_kind: JobKind, data: int) -> None:
    """Run a job's work: a network hiccup retries it later; a refusal waits for the next start,
    where recovery picks the work up from the database again."""
    try:
        await work
    except _TRANSIENT as e:
        log.warning("%s stopped (%s); retrying in %ss", what, e, RETRY_SECONDS)
        scheduling.once(app, retry_kind, data, RETRY_SECONDS)
    except TelegramError:
        log.exception("%s refused by Telegram; tried again at the next start", what)


async def recover(app: Application) -> None:
    """At start-up: re-arm every chat's push, catch up today's missed ones, resume and close the rest.

    The catch-up and resumes run as jobs right after start-up, so a long push never delays it.
    """
    svc = services(app)
    now = svc.now()
    armed = caught_up = 0
    for sub in await subs.enabled_subscriptions(svc.db):
        arm_push(app, sub)
        armed += 1
        day = due_today(sub.schedule(), now)
        if day is not None and await dstore.find_delivery(svc.db, sub.chat_id, day) is None:
            scheduling.once(app, JobKind.daily_catchup, sub.chat_id)
            caught_up += 1
    resumed = 0
    for d in await dstore.unfinished(svc.db):
        if d.accepts_answers and d.closes_at > now:
            push.arm_close(app, d)
            scheduling.once(app, JobKind.daily_resume, d.id)
            resumed += 1
        else:
            scheduling.once(app, JobKind.daily_close, d.id)
    log.info("daily: %d schedules armed, %d catch-ups, %d deliveries resumed", armed, caught_up, resumed)


async def release_job(context: Ctx) -> None:
    """The user's exam was handed in: send their private quiz's questions it held back, if still open
    (armed by bot/exam/hand_in.py as `daily-release:<user>`)."""
    app, user_id = context.application, context.job_key
    delivery = await dstore.latest_delivery(services(app).db, user_id)  # a private chat's id is its user's
    if delivery is not None and delivery.private and delivery.accepts_answers:
        await _guarded(app, push.resume(app, delivery.id), f"delivery {delivery.id}: resume",
                       JobKind.daily_resume, delivery.id)
