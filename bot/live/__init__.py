"""Live quiz rounds in a team group (/live): native quiz polls, scored by speed, standings, a podium.

Light: its handlers' modules (and proctor.live's) load on first use (bot/feature.py); start-up loads
them only when SQLite holds a round to go on with."""

from __future__ import annotations

from telegram.ext import Application, CommandHandler, PollAnswerHandler

from bot import scheduling
from bot.feature import Handler, Parts, on_first_use
from bot.leads.added_reports import Report, add_report
from bot.menus import Command, Where
from bot.scheduling import Callback
from bot.services import services
from proctor.live import pending

COMMANDS = [
    Command("live", "A live quiz round: leads start and stop it; me: your place",
            "群内抢答：组长开始与结束；me：你的名次", where=Where.group,
            usage="[paper|topic] [5q] [20s] · stop · me",
            usage_zh="[试卷|主题] [5q] [20s] · stop · me"),
]


def register(app: Application) -> None:
    app.add_handler(CommandHandler("live", on_first_use(_live)))
    app.add_handler(PollAnswerHandler(on_first_use(_poll_answer)))
    scheduling.register(app, scheduling.LIVE, on_first_use(_step_job))
    add_report(app, "live", on_first_use(_live_report))


async def on_startup(app: Application) -> None:
    """Every round that was running goes on (nothing loads when there is none)."""
    if ids := await pending.unfinished(services(app).db):
        from bot.live.jobs import recover

        recover(app, ids)


# The loaders: each imports the module holding the real callable when first called.

def _live() -> Handler:
    from bot.live.commands import live

    return live


def _poll_answer() -> Handler:
    from bot.live.answering import poll_answer

    return poll_answer


def _step_job() -> Callback:
    from bot.live.jobs import step_job

    return step_job


def _live_report() -> Report:
    from bot.live.commands import live_report

    return live_report


FEATURE = Parts("live", COMMANDS, register, on_startup)
