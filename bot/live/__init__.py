"""Live quiz rounds in a team group (/live): native quiz polls, scored by speed, standings, a podium."""

from __future__ import annotations

from telegram.ext import Application, CommandHandler, PollAnswerHandler

from bot import scheduling
from bot.feature import Parts
from bot.leads.added_reports import add_report
from bot.live import answering, commands, jobs
from bot.menus import Command, Where
from bot.scheduling import JobKind
from bot.services import services
from proctor.live import rounds

COMMANDS = [
    Command("live", "A live quiz round: leads start and stop it; me: your place",
            "群内抢答：组长开始与结束；me：你的名次", where=Where.group,
            usage="[paper|topic] [5q] [20s] · stop · me",
            usage_zh="[试卷|主题] [5q] [20s] · stop · me"),
]


def register(app: Application) -> None:
    app.add_handler(CommandHandler("live", commands.live))
    app.add_handler(PollAnswerHandler(answering.poll_answer))
    scheduling.register(app, JobKind.live, jobs.step_job)
    add_report(app, "live", commands.live_report)


async def on_startup(app: Application) -> None:
    """Every round that was running goes on."""
    jobs.recover(app, await rounds.unfinished(services(app).db))


FEATURE = Parts("live", COMMANDS, register, on_startup)
