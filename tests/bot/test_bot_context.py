"""The wiring: every feature is a Feature whose menu commands have handlers, and every handler and
job gets the typed context (bot/context.py) with the services opened in post_init."""

import asyncio

import pytest
from telegram.ext import CommandHandler, TypeHandler

from bot import core, scheduling
from bot.app import FEATURES, build_application
from bot.context import ProctorContext
from bot.feature import Parts
from bot.scheduling import JobKind
from bot.services import services
from proctor.storage.db import Database
from tests.harness import BotEnv
from tests.papers_fixture import small_paper


def _commands_handled(app) -> set[str]:
    return {c for handlers in app.handlers.values() for h in handlers if isinstance(h, CommandHandler)
            for c in h.commands}


def _menu_without_handler(app, features) -> set[str]:
    """Commands a feature puts in the menu that no handler answers."""
    menu = {c[0] for c in core.COMMANDS} | {c[0] for f in features for c in f.commands}
    return menu - _commands_handled(app)


def test_each_feature_registers_a_handler_for_every_command_of_its_menu(tmp_path):
    app = build_application(BotEnv(tmp_path).settings())
    assert [f.name for f in FEATURES] == [  # the registration order
        "exam", "daily", "boards", "people", "leads", "invites", "authoring", "live"]
    assert _menu_without_handler(app, FEATURES) == set()


def test_a_feature_that_forgets_a_handler_is_caught(tmp_path):
    app = build_application(BotEnv(tmp_path).settings())
    forgetful = Parts("forgetful", [("ghost", "A command with no handler", "没有处理程序的命令")], lambda app: None)
    forgetful.register(app)
    assert _menu_without_handler(app, (*FEATURES, forgetful)) == {"ghost"}


def test_services_exist_only_while_the_bot_runs(tmp_path):
    app = build_application(BotEnv(tmp_path).settings())
    with pytest.raises(RuntimeError, match="post_init"):
        services(app)  # nothing is open before post_init: no handler can run with a missing database


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location)
    await e.seed(small_paper())
    await e.start()
    yield e
    await e.close()


async def test_a_real_update_reaches_the_handlers_with_the_typed_context(env):
    seen: list[ProctorContext] = []

    async def probe(update, context) -> None:
        seen.append(context)

    env.app.add_handler(TypeHandler(object, probe), group=-2)  # before every feature's handlers
    ann = env.api.user(1001, "Ann")
    await ann.send("/start")
    await env.idle()
    assert ann.last_message().text  # /start answered through the same context type
    assert len(seen) == 1
    context = seen[0]
    assert type(context) is ProctorContext
    assert context.services is services(env.app)
    assert isinstance(context.services.db, Database)
    assert context.now() == env.clock.now()
    assert context.caller_id == ann.id
    assert context.chat.id == ann.id and context.message.text == "/start"
    assert not await context.caller_is_lead()  # not a configured admin, in a private chat


async def test_a_job_gets_the_typed_context_with_its_key(env):
    ran: asyncio.Future[ProctorContext] = asyncio.get_running_loop().create_future()

    async def job(context: ProctorContext) -> None:
        ran.set_result(context)

    scheduling.once(env.app, JobKind.deadline, 42, callback=job)  # the feature's callback left aside
    context = await asyncio.wait_for(ran, 10)
    assert type(context) is ProctorContext
    assert context.job_key == 42
    with pytest.raises(LookupError):
        _ = context.caller_id  # a job has no caller
