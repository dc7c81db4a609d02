"""/digest and the weekly digest job: one job per group (stable name), rebuilt from the database."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import Application

from bot import scheduling
from bot.context import Ctx
from bot.i18n import t
from bot.leads import render
from bot.leads.access import require_lead
from bot.scheduling import JobKind
from bot.services import services
from bot.voice import group_voice
from proctor.chats import chat_title, chat_zone
from proctor.teams import digest as dg

log = logging.getLogger(__name__)


def disarm(app: Application, chat_id: int) -> None:
    scheduling.disarm(app, JobKind.digest, chat_id)


async def arm(app: Application, s: dg.Schedule) -> None:
    """(Re)schedule the group's digest: now if this week's was missed, else at the next due time."""
    disarm(app, s.chat_id)
    if not s.enabled:
        return
    svc = services(app)
    now = svc.now()
    tz = await chat_zone(svc.db, s.chat_id, svc.settings.timezone)
    due = now if dg.missed(s, now, tz) else dg.next_due(s, now, tz)
    scheduling.once(app, JobKind.digest, s.chat_id, due - now)


async def post_digest(app: Application, chat_id: int, *, claim: bool) -> bool:
    """Compose and post the digest; with `claim`, only once per ISO week. True if posted."""
    svc = services(app)
    now = svc.now()
    tz = await chat_zone(svc.db, chat_id, svc.settings.timezone)
    s = await dg.get_schedule(svc.db, chat_id)
    if claim and (s is None or not await dg.claim_week(svc.db, chat_id, dg.week_key(now, tz))):
        return False
    title = await chat_title(svc.db, chat_id)
    there = await group_voice(app, chat_id)  # posted in the group: the group's voice
    text = render.digest_text(await dg.compose(svc.db, chat_id, now, tz), title, there.lang)
    try:
        await app.bot.send_message(chat_id, text)
    except Forbidden:
        log.info("digest for %s: the bot was removed; schedule turned off", chat_id)
        if s is not None:
            await dg.set_schedule(svc.db, chat_id, enabled=False, weekday=s.weekday, at_time=s.at_time,
                                  lead=0, now=now)
        return False
    except TelegramError:
        if claim and s is not None:  # claimed: it has a schedule
            await dg.release_week(svc.db, chat_id, s.last_week)  # try again at the next start-up
        raise
    return True


async def digest_due(context: Ctx) -> None:
    """The job: post this week's digest if it is due and not yet posted, then schedule the next."""
    app, chat_id = context.application, context.job_key
    svc = services(app)
    s = await dg.get_schedule(svc.db, chat_id)
    if s is None or not s.enabled:
        return
    tz = await chat_zone(svc.db, chat_id, svc.settings.timezone)
    try:
        if dg.due_in_week(s, svc.now(), tz) <= svc.now():
            await post_digest(app, chat_id, claim=True)
    finally:
        s = await dg.get_schedule(svc.db, chat_id)
        disarm(app, chat_id)  # one job per group, whoever ran this one
        if s is not None and s.enabled:
            now = svc.now()
            scheduling.once(app, JobKind.digest, chat_id, max(1.0, dg.next_due(s, now, tz) - now))


async def digest(update: Update, context: Ctx) -> None:
    """Turn the weekly digest on or off, post it now, or show when it is due."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    lang, svc = desk.user.lang, context.services
    if not desk.in_group:
        await context.message.reply_text(t("l_group_only", lang))
        return
    args = [a.lower() for a in (context.args or [])]
    tz = await chat_zone(svc.db, desk.chat_id, svc.settings.timezone)
    current = await dg.get_schedule(svc.db, desk.chat_id)
    if not args:
        text = render.schedule_text(current, tz.key, lang) if current and current.enabled else t("l_dg_none", lang)
        await context.message.reply_text(text)
        return
    if args[0] == "now":
        await post_digest(context.application, desk.chat_id, claim=False)
        return
    if args[0] not in ("on", "off"):
        await context.message.reply_text(t("l_dg_usage", lang))
        return
    try:
        weekday, at = dg.parse_schedule(args[1:], current.weekday if current else 0,
                                        current.at_time if current else "09:00")
    except dg.BadSchedule:
        await context.message.reply_text(t("l_dg_usage", lang))
        return
    s = await dg.set_schedule(svc.db, desk.chat_id, enabled=args[0] == "on", weekday=weekday, at_time=at,
                              lead=desk.user.id, now=svc.now())
    if s.enabled and dg.due_in_week(s, svc.now(), tz) <= svc.now():
        # switched on after this week's time: the first digest comes next week, not right now
        await dg.claim_week(svc.db, desk.chat_id, dg.week_key(svc.now(), tz))
        s = await dg.get_schedule(svc.db, desk.chat_id) or s  # just set: always there
    await arm(context.application, s)
    await context.message.reply_text(render.schedule_text(s, tz.key, lang))


async def rearm_all(app: Application) -> None:
    """At start-up: every enabled schedule gets its job; a digest missed this week is posted now."""
    for s in await dg.schedules(services(app).db):
        await arm(app, s)
