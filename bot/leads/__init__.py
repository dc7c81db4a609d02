"""Leaderboards and the team lead's desk: review, reports, charts, digest, bank statistics, privacy."""

from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot import outbox
from bot.feature import Parts
from bot.leads import authoring_input as authoring
from bot.leads import bankstats, buttons, digest, leaderboard, privacy, reports, review, team, webdesk
from bot.leads import editq as editq_cmd
from bot.leads import keyfix as keyfix_cmd
from bot.leads import newpaper as newpaper_cmd
from proctor.teams import key_fix
from proctor.teams.review import NOTICE

COMMANDS: list[tuple[str, str, str]] = [
    ("leaderboard", "Daily-quiz ranking: today, week, month, all; or paper <paper>",
     "每日一练排行：today、week、month、all；或 paper <试卷>"),
    ("dispute", "Flag a question you think is wrong (reply to it)", "对你认为有误的题目提出异议（回复该题）"),
    ("forgetme", "Delete all your data", "删除你的全部数据"),
    ("review", "Leads: mark answers awaiting review", "组长：复核待评分的答案"),
    ("report", "Leads: the team's results as CSV", "组长：团队成绩 CSV"),
    ("chart", "Leads: the team's results as a chart", "组长：团队成绩图表"),
    ("digest", "Leads: the weekly digest on/off", "组长：开启或关闭每周简报"),
    ("bankstats", "Leads: disputes and question statistics", "组长：异议与题目统计"),
    ("retire", "Leads: retire a question", "组长：停用题目"),
    ("restore", "Leads: restore a question", "组长：恢复题目"),
    ("examonly", "Leads: keep a paper for exams only", "组长：设置试卷仅限考试"),
    ("keyfix", "Admins: fix a disputed key and regrade", "管理员：修正有异议的答案并重新评分"),
    ("editq", "Admins: fix a question's key, text, option or explanation", "管理员：修改题目的答案、题干、选项或解析"),
    ("newpaper", "Admins: compose a paper from the bank", "管理员：从题库组卷"),
    ("team", "The team roster; leads: add, remove, accept members", "团队名单；组长：添加、移除、通过成员"),
    ("join", "Ask to join this group's team", "申请加入本群的团队"),
    ("desk", "Leads: open the desk (or /desk link for a browser)", "组长：打开工作台（浏览器用 /desk link）"),
]

LEAD_COMMANDS = ("review", "report", "chart", "digest", "bankstats", "retire", "restore", "examonly",
                 "team", "desk")  # /team add|remove|accept|reject; listing the roster is for everyone


def register(app: Application) -> None:
    """Add the leaderboards, the lead's desk and the privacy commands."""
    app.add_handler(CommandHandler("leaderboard", leaderboard.leaderboard))
    app.add_handler(CommandHandler("dispute", bankstats.dispute))
    app.add_handler(CommandHandler("forgetme", privacy.forgetme))
    app.add_handler(CommandHandler("review", review.review))
    app.add_handler(CommandHandler("report", reports.report))
    app.add_handler(CommandHandler("chart", reports.chart))
    app.add_handler(CommandHandler("digest", digest.digest))
    digest.register(app)
    app.add_handler(CommandHandler("bankstats", bankstats.bankstats))
    app.add_handler(CommandHandler("retire", bankstats.retire))
    app.add_handler(CommandHandler("restore", bankstats.restore))
    app.add_handler(CommandHandler("examonly", bankstats.exam_only))
    app.add_handler(CommandHandler("keyfix", keyfix_cmd.keyfix))
    app.add_handler(CommandHandler("team", team.team))
    app.add_handler(CommandHandler("join", team.join))
    app.add_handler(CommandHandler("desk", webdesk.desk))
    app.add_handler(CallbackQueryHandler(buttons.on_button, pattern=r"^l:"), group=0)
    outbox.add_sender(app, NOTICE, review.send_notice)
    outbox.add_sender(app, key_fix.NOTICE, keyfix_cmd.send_notice)
    app.add_handler(CommandHandler("editq", editq_cmd.editq))
    app.add_handler(CommandHandler("newpaper", newpaper_cmd.newpaper))
    app.add_handler(CallbackQueryHandler(authoring.on_button, pattern=r"^a:[en]"), group=0)
    # before /newquestion's drafts (group 1) and the exam's typed answers (group 2): the text an open /editq or /newpaper asked for
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND,
                                   authoring.on_text), group=0)


async def on_startup(app: Application) -> None:
    """Re-arm every weekly digest; post the ones missed this week while the bot was down."""
    await digest.rearm_all(app)


FEATURE = Parts("leads", COMMANDS, register, on_startup)
