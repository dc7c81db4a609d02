"""/live in a team group: start a round, stop it, or see your place in the last one."""

from __future__ import annotations

import random

from telegram import Update

from bank.paper_list import AmbiguousPaper
from bot.context import Ctx
from bot.i18n import t
from bot.leads.access import GROUPS, Desk, seen
from bot.leads.render import period_name
from bot.live import jobs, render
from bot.paper_refs import unknown_paper
from bot.text_limits import MAX_TEXT, clip
from bot.voice import group_voice, zone_for
from proctor.exams.visibility import AUDIENCE, lens
from proctor.live import answers, rounds
from proctor.live.board import podiums
from proctor.live.draw import BadArgument, NothingToAsk, draw, parse_args
from proctor.live.states import ItemStatus
from proctor.local_time import moment
from proctor.teams.leaderboard import period_bounds
from proctor.transitions import IllegalTransition

REPORT_PERIOD = "month"


async def live(update: Update, context: Ctx) -> None:
    """Start a live round (leads), stop it (`/live stop`), or tell the caller their place (`/live me`)."""
    u = await seen(update, context)
    chat = context.chat
    if chat.type not in GROUPS:
        await context.message.reply_text(t("lv_groups_only", u.lang))
        return
    there = await group_voice(context, chat.id)  # everything /live says is posted in the group
    lang, script = there.lang, there.script
    args = context.args or []
    match [a.lower() for a in args]:
        case ["me"]:
            await _me(context, u.first_name, lang)
        case ["stop"]:
            if not await context.caller_is_lead():
                await context.message.reply_text(t("l_not_lead", lang))
                return
            await _stop(context, lang)
        case ["help"]:
            await context.message.reply_text(t("lv_usage", lang))
        case _:
            if not await context.caller_is_lead():
                await context.message.reply_text(t("l_not_lead", lang))
                return
            await _start(context, args, lang, script)


async def _start(context: Ctx, args: list[str], lang: str, script: str) -> None:
    svc = context.services
    chat_id = context.chat.id
    try:
        request = parse_args(args)
    except BadArgument as e:
        await context.message.reply_text(t("lv_bad_arg", lang, arg=str(e)[:64]))
        return
    if await rounds.running(svc.db, chat_id) is not None:
        await context.message.reply_text(t("lv_running", lang))
        return
    try:
        drawn = await draw(svc.db, await lens(svc.db, AUDIENCE, chat_id), request, render.fits, random.Random(),
                           shuffle=svc.settings.shuffle_options, true_false=(t("lv_true", lang), t("lv_false", lang)))
    except BadArgument as e:
        await context.message.reply_text(t("lv_unknown_subject", lang, arg=str(e)[:64]))
        return
    except AmbiguousPaper as e:  # a part of several papers' titles: their codes
        await context.message.reply_text(unknown_paper(e, request.subject, lang))
        return
    except NothingToAsk:
        await context.message.reply_text(t("lv_nothing", lang))
        return
    try:
        r = await rounds.start(svc.db, chat_id, context.caller_id, drawn, request.seconds, lang, script, svc.now())
    except rounds.AlreadyRunning:  # another /live got there between the check and the start
        await context.message.reply_text(t("lv_running", lang))
        return
    await jobs.run(context.application, r.id)  # the countdown now; the job does the rest


async def _stop(context: Ctx, lang: str) -> None:
    svc = context.services
    app = context.application
    r = await rounds.running(svc.db, context.chat.id)
    if r is None:
        await context.message.reply_text(t("lv_none_running", lang))
        return
    async with jobs.lock(app, r.id):  # not in the middle of a poll's posting
        try:
            _, was_open = await rounds.stop(svc.db, r.id, svc.now())
        except IllegalTransition:  # it ended meanwhile
            await context.message.reply_text(t("lv_none_running", lang))
            return
    for item in was_open:
        if item.status == ItemStatus.open and item.message_id is not None:
            try:
                await jobs.stop_poll(app, r.chat_id, item.message_id)
            except jobs.ChatGone:
                pass
    await jobs.run(app, r.id)  # the podium


async def _me(context: Ctx, name: str, lang: str) -> None:
    svc = context.services
    r = await rounds.latest(svc.db, context.chat.id)
    if r is None:
        await context.message.reply_text(t("lv_no_rounds", lang))
        return
    st = await answers.standings(svc.db, r.id, 0, me=context.caller_id)
    await context.message.reply_text(render.my_place(name, r, st, lang))


async def live_report(update: Update, context: Ctx, desk: Desk) -> None:
    """`/report live`: the podium of each round the team played this month."""
    svc = context.services
    lang = desk.user.lang
    tz = await zone_for(context, desk.scope)  # the team's rounds: the group's zone
    period = period_bounds(REPORT_PERIOD, svc.now(), tz)
    lines = [t("lv_report_title", lang, team=desk.title, period=period_name(period.name, lang)), ""]
    found = await podiums(svc.db, desk.scope, period.start, period.end) if desk.scope is not None else []
    for _, ended_at, top in found:
        when = moment(ended_at, tz)
        podium = " · ".join(f"{render.MEDALS[i]} {name} {points}" for i, (name, points) in enumerate(top)) or "—"
        lines.append(t("lv_report_row", lang, when=when, podium=podium))
    if not found:
        lines.append(t("lv_report_empty", lang))
    await context.message.reply_text(clip("\n".join(lines), MAX_TEXT))
