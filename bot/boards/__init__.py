"""Leaderboards for everyone: a group's daily-quiz or live ranking, your place in each team, best exam
scores by paper."""

from __future__ import annotations

from telegram.ext import Application, CommandHandler

from bot.boards import leaderboard
from bot.feature import Parts
from bot.menus import Command

COMMANDS: list[Command] = [
    Command("leaderboard", "Daily-quiz ranking: today, week, month, all; or paper <paper>; or live",
            "每日一练排行：today、week、month、all；或 paper <试卷>；或 live（抢答）"),
]


def register(app: Application) -> None:
    """Add /leaderboard."""
    app.add_handler(CommandHandler("leaderboard", leaderboard.leaderboard))


FEATURE = Parts("boards", COMMANDS, register)
