"""Leaderboards for everyone: a group's daily-quiz or live ranking, your place in each team, best exam
scores by paper."""

from __future__ import annotations

from telegram.ext import Application, CommandHandler

from bot.boards import leaderboard, ratings
from bot.feature import Parts
from bot.menus import Command

COMMANDS: list[Command] = [
    Command("leaderboard", "Daily-quiz ranking: today, week, month, all; or paper <paper>; or live; or rating",
            "每日一练排行：today、week、month、all；或 paper <试卷>；或 live（抢答）；或 rating（等级分）"),
    Command("rating", "Be named on your groups' rating boards: public or private",
            "是否在群组等级分榜上显示：public 或 private", usage="public|private"),
]


def register(app: Application) -> None:
    """Add /leaderboard and /rating."""
    app.add_handler(CommandHandler("leaderboard", leaderboard.leaderboard))
    app.add_handler(CommandHandler("rating", ratings.rating))


FEATURE = Parts("boards", COMMANDS, register)
