"""Wiring: one place that builds the Application, opens services and registers every feature."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from functools import partial
from typing import Any

from telegram import BotCommandScopeChat
from telegram.error import BadRequest, InvalidToken, NetworkError, TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, Defaults

from bank.grading import warm_up
from bank.grading.terms import SegmentIn
from bank.paper_store import fill_key_terms
from bot import (
    authoring,
    boards,
    core,
    daily,
    exam,
    intake,
    invites,
    leadership,
    leads,
    lifecycle,
    live,
    menus,
    outbox,
    pacing,
    people,
    private_text,
    scheduling,
    webhook,
)
from bot.aiohttp_request import AiohttpRequest
from bot.context import Ctx, ProctorContext
from bot.desk_bridge import desk_context, start_desk, stop_desk
from bot.feature import Feature
from bot.i18n import LANGS
from bot.logging_setup import register_secret
from bot.ordering import PerUserUpdateProcessor
from bot.scheduling import JobKind
from bot.services import KEY, Services, services
from bot.settings import Settings
from proctor.clock import Clock, SystemClock
from proctor.outbox import backoff
from proctor.ratings_rebuild import ensure_built
from proctor.storage import updates
from proctor.storage.bootstrap import ensure_default_bank, open_database
from proctor.storage.db import Database
from proctor.storage.location import PostgresUrl
from proctor.storage.postgres_port import unported

log = logging.getLogger(__name__)
OPENED = "preflight_database"  # bot_data key: preflight's open database, until post_init takes it
# the command menu is registered by a job this long after start-up: the updates queued while the bot
# was down (the first replies) go first; nothing waits for the menu
MENU_DELAY = 1.0

# Order matters: features register before core's catch-all handlers (garbled buttons).
FEATURES: tuple[Feature, ...] = (exam.FEATURE, daily.FEATURE, boards.FEATURE, people.FEATURE, leads.FEATURE,
                                 invites.FEATURE, authoring.FEATURE, live.FEATURE)


def commands() -> list:
    """Every command in menu order: the table /help, the menus and docs/commands.md come from."""
    return [*core.COMMANDS, *(c for f in FEATURES for c in f.commands)]


def send_limiter(pace: pacing.Pace | None = None) -> pacing.Pacer:
    """Telegram's limits (bot/pacing.py): 30 messages/s overall in bursts of 3, 1 a second per chat,
    20 a minute per group; replies before the outbox's cards; a 429 holds only its chat."""
    return pacing.Pacer(pace)


def build_application(settings: Settings, *, clock: Clock | None = None,
                      rate_limiter: bool | pacing.Pacer = True) -> Application:
    """The Application with every handler and start-up step; nothing is opened yet.

    `rate_limiter`: True for Telegram's limits (`send_limiter()`), False for none, or another
    pacer (the tests' faster one: the same code paced for a fake server)."""
    clock = clock or SystemClock()
    processor = PerUserUpdateProcessor()  # metered on the real monotonic clock: it limits a real rate
    builder = (
        ApplicationBuilder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.bot_api_url)
        .defaults(Defaults(block=True))
        .concurrent_updates(processor)
        .context_types(ContextTypes(context=ProctorContext))  # every handler's and job's `context`
        .post_init(partial(_post_init, settings, clock))
        .post_stop(outbox.on_stop)
        .post_shutdown(_post_shutdown)
        .application_class(core.ProctorApplication)
        .updater(None)  # the bot polls with its own loop, which confirms only what it claimed (bot/polling.py)
    )
    # PTB's two HTTP clients (updates, everything else) on aiohttp, not PTB's httpx: the same requests
    # for about two thirds of the CPU (bot/aiohttp_request.py); TLS is aiohttp's default context,
    # made once when aiohttp is imported
    proxy = settings.bot_api_proxy
    builder = builder.request(AiohttpRequest(connection_pool_size=256, proxy=proxy)) \
        .get_updates_request(AiohttpRequest(connection_pool_size=1, proxy=proxy))
    if settings.bot_api_file_url:
        builder = builder.base_file_url(settings.bot_api_file_url)
    if rate_limiter:
        # PTB types the builder's limiter by the builder's own type variable (None here), not the
        # Pacer's int: a stubs gap, not a bug
        builder = builder.rate_limiter(send_limiter() if rate_limiter is True else rate_limiter)  # type: ignore[arg-type]
    app = builder.build()
    processor.on_overflow = lambda update: core.tell_too_fast(app, update)
    processor.on_drop = lambda update: intake.dropped(app, update)
    outbox.register(app)
    scheduling.register(app, JobKind.set_commands, _set_commands_job)
    menus.set_table(app, commands())
    core.register_first(app)
    for feature in FEATURES:
        feature.register(app)
    private_text.register(app)  # the exam's typed answers and the daily quiz's, above both features
    core.register_last(app)
    return app


async def _post_init(settings: Settings, clock: Clock, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Open the services; in polling mode the desk gets its own server (PROCTOR_DESK_PORT)."""
    await _open_services(settings, clock, app)
    if settings.desk_url:  # aiohttp and Jinja2 load only for a bot that serves the desk
        await start_desk(app)


async def _open_services(settings: Settings, clock: Clock, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Open the database and with it the services, import the default bank, re-arm every job and
    arm the command menu's registration. Nothing handles an update or runs a job before this."""
    db = app.bot_data.pop(OPENED, None)  # preflight's, when started by run_bot: opened and migrated once
    if not isinstance(db, Database):
        db = await open_database(settings.db)
    svc = app.bot_data[KEY] = Services(settings=settings, clock=clock, db=db)
    await updates.forget_old(svc.db, svc.now())
    imported = await ensure_default_bank(svc.db, svc.now())
    if imported:
        log.info("imported the bundled bank: %d papers", imported)
    if rebuilt := await ensure_built(svc.db, svc.now()):  # an upgraded database gets its ratings at once
        log.info("ratings built from the record: %d answers, %d people", rebuilt.events, rebuilt.people)
    # a bank imported before key terms were stored; jieba in a child: this process never holds its dictionary
    if filled := await fill_key_terms(svc.db, segment_in=SegmentIn.CHILD):
        log.info("found the key terms of %d reference answers", filled)
    for feature in FEATURES:
        await feature.on_startup(app)
    await outbox.on_startup(app)
    await asyncio.to_thread(warm_up)  # what every answer needs (OpenCC's tables), off the event loop
    # the command menu is registered by a job once the bot is up (MENU_DELAY): its round trips to
    # Telegram are not in the way of the first reply; a failure retries it (_try_set_commands)
    scheduling.once(app, JobKind.set_commands, None, MENU_DELAY, data=0)
    # updates an earlier run claimed (so confirmed to Telegram) and never finished: handled first
    await intake.take_back(app)


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    unused = app.bot_data.pop(OPENED, None)  # preflight opened it, post_init never ran
    if isinstance(unused, Database):
        await unused.close()
    svc = app.bot_data.get(KEY)  # None if post_init failed before the database opened
    if isinstance(svc, Services) and svc.settings.desk_url:
        await stop_desk(app)
    svc = app.bot_data.pop(KEY, None)
    if isinstance(svc, Services):
        await svc.db.close()


async def _set_commands(app: Application) -> None:
    """One menu per scope and language, each what /help shows there (bot/menus.py)."""
    commands = menus.table(app)
    for scope, caller in menus.menus(services(app).settings.admins):
        for lang, code in zip(LANGS, menus.menu_langs(), strict=True):
            try:
                await app.bot.set_my_commands(menus.menu(commands, caller, lang), scope=scope, language_code=code)
            except BadRequest as e:  # an admin who never opened a private chat: "chat not found"
                if not isinstance(scope, BotCommandScopeChat):
                    raise
                log.info("no admin menu for chat %s: %s", scope.chat_id, e)


async def _try_set_commands(app: Application, tries: int = 0) -> None:
    """Register the command menu; a failure never stops start-up: a transient one is retried in the
    background with backoff, a refusal is logged."""
    try:
        await _set_commands(app)
    except TelegramError as e:
        if outbox.is_permanent(e):
            log.warning("the command menu was refused: %s", e)
            return
        wait = backoff(tries + 1, outbox.retry_after(e))
        log.warning("could not register the command menu (%s); trying again in %.0fs", e, wait)
        scheduling.once(app, JobKind.set_commands, None, wait, data=tries + 1)


async def _set_commands_job(context: Ctx) -> None:
    await _try_set_commands(context.application, context.job_key)


class StartupFailed(Exception):
    """The bot cannot start: the message says why in one line."""


async def preflight(settings: Settings, app: Application) -> None:
    """Check the database and the Bot API before starting, so a problem is one clear line.

    The database stays open for the bot (post_init goes on with it). The API check is the
    Application's own bot initialising (its one getMe, on its own HTTP client), which
    the run then finds done. Raises StartupFailed (and lets bank
    errors such as DatabaseTooNew through).
    """
    db = await open_database(settings.db)
    try:
        await db.quick_check()  # a damaged file is one line now, not a traceback in the first handler
        await app.bot.initialize()
    except InvalidToken:
        await db.close()
        raise StartupFailed("the Bot API rejected TELEGRAM_BOT_TOKEN; check it with @BotFather") from None
    except NetworkError as e:
        await db.close()
        raise StartupFailed(f"cannot reach the Bot API ({_without_token(settings, str(e))}); "
                            "check the network or PROCTOR_BOT_API_URL") from None
    except TelegramError as e:
        await db.close()
        raise StartupFailed(f"the Bot API refused to start: {_without_token(settings, str(e))}") from None
    except BaseException:
        await db.close()
        raise
    app.bot_data[OPENED] = db  # post_init goes on with it: the file is opened and migrated once


def _without_token(settings: Settings, text: str) -> str:
    return text.replace(settings.telegram_bot_token.get_secret_value(), "<token>")


def run_bot(settings: Settings, *, webhook_url: str | None = None) -> int:
    """Run until interrupted: long polling, or a webhook with a secret token (on our aiohttp server,
    which serves the desk too: bot.webhook). On a PostgreSQL record the process first stands by until
    it leads (bot.leadership); it exits with leadership.EXIT_STOOD_DOWN when it stops leading."""
    if isinstance(settings.db, PostgresUrl) and (missing := unported()):
        raise StartupFailed(missing)
    clock = SystemClock()
    app = build_application(settings, clock=clock)
    # one event loop for the check and the run
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(preflight(settings, app))
    except BaseException:
        loop.run_until_complete(app.bot.shutdown())
        loop.close()
        raise
    campaign = None
    if isinstance(settings.db, PostgresUrl):  # active or standby: nothing below runs before it leads
        campaign = leadership.wait_to_lead(loop, app.bot_data[OPENED], settings.db)
        if campaign is None:  # stopped while standing by
            loop.run_until_complete(_post_shutdown(app))
            loop.run_until_complete(app.bot.shutdown())
            loop.close()
            return 0
    # what start-up built lives as long as the process: frozen, the collector's full sweeps leave it
    # alone (pauses of ~100 ms under load otherwise)
    gc.collect()
    gc.freeze()
    try:
        if webhook_url:
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else secrets.token_urlsafe(32)
            register_secret(secret, "webhook secret")  # PTB logs setWebhook's parameters at DEBUG
            webhook.run(app, loop, listen=settings.webhook_listen, port=settings.webhook_port, url=webhook_url,
                        secret=secret, prepare=partial(_open_services, settings, clock),
                        desk=desk_context if settings.desk_url else None)
            return 0
        return lifecycle.run(app, loop)
    finally:
        if campaign is not None:  # after the record's last write: the lease is released for the standby
            campaign.close()
