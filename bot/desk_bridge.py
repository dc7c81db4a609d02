"""The desk's one Telegram adapter: roles and notices through the running Application, the text
catalogue, and starting / stopping the desk's web server with the bot. It lives in bot/ (bot sits
above desk): the desk never imports the bot, the bot hands it what it needs."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiohttp import web
from telegram.ext import Application

from bot import i18n, outbox
from bot.membership import check_roster
from bot.roles import group_admin_ids
from bot.services import Slot, services
from desk.server import serve
from desk.web import DeskContext
from proctor.teams.review import Outcome

log = logging.getLogger(__name__)


@dataclass
class DeskServer:
    runner: web.AppRunner | None = None  # while the desk is served
    caller_reports: bool = False  # a busy port is said by whoever started the bot (the sandbox), not logged


SERVER: Slot[DeskServer] = Slot("desk_server", DeskServer)


def desk_runner(app: Application) -> web.AppRunner | None:
    """The desk's web server while it runs (None: not started, or its port was busy)."""
    return SERVER.of(app).runner


def report_busy_port_yourself(app: Application) -> None:
    """The caller says a busy desk port in its own words (the sandbox's terminal: `desk_runner` is
    None after start-up), so it is not logged as well: one line, not two."""
    SERVER.of(app).caller_reports = True


class TelegramBridge:
    """desk.access.Bridge over the bot's Application."""

    def __init__(self, app: Application):
        self.app = app

    def is_admin(self, user_id: int) -> bool:
        return services(self.app).is_admin(user_id)

    async def group_admins(self, chat_id: int) -> frozenset[int]:
        return await group_admin_ids(self.app, chat_id)

    async def check_roster(self, chat_id: int | None) -> None:
        await check_roster(self.app, chat_id)

    def notify_reviewed(self, outcome: Outcome) -> None:
        outbox.kick(self.app)  # set_final queued the candidate's notice in its own transaction

    def deliver_notices(self) -> None:
        outbox.kick(self.app)  # a key fix queued its notices in its own transaction


def desk_context(app: Application) -> DeskContext:
    svc = services(app)
    s = svc.settings
    return DeskContext(db=svc.db, bridge=TelegramBridge(app), bot_token=s.telegram_bot_token.get_secret_value(), texts=i18n,
                       clock=svc.clock, default_lang=s.language, default_zone=s.timezone,
                       https=(s.desk_url or "").startswith("https://"))


async def start_desk(app: Application) -> None:
    """Serve the desk on PROCTOR_DESK_LISTEN:PROCTOR_DESK_PORT; a busy port is logged (unless the
    caller says it: `report_busy_port_yourself`), not fatal."""
    s = services(app).settings
    try:
        runner = await serve(desk_context(app), s.desk_listen, s.desk_port)
    except OSError as e:
        if not SERVER.of(app).caller_reports:
            log.error("the desk cannot listen on %s:%s (%s); the bot runs without it", s.desk_listen, s.desk_port, e)
        return
    SERVER.of(app).runner = runner
    log.info("the desk is served on %s:%s", s.desk_listen, s.desk_port)


async def stop_desk(app: Application) -> None:
    server = SERVER.of(app)
    runner, server.runner = server.runner, None
    if runner is not None:
        await runner.cleanup()
