"""Hiring invites: one deep link per candidate, for one paper, inside a window; the result goes to the team.

Light: its handlers' modules load on first use (bot/feature.py)."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import outbox
from bot.core import StartPayload, add_start_payload
from bot.feature import Handler, Parts, on_first_use
from bot.leads.added_reports import Report, add_report
from bot.menus import Command, Who
from bot.outbox import Sender
from proctor.invites import PREFIX, RESULT_CARD, TEAM_NOTE

COMMANDS: list[Command] = [
    Command("invite", "Invite a candidate to a paper", "邀请候选人参加试卷", who=Who.lead,
            usage="<paper> [48h] [@username]", usage_zh="<试卷> [48h] [@用户名]"),
    Command("invites", "The team's invites", "团队的邀请", who=Who.lead),
]


def register(app: Application) -> None:
    app.add_handler(CommandHandler("invite", on_first_use(_invite)))
    app.add_handler(CommandHandler("invites", on_first_use(_invites_list)))
    app.add_handler(CallbackQueryHandler(on_first_use(_on_button), pattern=r"^i:"))
    add_start_payload(app, PREFIX, on_first_use(_open_link))
    outbox.add_sender(app, RESULT_CARD, on_first_use(_send_card))
    outbox.add_sender(app, TEAM_NOTE, on_first_use(_send_note))
    add_report(app, "invites", on_first_use(_hiring_report))


# The loaders: each imports the module holding the real callable when first called.

def _invite() -> Handler:
    from bot.invites.commands import invite

    return invite


def _invites_list() -> Handler:
    from bot.invites.commands import invites_list

    return invites_list


def _on_button() -> Handler:
    from bot.invites.buttons import on_button

    return on_button


def _open_link() -> StartPayload:
    from bot.invites.commands import open_link

    return open_link


def _send_card() -> Sender:
    from bot.invites.cards import send_card

    return send_card


def _send_note() -> Sender:
    from bot.invites.cards import send_note

    return send_note


def _hiring_report() -> Report:
    from bot.invites.commands import hiring_report

    return hiring_report


FEATURE = Parts("invites", COMMANDS, register)
