"""/report (a CSV of the team's results, sent privately) and /chart (a PNG, posted in place)."""

from __future__ import annotations

import asyncio

from telegram import InputFile, Update

from bank.csv_safety import file_stem
from bot.context import Ctx
from bot.i18n import joined, t
from bot.leads import render
from bot.leads.access import Desk, require_lead, send_private
from bot.leads.added_reports import added_report
from bot.text_limits import MAX_CAPTION, clip
from bot.voice import zone_for
from proctor.audit import AuditAction
from proctor.exams.visibility import AUDIENCE, lens
from proctor.teams import audit
from proctor.teams import leaderboard as lb
from proctor.teams.charts import chart_data, cjk_font, labels, render_png
from proctor.teams.reports import team_csv

DEFAULT_PERIOD = "month"


async def _period(update: Update, context: Ctx, desk: Desk, usage: str) -> lb.Period | None:
    svc = context.services
    args = [a.lower() for a in (context.args or [])]
    name = args[0] if args else DEFAULT_PERIOD
    if name not in lb.PERIODS or len(args) > 1:
        await context.message.reply_text(t(usage, desk.user.lang))
        return None
    tz = await zone_for(context, desk.scope)  # the team's period: the group's zone
    return lb.period_bounds(name, svc.now(), tz)


async def _audit(context: Ctx, desk, action: AuditAction, target: str, **detail) -> None:
    """Exports of team results are lead actions too: who took what, when."""
    svc = context.services
    await audit.log(svc.db, at=svc.now(), actor=desk.user.id, chat_id=desk.scope, action=action, target=target,
                    **detail)


async def report(update: Update, context: Ctx) -> None:
    """Send the lead a CSV: per candidate, attempts, best scores by paper and section, daily results."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    args = [a.lower() for a in (context.args or [])]
    extra = added_report(context, args[0]) if len(args) == 1 else None
    if extra is not None:  # /report invites: the hiring view, handed in by bot/invites
        await extra(update, context, desk)
        return
    period = await _period(update, context, desk, "l_rp_usage")
    if period is None:
        return
    data, n = await team_csv(context.services.db, await lens(context.services.db, desk.viewer, desk.scope), period)
    stamp = period.today.strftime("%Y%m%d")  # the team's date, not the server's
    name = f"report-{'all' if desk.scope is None else file_stem(desk.title)}-{period.name}-{stamp}.csv"
    own = desk.user.own_lang  # the file goes to their private chat
    caption = t("l_rp_caption", own, team=desk.title, period=render.period_name(period.name, own), n=n)

    async def send(chat_id: int) -> None:
        await context.bot.send_document(chat_id, InputFile(data, filename=name), caption=caption)

    if await send_private(update, context, desk.user, send):
        await _audit(context, desk, AuditAction.report, period.name, rows=n)


async def chart(update: Update, context: Ctx) -> None:
    """Post a chart of the team's daily points over time and its accuracy by paper."""
    desk = await require_lead(update, context)
    if desk is None:
        return
    period = await _period(update, context, desk, "l_ch_usage")
    if period is None:
        return
    lang = desk.user.lang
    db = context.services.db
    # the chart is posted where it was asked: in a group, everyone there reads it (its audience)
    seen_by = await lens(db, AUDIENCE if desk.in_group else desk.viewer, desk.scope)
    data = await chart_data(db, seen_by, period, f"{desk.title} · {render.period_name(period.name, lang)}")
    if data.empty:
        await context.message.reply_text(t("l_ch_empty", desk.user.lang))
        return
    font = cjk_font(context.services.settings.cjk_font)
    png = await asyncio.to_thread(render_png, data, font)  # matplotlib takes tens of ms: off the loop
    caption = t("l_ch_caption", lang, team=desk.title, period=render.period_name(period.name, lang))
    if stand_ins := labels(data, font).stand_ins:  # no CJK font: the caption names the numbered papers
        caption += "\n" + t("l_ch_no_font", lang, names=joined((f"{a} = {b}" for a, b in stand_ins), lang))
    await _audit(context, desk, AuditAction.chart, period.name)
    await context.message.reply_photo(
        InputFile(png, filename="chart.png"), caption=clip(caption, MAX_CAPTION))
