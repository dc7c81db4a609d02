"""Hiring invites: one deep link per candidate, for one paper, inside a window; the result goes to the team."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import outbox
from bot.core import add_start_payload
from bot.feature import Parts
from bot.invites import buttons, cards, commands
from bot.leads.added_reports import add_report
from bot.menus import Command, Who
from proctor.invites.links import PREFIX
from proctor.outbox import Kind as OutboxKind

COMMANDS: list[Command] = [
    Command("invite", "Invite a candidate to a paper", "邀请候选人参加试卷", who=Who.lead,
            usage="<paper> [48h] [@username]", usage_zh="<试卷> [48h] [@用户名]"),
    Command("invites", "The team's invites", "团队的邀请", who=Who.lead),
]


def register(app: Application) -> None:
    app.add_handler(CommandHandler("invite", commands.invite))
    app.add_handler(CommandHandler("invites", commands.invites_list))
    app.add_handler(CallbackQueryHandler(buttons.on_button, pattern=r"^i:"))
    add_start_payload(app, PREFIX, commands.open_link)
    outbox.add_sender(app, OutboxKind.lead_card, cards.send_card)
    outbox.add_sender(app, OutboxKind.team_note, cards.send_note)
    add_report(app, "invites", commands.hiring_report)


FEATURE = Parts("invites", COMMANDS, register)
