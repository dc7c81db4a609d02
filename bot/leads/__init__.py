"""Leaderboards and the team lead's desk: review, reports, charts, digest, bank statistics, privacy.

Light: its handlers' modules (and the proctor.teams modules only they use) load on first use
(bot/feature.py); start-up loads the digest's only when SQLite holds a digest to re-arm."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot import outbox, scheduling
from bot.feature import Handler, Parts, for_admins, on_first_use
from bot.menus import Command, Where, Who
from bot.open_work import Ender, add_ender
from bot.outbox import Sender
from bot.scheduling import Callback
from bot.services import services
from proctor.outbox import KEY_FIX_NOTICE, REVIEW_NOTICE
from proctor.teams import pending

COMMANDS: list[Command] = [
    Command("leaderboard", "Daily-quiz ranking: today, week, month, all; or paper <paper>; or live",
            "每日一练排行：today、week、month、all；或 paper <试卷>；或 live（抢答）"),
    Command("dispute", "Flag a question you think is wrong (reply to it)", "对你认为有误的题目提出异议（回复该题）",
            usage="<reason>", usage_zh="<理由>"),
    Command("forgetme", "Delete all your data", "删除你的全部数据", where=Where.private),
    Command("review", "Mark answers awaiting review", "复核待评分的答案", who=Who.lead),
    Command("report", "The team's results as CSV", "团队成绩 CSV", who=Who.lead, usage="[today|week|month|all]"),
    Command("chart", "The team's results as a chart", "团队成绩图表", who=Who.lead, usage="[today|week|month|all]"),
    Command("digest", "The weekly digest on/off", "开启或关闭每周简报", who=Who.lead, where=Where.group,
            usage="on|off|now"),
    Command("bankstats", "Disputes and question statistics", "异议与题目统计", who=Who.lead, usage="[paper]", usage_zh="[试卷]"),
    Command("retire", "Retire a question", "停用题目", who=Who.admin, where=Where.private, usage="<question id>", usage_zh="<题号ID>"),
    Command("restore", "Restore a question", "恢复题目", who=Who.admin, where=Where.private, usage="<question id>", usage_zh="<题号ID>"),
    Command("examonly", "Keep a paper for exams only", "设置试卷仅限考试", who=Who.admin, where=Where.private,
            usage="<paper> on|off", usage_zh="<试卷> on|off"),
    Command("keyfix", "Fix a disputed key and regrade", "修正有异议的答案并重新评分", who=Who.admin,
            where=Where.private, usage="<dispute> <new key> [keep]",
            usage_zh="<异议编号> <新答案> [keep]"),
    Command("editq", "Fix a question's key, text, option or explanation", "修改题目的答案、题干、选项或解析",
            who=Who.admin, where=Where.private, usage="<question id>", usage_zh="<题号ID>"),
    Command("newpaper", "Compose a paper from the bank", "从题库组卷", who=Who.admin, where=Where.private),
    Command("team", "The team roster; leads: add, remove, accept members", "团队名单；组长：添加、移除、通过成员",
            usage="[add|remove|accept|reject @user]",
            usage_zh="[add|remove|accept|reject @用户]"),
    Command("join", "Ask to join this group's team", "申请加入本群的团队", where=Where.group),
    Command("desk", "Open the desk (or /desk link for a browser)", "打开工作台（浏览器用 /desk link）", who=Who.lead,
            usage="[link]"),
]

LEAD_COMMANDS = ("review", "report", "chart", "digest", "bankstats", "retire", "restore", "examonly",
                 "team", "desk")  # /team add|remove|accept|reject; listing the roster is for everyone


def register(app: Application) -> None:
    """Add the leaderboards, the lead's desk and the privacy commands."""
    app.add_handler(CommandHandler("leaderboard", on_first_use(_leaderboard)))
    app.add_handler(CommandHandler("dispute", on_first_use(_dispute)))
    app.add_handler(CommandHandler("forgetme", on_first_use(_forgetme)))
    app.add_handler(CommandHandler("review", on_first_use(_review)))
    app.add_handler(CommandHandler("report", on_first_use(_report)))
    app.add_handler(CommandHandler("chart", on_first_use(_chart)))
    app.add_handler(CommandHandler("digest", on_first_use(_digest)))
    scheduling.register(app, scheduling.DIGEST, on_first_use(_digest_due))
    app.add_handler(CommandHandler("bankstats", on_first_use(_bankstats)))
    app.add_handler(CommandHandler("retire", on_first_use(_retire)))
    app.add_handler(CommandHandler("restore", on_first_use(_restore)))
    app.add_handler(CommandHandler("examonly", on_first_use(_exam_only)))
    app.add_handler(CommandHandler("keyfix", on_first_use(_keyfix)))
    app.add_handler(CommandHandler("team", on_first_use(_team)))
    app.add_handler(CommandHandler("join", on_first_use(_join)))
    app.add_handler(CommandHandler("desk", on_first_use(_desk)))
    app.add_handler(CallbackQueryHandler(on_first_use(_on_button), pattern=r"^l:"), group=0)
    outbox.add_sender(app, REVIEW_NOTICE, on_first_use(_review_notice))
    outbox.add_sender(app, KEY_FIX_NOTICE, on_first_use(_key_fix_notice))
    app.add_handler(CommandHandler("editq", on_first_use(_editq)))
    app.add_handler(CommandHandler("newpaper", on_first_use(_newpaper)))
    app.add_handler(CallbackQueryHandler(on_first_use(_authoring_button), pattern=r"^a:[en]"), group=0)
    # before /newquestion's drafts (group 1) and the exam's typed answers (group 2): the text an open
    # /editq or /newpaper asked for. Only configured admins can have one: anyone else's text passes
    # without loading /editq's and /newpaper's modules
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND,
                                   for_admins(on_first_use(_authoring_text))), group=0)
    add_ender(app, on_first_use(_end_authoring), admins_only=True)  # /cancel ends an open /editq or /newpaper


async def on_startup(app: Application) -> None:
    """Re-arm every weekly digest; post the ones missed this week while the bot was down (nothing to
    load when no group has its digest on)."""
    if await pending.any_digest(services(app).db):
        from bot.leads.digest import rearm_all

        await rearm_all(app)


# The loaders: each imports the module holding the real callable when first called.

def _leaderboard() -> Handler:
    from bot.leads.leaderboard import leaderboard

    return leaderboard


def _dispute() -> Handler:
    from bot.leads.bankstats import dispute

    return dispute


def _forgetme() -> Handler:
    from bot.leads.privacy import forgetme

    return forgetme


def _review() -> Handler:
    from bot.leads.review import review

    return review


def _report() -> Handler:
    from bot.leads.reports import report

    return report


def _chart() -> Handler:
    from bot.leads.reports import chart

    return chart


def _digest() -> Handler:
    from bot.leads.digest import digest

    return digest


def _digest_due() -> Callback:
    from bot.leads.digest import digest_due

    return digest_due


def _bankstats() -> Handler:
    from bot.leads.bankstats import bankstats

    return bankstats


def _retire() -> Handler:
    from bot.leads.bankstats import retire

    return retire


def _restore() -> Handler:
    from bot.leads.bankstats import restore

    return restore


def _exam_only() -> Handler:
    from bot.leads.bankstats import exam_only

    return exam_only


def _keyfix() -> Handler:
    from bot.leads.keyfix import keyfix

    return keyfix


def _team() -> Handler:
    from bot.leads.team import team

    return team


def _join() -> Handler:
    from bot.leads.team import join

    return join


def _desk() -> Handler:
    from bot.leads.webdesk import desk

    return desk


def _on_button() -> Handler:
    from bot.leads.buttons import on_button

    return on_button


def _review_notice() -> Sender:
    from bot.leads.review import send_notice

    return send_notice


def _key_fix_notice() -> Sender:
    from bot.leads.keyfix import send_notice

    return send_notice


def _editq() -> Handler:
    from bot.leads.editq import editq

    return editq


def _newpaper() -> Handler:
    from bot.leads.newpaper import newpaper

    return newpaper


def _authoring_button() -> Handler:
    from bot.leads.authoring_input import on_button

    return on_button


def _authoring_text() -> Handler:
    from bot.leads.authoring_input import on_text

    return on_text


def _end_authoring() -> Ender:
    from bot.leads.authoring_input import end_open

    return end_open


FEATURE = Parts("leads", COMMANDS, register, on_startup)
