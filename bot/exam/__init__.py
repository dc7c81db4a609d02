"""Exams and practice: full papers on demand, timed and proctored, scored by section."""

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import outbox
from bot.exam import buttons, cards, commands, jobs
from bot.exam.jobs import recover
from bot.feature import Parts
from bot.menus import Command, Where
from proctor.outbox import Kind as OutboxKind

COMMANDS: list[Command] = [
    Command("papers", "Papers you can take", "可参加的试卷"),
    Command("exam", "Take a timed paper (/exam random: a mock paper)",
            "限时考试（/exam random 随机模拟卷）", where=Where.private),
    Command("practice", "Practise at your level, or one paper: feedback after each answer",
            "按你的水平练习，或练习某份试卷：答完即看反馈", where=Where.private, usage="[paper]", usage_zh="[试卷]"),
    Command("resume", "Back to your exam in progress", "回到进行中的考试", where=Where.private),
    Command("cancel", "Stop what is open: an exam, practice or draft", "结束进行中的考试、练习或草稿", where=Where.private),
    Command("mystats", "Your results", "我的成绩", where=Where.private),
]


def register(app: Application) -> None:
    """Add the exam's commands and buttons (its typed answers come through bot.private_text)."""
    app.add_handler(CommandHandler("papers", commands.papers))
    app.add_handler(CommandHandler("exam", commands.exam))
    app.add_handler(CommandHandler("practice", commands.practice))
    app.add_handler(CommandHandler("resume", commands.resume))
    app.add_handler(CommandHandler("cancel", commands.cancel))
    app.add_handler(CommandHandler("mystats", commands.mystats))
    app.add_handler(CallbackQueryHandler(buttons.button, pattern=r"^x:"))
    outbox.add_sender(app, OutboxKind.result, cards.send_result)
    outbox.add_sender(app, OutboxKind.result_in_place, cards.send_result_in_place, paced=False)
    jobs.register(app)


async def on_startup(app: Application) -> None:
    """Hand in attempts that expired while down; re-arm the deadlines of running ones."""
    await recover(app)


FEATURE = Parts("exam", COMMANDS, register, on_startup)
