"""/daily on|off|now|status: thin handlers over proctor.daily and the push."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

from telegram import Update
from telegram.constants import ChatType
from telegram.error import NetworkError

from bot import scheduling
from bot.context import Ctx
from bot.daily import jobs, push
from bot.i18n import t
from bot.scheduling import JobKind
from bot.userctx import UserCtx, user_ctx
from proctor.chats import chat_timezone, ensure_chat
from proctor.daily import answers as answer_store
from proctor.daily import delivery as dstore
from proctor.daily import subscriptions as subs
from proctor.daily.answers import answers_given
from proctor.daily.delivery import EmptyBank
from proctor.daily.schedule import Schedule, local_day, next_fire
from proctor.daily.states import DeliveryStatus
from proctor.daily.streaks import streak
from proctor.local_time import BadTime, BadTimezone, looks_like_time, moment, parse_hhmm, parse_timezone

log = logging.getLogger(__name__)

_DURATION = re.compile(r"^(\d{1,3})(m|min|h)$", re.IGNORECASE)
_CHAT_TYPES = (ChatType.PRIVATE, ChatType.GROUP, ChatType.SUPERGROUP)


class BadArgument(Exception):
    """A /daily on argument that is neither a time, a zone nor a duration."""


def parse_on_args(args: list[str]) -> tuple[str | None, str | None, int | None]:
    """(HH:MM, zone, close after minutes) from /daily on's arguments, in any order.

    Raises BadTime, BadTimezone or BadArgument.
    """
    at = tz = None
    close = None
    for arg in args:
        m = _DURATION.match(arg)
        if looks_like_time(arg):
            at = parse_hhmm(arg).strftime("%H:%M")
        elif m:
            close = int(m.group(1)) * (60 if m.group(2).lower() == "h" else 1)
            if not 1 <= close <= 24 * 60:
                raise BadArgument(arg)
        elif "/" in arg or arg.upper() in ("UTC", "GMT"):
            tz = arg if "/" in arg else arg.upper()
            parse_timezone(tz)
        elif re.fullmatch(r"\d{1,2}[:：.h]\d{1,2}", arg):
            raise BadTime(arg)
        else:
            raise BadArgument(arg)
    return at, tz, close


async def daily(update: Update, context: Ctx) -> None:
    """/daily on|off|now|status."""
    u = await user_ctx(update, context)
    chat = context.chat
    msg = context.message
    if chat.type not in _CHAT_TYPES:
        await msg.reply_text(t("daily_not_here", u.lang))
        return
    svc = context.services
    title = chat.title or chat.first_name or ""
    await ensure_chat(svc.db, chat.id, chat.type, title, svc.now())
    args = context.args or []
    sub_command = args[0].lower() if args else ""
    if sub_command in ("on", "off", "now") and chat.type != ChatType.PRIVATE \
            and not await context.caller_is_lead():
        await msg.reply_text(t("daily_not_lead", u.lang))
        return
    if sub_command == "on":
        await daily_on(update, context, u, args[1:])
    elif sub_command == "off":
        await daily_off(update, context, u)
    elif sub_command == "now":
        await daily_now(update, context, u)
    elif sub_command == "status":
        await msg.reply_text(await status_text(context, chat.id, u))
    else:
        await msg.reply_text(t("daily_usage", u.lang, n=svc.settings.daily_questions) + "\n\n"
                             + await status_text(context, chat.id, u))


async def daily_on(update: Update, context: Ctx, u: UserCtx, args: list[str]) -> None:
    """Turn the quiz on, or change its time and zone; the chat's job is replaced at once."""
    svc = context.services
    chat_id = context.chat.id
    try:
        at, tz, close = parse_on_args(args)
    except BadTime as e:
        await context.message.reply_text(t("daily_bad_time", u.lang, text=str(e)))
        return
    except BadTimezone as e:
        await context.message.reply_text(t("daily_bad_tz", u.lang, text=str(e)))
        return
    except BadArgument as e:
        await context.message.reply_text(t("daily_bad_arg", u.lang, text=str(e)))
        return
    old = await subs.get_subscription(svc.db, chat_id)
    chat_tz = await chat_timezone(svc.db, chat_id)
    ask = subs.on_request(old, chat_tz, at=at, tz=tz, close=close, default_time=svc.settings.daily_time,
                          default_tz=svc.settings.timezone, default_questions=svc.settings.daily_questions)
    sub = await subs.subscribe(svc.db, chat_id, ask.at_time, ask.timezone, ask.questions, u.id, svc.now(),
                               close_after_min=ask.close_after_min)
    jobs.arm_push(context.application, sub)
    log.info("chat %s: daily quiz on at %s %s by %s", chat_id, sub.at_time, sub.timezone, u.id)
    sch = sub.schedule()
    await context.message.reply_text(t(
        "daily_on", u.lang, n=sub.questions, time=sub.at_time, tz=sub.timezone,
        next=moment(_next(sch, svc.now()), sch.tz)))


async def daily_off(update: Update, context: Ctx, u: UserCtx) -> None:
    """Turn the quiz off; its job goes at once. Today's open quiz still closes as planned."""
    svc = context.services
    chat_id = context.chat.id
    was_on = await subs.unsubscribe(svc.db, chat_id, u.id, svc.now())
    jobs.disarm_push(context.application, chat_id)
    log.info("chat %s: daily quiz off by %s", chat_id, u.id)
    await context.message.reply_text(t("daily_off" if was_on else "daily_was_off", u.lang))


async def daily_now(update: Update, context: Ctx, u: UserCtx) -> None:
    """Today's quiz right now (once a day: if it is out already, say where it stands)."""
    svc = context.services
    chat = context.chat
    private = chat.type == ChatType.PRIVATE
    schedule, _n = await push.schedule_for(context.application, chat.id)
    day = local_day(svc.now(), schedule.tz)
    existing = await dstore.find_delivery(svc.db, chat.id, day)
    if existing is not None and existing.state != DeliveryStatus.failed:
        await _explain_existing(update, context, u, existing, schedule)
        return
    try:
        delivery = await push.push_day(context.application, chat.id, private, day)
        if await push.held(context.application, delivery):
            await context.message.reply_text(t("daily_held_for_exam", u.lang))
    except EmptyBank:
        await context.message.reply_text(t("daily_empty_bank", u.lang))
    except NetworkError as e:
        log.warning("chat %s: /daily now stopped (%s); resuming later", chat.id, e)
        started = await dstore.find_delivery(svc.db, chat.id, day)
        if started is not None:
            scheduling.once(context.application, JobKind.daily_resume, started.id, jobs.RETRY_SECONDS)


async def _explain_existing(update: Update, context: Ctx, u: UserCtx,
                            delivery: dstore.Delivery, schedule: Schedule) -> None:
    svc = context.services
    msg = context.message
    if not delivery.accepts_answers:
        await msg.reply_text(t("daily_closed_today", u.lang))
        return
    if not delivery.private:
        await msg.reply_text(t("daily_already_out", u.lang, at=moment(delivery.closes_at, schedule.tz)))
        return
    answered = {a.pos for a in await answer_store.user_answers(svc.db, delivery.id, u.id)}
    items = await dstore.items(svc.db, delivery.id)
    waiting = next((i for i in items if i.pos not in answered), None)
    if waiting is None:
        run = await streak(svc.db, delivery.chat_id, u.id, delivery.day)
        await msg.reply_text(t("daily_done_today", u.lang, n=run))
    elif waiting.message_id is None:
        await push.resume(context.application, delivery.id)
        if await push.held(context.application, delivery):
            await msg.reply_text(t("daily_held_for_exam", u.lang))
    else:
        await msg.reply_text(t("daily_in_progress", u.lang),
                             reply_to_message_id=waiting.message_id, allow_sending_without_reply=True)


def _next(schedule: Schedule, now: float) -> datetime:
    after = datetime.fromtimestamp(max(now, schedule.since), UTC)
    return next_fire(schedule.at_time, schedule.tz, after)


async def status_text(context: Ctx, chat_id: int, u: UserCtx) -> str:
    """How the chat's quiz is set, how today's stands, and the user's streak here."""
    svc = context.services
    sub = await subs.get_subscription(svc.db, chat_id)
    lines = []
    if sub is None or not sub.enabled:
        if sub is not None and sub.disabled_reason:
            reason = t(f"daily_reason_{sub.disabled_reason}", u.lang)
            lines.append(t("daily_status_disabled", u.lang, reason=reason))
        else:
            lines.append(t("daily_status_off", u.lang))
    else:
        sch = sub.schedule()
        close = (t("daily_close_after", u.lang, h=_fmt_minutes(sub.close_after_min))
                 if sub.close_after_min else t("daily_close_default", u.lang))
        lines.append(t("daily_status_on", u.lang, n=sub.questions, time=sub.at_time, tz=sub.timezone,
                       next=moment(_next(sch, svc.now()), sch.tz), close=close))
    schedule, _n = await push.schedule_for(context.application, chat_id)
    day = local_day(svc.now(), schedule.tz)
    delivery = await dstore.find_delivery(svc.db, chat_id, day)
    if delivery is None:
        if sub is not None and sub.enabled:
            lines.append(t("daily_today_none", u.lang))
    elif delivery.state == DeliveryStatus.failed:
        lines.append(t("daily_today_failed", u.lang))
    elif delivery.accepts_answers:
        n = await answers_given(svc.db, delivery.id)
        lines.append(t("daily_today_open", u.lang, at=moment(delivery.closes_at, schedule.tz), n=n))
    else:
        lines.append(t("daily_today_closed", u.lang))
    lines.append(t("daily_your_streak", u.lang, n=await streak(svc.db, chat_id, u.id, day)))
    return "\n".join(lines)


def _fmt_minutes(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    return f"{h}h{m:02d}" if h and m else (f"{h}h" if h else f"{m} min")
