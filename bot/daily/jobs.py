"""Jobs: one cron job per subscribed chat (`daily:<chat>`), one close job per open quiz
(`daily-close:<delivery>`), all rebuilt from the database at start-up.

Job callbacks read the clock and hand it to the pure decisions in bank.daily.schedule; the
catch-up at start-up runs the very same callback, so a restart sends exactly what is missing.
"""

from __future__ import annotations

import contextlib
import logging

from apscheduler.jobstores.base import JobLookupError
from telegram.error import NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, ContextTypes

from bot.daily import push
from bot.services import services
from proctor.daily import delivery as dstore
from proctor.daily import subscriptions as subs
from proctor.daily.delivery import EmptyBank
from proctor.daily.schedule import due_today
from proctor.daily.subscriptions import Subscription

log = logging.getLogger(__name__)

RETRY_SECONDS = 60  # a push or close that hit a network error is tried again after this
_TRANSIENT = (NetworkError, RetryAfter)  # worth retrying soon; other refusals (400) are not


def _kwargs(name: str) -> dict:
    """APScheduler options: the name is also the job id, so a new job replaces the old one in O(1)
    (looking jobs up by name scans them all: 3,000 chats, 6,000 jobs); a job that could not start
    on time (a busy loop at 09:00) still runs, once."""
    return {"id": name, "replace_existing": True, "misfire_grace_time": None, "coalesce": True}


def push_name(chat_id: int) -> str:
    return f"daily:{chat_id}"


def close_name(delivery_id: int) -> str:
    return f"daily-close:{delivery_id}"


def _remove(app: Application, name: str) -> None:
    if app.job_queue is None:
        return
    with contextlib.suppress(JobLookupError):
        app.job_queue.scheduler.remove_job(name)


def arm_push(app: Application, sub: Subscription) -> None:
    """(Re)schedule the chat's daily push; the stable name replaces its previous job at once."""
    if not sub.enabled:
        disarm_push(app, sub.chat_id)
        return
    schedule = sub.schedule()
    at = schedule.at_time.replace(tzinfo=schedule.tz)
    name = push_name(sub.chat_id)
    app.job_queue.run_daily(push_job, at, data=sub.chat_id, name=name, job_kwargs=_kwargs(name))


def disarm_push(app: Application, chat_id: int) -> None:
    _remove(app, push_name(chat_id))


def arm_close(app: Application, delivery: dstore.Delivery) -> None:
    """(Re)schedule the close of an open quiz at its closes_at (a delay from the bot's clock)."""
    delay = max(0.0, delivery.closes_at - services(app).now())
    name = close_name(delivery.id)
    app.job_queue.run_once(close_job, delay, data=delivery.id, name=name, job_kwargs=_kwargs(name))


def retry_later(app: Application, callback, data: int, name: str) -> None:
    app.job_queue.run_once(callback, RETRY_SECONDS, data=data, name=name, job_kwargs=_kwargs(name))


async def push_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The chat's push time came (or the bot came back the same day): send today's quiz, once."""
    app, chat_id = context.application, context.job.data
    svc = services(context)
    sub = await subs.get_subscription(svc.db, chat_id)
    if sub is None or not sub.enabled:
        return
    day = due_today(sub.schedule(), svc.now())
    if day is None:
        return
    try:
        await _guarded(app, push.push_day(app, chat_id, sub.private, day), f"chat {chat_id}: daily push",
                       push_job, chat_id, f"daily-retry:{chat_id}")
    except EmptyBank:
        log.warning("chat %s: no question may be asked in daily practice", chat_id)


async def resume_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Send what an interrupted push still lacks."""
    app, delivery_id = context.application, context.job.data
    await _guarded(app, push.resume(app, delivery_id), f"delivery {delivery_id}: resume",
                   resume_job, delivery_id, f"daily-resume:{delivery_id}")


async def close_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Close time: stop answers, post the keys and the day's top (once)."""
    app, delivery_id = context.application, context.job.data
    await _guarded(app, push.close(app, delivery_id), f"delivery {delivery_id}: close",
                   close_job, delivery_id, close_name(delivery_id))


async def _guarded(app: Application, work, what: str, job, data: int, retry_name: str) -> None:
    """Run a job's work: a network hiccup retries it later; a refusal waits for the next start,
    where recovery picks the work up from the database again."""
    try:
        await work
    except _TRANSIENT as e:
        log.warning("%s stopped (%s); retrying in %ss", what, e, RETRY_SECONDS)
        retry_later(app, job, data, retry_name)
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
            name = f"daily-catchup:{sub.chat_id}"
            app.job_queue.run_once(push_job, 0, data=sub.chat_id, name=name, job_kwargs=_kwargs(name))
            caught_up += 1
    resumed = 0
    for d in await dstore.unfinished(svc.db):
        if d.accepts_answers and d.closes_at > now:
            arm_close(app, d)
            name = f"daily-resume:{d.id}"
            app.job_queue.run_once(resume_job, 0, data=d.id, name=name, job_kwargs=_kwargs(name))
            resumed += 1
        else:
            name = close_name(d.id)
            app.job_queue.run_once(close_job, 0, data=d.id, name=name, job_kwargs=_kwargs(name))
    log.info("daily: %d schedules armed, %d catch-ups, %d deliveries resumed", armed, caught_up, resumed)


async def release(app: Application, user_id: int) -> None:
    """The user's exam was handed in: send their private quiz's questions it held back, if still open."""
    delivery = await dstore.latest_delivery(services(app).db, user_id)  # a private chat's id is its user's
    if delivery is not None and delivery.private and delivery.accepts_answers:
        name = f"daily-resume:{delivery.id}"
        app.job_queue.run_once(resume_job, 0, data=delivery.id, name=name, job_kwargs=_kwargs(name))
