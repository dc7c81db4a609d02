"""The team lead's desk: review, reports, charts, digest, bank statistics and curation, key fixes, the
roster (/team, and a member's /join), the web desk; and a candidate's /dispute, which lands in it."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import outbox, scheduling
from bot.feature import Parts
from bot.leads import bankstats, buttons, digest, keyfix, reports, review, team, webdesk
from bot.menus import Command, Where, Who
from bot.scheduling import JobKind
from proctor.outbox import Kind as OutboxKind

COMMANDS: list[Command] = [
    Command("dispute", "Flag a question you think is wrong (reply to it)", "对你认为有误的题目提出异议（回复该题）",
            usage="<reason>", usage_zh="<理由>"),
    Command("review", "Mark answers awaiting review", "复核待评分的答案", who=Who.lead),
    Command("report", "The team's results as CSV", "团队成绩 CSV", who=Who.lead, usage="[today|week|month|all]"),
    Command("chart", "The team's results as a chart", "团队成绩图表", who=Who.lead, usage="[today|week|month|all]"),
    Command("digest", "The weekly digest on/off", "开启或关闭每周简报", who=Who.lead, where=Where.group,
            usage="on|off|now"),
    Command("bankstats", "Disputes and question statistics", "异议与题目统计", who=Who.lead, usage="[paper]", usage_zh="[试卷]"),
    Command("retire", "Retire a question", "停用题目", who=Who.admin, where=Where.private, usage="<question>", usage_zh="<题目>"),
    Command("restore", "Restore a question", "恢复题目", who=Who.admin, where=Where.private, usage="<question>", usage_zh="<题目>"),
    Command("examonly", "Keep a paper for exams only", "设置试卷仅限考试", who=Who.admin, where=Where.private,
            usage="<paper> on|off", usage_zh="<试卷> on|off"),
    Command("keyfix", "Fix a disputed key and regrade", "修正有异议的答案并重新评分", who=Who.admin,
            where=Where.private, usage="<dispute> <new key> [keep]",
            usage_zh="<异议编号> <新答案> [keep]"),
    Command("team", "The team roster; leads: add, remove, accept members", "团队名单；组长：添加、移除、通过成员",
            usage="[add|remove|accept|reject @user] · leave",
            usage_zh="[add|remove|accept|reject @用户] · leave"),
    Command("join", "Ask to join this group's team", "申请加入本群的团队", where=Where.group),
    Command("desk", "Open the desk (or /desk link for a browser)", "打开工作台（浏览器用 /desk link）", who=Who.lead,
            usage="[link]"),
]

LEAD_COMMANDS = ("review", "report", "chart", "digest", "bankstats", "retire", "restore", "examonly",
                 "team", "desk")  # /team add|remove|accept|reject; listing the roster is for everyone


def register(app: Application) -> None:
    """Add the lead's commands, their buttons, the weekly digest's job and the notices' senders."""
    app.add_handler(CommandHandler("dispute", bankstats.dispute))
    app.add_handler(CommandHandler("review", review.review))
    app.add_handler(CommandHandler("report", reports.report))
    app.add_handler(CommandHandler("chart", reports.chart))
    app.add_handler(CommandHandler("digest", digest.digest))
    scheduling.register(app, JobKind.digest, digest.digest_due)
    app.add_handler(CommandHandler("bankstats", bankstats.bankstats))
    app.add_handler(CommandHandler("retire", bankstats.retire))
    app.add_handler(CommandHandler("restore", bankstats.restore))
    app.add_handler(CommandHandler("examonly", bankstats.exam_only))
    app.add_handler(CommandHandler("keyfix", keyfix.keyfix))
    app.add_handler(CommandHandler("team", team.team))
    app.add_handler(CommandHandler("join", team.join))
    app.add_handler(CommandHandler("desk", webdesk.desk))
    app.add_handler(CallbackQueryHandler(buttons.on_button, pattern=r"^l:"), group=0)
    outbox.add_sender(app, OutboxKind.review_notice, review.send_notice)
    outbox.add_sender(app, OutboxKind.key_fix_notice, keyfix.send_notice)


async def on_startup(app: Application) -> None:
    """Re-arm every weekly digest; post the ones missed this week while the bot was down."""
    await digest.rearm_all(app)


FEATURE = Parts("leads", COMMANDS, register, on_startup)
