"""`/report <name>` views other features add (invites: the hiring view): they register here at build
time, so the leads' feature never imports the features built on it, and registering loads neither
/report's module nor theirs (bot/feature.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.ext import Application

from bot.context import Ctx
from bot.leads.access import Desk
from bot.services import Slot

Report = Callable[[Update, Ctx, "Desk"], Awaitable[None]]
_REPORTS: Slot[dict[str, Report]] = Slot("lead_reports", dict)  # /report <name> -> its feature's handler


def add_report(app: Application, name: str, handler: Report) -> None:
    """Another feature's `/report <name>`."""
    _REPORTS.of(app)[name] = handler


def reports(app: Application) -> list[str]:
    """The names of the views other features added to /report."""
    return list(_REPORTS.of(app))


def added_report(context: Ctx, name: str) -> Report | None:
    return _REPORTS.of(context).get(name)
