"""`proctor sandbox`: the fake Bot API server, the real bot and a chat in the terminal — no token."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from telegram.ext import Application

from bot.app import build_application
from bot.desk_bridge import desk_runner, report_busy_port_yourself
from bot.i18n import tn
from bot.lifecycle import start_app, stop_app
from bot.ordering import PerUserUpdateProcessor
from bot.services import services
from bot.settings import Settings
from proctor.clock import ShiftedClock
from proctor.storage import message_ids, updates
from proctor.storage.db import DEFAULT_DB, Database
from proctor.teams.desk_tokens import LINK_SECONDS, issue_link
from sandbox.fakeapi import FakeBotApi, FakeGroup, FakeUser
from sandbox.terminal import terminal_chat
from sandbox.tick import tick

SANDBOX_TOKEN = "123456:SANDBOX-sandbox-sandbox-sandbox-00"
SANDBOX_USER = 1001
LEAD_NAME = "Lee"  # the sandbox's lead: named on boards the others see, not "You"
SANDBOX_GROUP = -1001000000001  # a supergroup id, as Telegram writes them
TEAMMATES = ((1002, "Ann"), (1003, "Bob"))  # each with a username: /team accept @bob
BANNER = f"""\
You are {LEAD_NAME} (@{LEAD_NAME.lower()}, user {SANDBOX_USER}, a team lead and the bot's configured admin) in a
private chat with the bot. Type /help; press a button by typing its number (`!2` always presses button 2: where
the bot asks you to type an answer, a bare number is sent as the answer).
/tick 1h moves the bot's clock forward an hour (also 30m, 2d, 1w) and runs what fell due: deadlines, the
quiz's close, digests, tomorrow's quiz.
/upload FILE sends a file from this computer to the bot as a document (a question sheet to import, say).
You are also the administrator of the group "Sandbox team", with Ann (@ann) and Bob (@bob) as members:
  team: /daily now       a line starting with `team:` (or `t:`) is sent in the group; its bot lines read
                         `team bot [#12]: ...`, 12 being the message's number
  team: 2                presses button 2 of the group message printed last with buttons
  team: 12.2             presses button 2 of group message [#12]
  team: reply 12 text    replies to group message [#12] (how a fill-in question is answered)
  ann: team: 2           does it as Ann (also `as ann:`, `bob:`); `ann: /start` is Ann's private chat
  team: /live 3q 15s     a live round: quiz polls print their options numbered; `ann: poll 2` answers as Ann
Toasts are seen only by whoever pressed the button: `(toast to Ann) ...`. In the group the bot only gets
commands and replies to its messages (privacy mode). Ctrl-D to quit."""


def say(text: str) -> None:
    """Print at once: when stdout is a pipe (a script driving the sandbox) it is block-buffered."""
    print(text, flush=True)


async def _continue_from(db_path: Path) -> tuple[int, dict[int, int]]:
    """(the first update id, per chat the first message id) a new session's fake server hands out:
    above every id the database has seen, as Telegram's ids keep growing and old screens stay valid."""
    db = await Database.open(db_path)
    try:
        return await updates.next_update_id(db), await message_ids.next_per_chat(db)
    finally:
        await db.close()


def handled_by(app: Application, timeout: float = 60.0) -> Callable[[int], Awaitable[bool]]:
    """`await handled(update_id)`: True once the bot has handled that update to the end (its claim is
    done), False if not within `timeout` s. How the terminal knows the bot finished a line."""

    async def handled(update_id: int) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            try:
                svc = services(app)
            except RuntimeError:  # the bot stopped meanwhile (post_shutdown closed its services)
                return False
            if await updates.is_done(svc.db, app.bot.id, update_id):
                return True
            await asyncio.sleep(0.02)  # polls a condition; no outcome depends on how long this is
        return False

    return handled


def cast(server: FakeBotApi) -> tuple[FakeUser, FakeGroup, list[FakeUser]]:
    """You (a configured lead), the team group you administer, and the teammates in it."""
    you = server.user(SANDBOX_USER, first_name=LEAD_NAME, username=LEAD_NAME.lower(), language_code="en")
    teammates = [server.user(uid, first_name=name, username=name.lower(), language_code="en")
                 for uid, name in TEAMMATES]
    group = server.group(SANDBOX_GROUP, "Sandbox team")
    group.set_admins([you.id])
    group.add_members(*(mate.id for mate in teammates))
    return you, group, teammates


async def _drain(server: FakeBotApi, app: Application) -> None:
    """Stops the bot once it fetched every update typed: stopping handles every fetched update."""
    with contextlib.suppress(TimeoutError):
        await server.wait_for(lambda: not server.state.updates.undelivered, timeout=60, what="updates fetched")
    await stop_app(app)


async def run_sandbox(db: Path | None = None) -> int:
    """`db`: only an explicit --db; PROCTOR_DB (a real bot's database) is never used by the sandbox."""
    db = db if db is not None else DEFAULT_DB.with_name("sandbox.db")
    # the rest (PROCTOR_DESK_PORT, the language, the zone...) as the environment and `.env` set them,
    # read before anything starts: a bad one is one line (ValidationError, said by bot.cli)
    settings = Settings(TELEGRAM_BOT_TOKEN=SANDBOX_TOKEN, PROCTOR_DB=db, PROCTOR_ADMINS=str(SANDBOX_USER))
    first_update_id, next_ids = await _continue_from(db)
    clock = ShiftedClock(_clock_offset(db))
    server = FakeBotApi(token=SANDBOX_TOKEN, bot_username="proctor_sandbox_bot", first_update_id=first_update_id,
                        clock=clock.now)
    await server.start()
    settings = settings.model_copy(update={"bot_api_url": server.base_url, "bot_api_file_url": server.base_file_url,
                                           "desk_url": f"http://127.0.0.1:{settings.desk_port}"})
    app = build_application(settings, clock=clock)
    report_busy_port_yourself(app)  # _print_desk_link says it
    # piped lines come faster than a person types: the per-user flood meter would drop them
    processor = app.update_processor
    if isinstance(processor, PerUserUpdateProcessor):  # always: bot.app builds it
        processor.burst = processor.max_pending_per_user = 1_000_000
    files = db.parent / f"{db.stem}-files"
    say(f"Sandbox: fake Bot API at {server.base_url}, database {db}; files the bot sends go to {files}.")
    say(BANNER)
    you, group, teammates = cast(server)
    for chat in [you.private, group.info, *(mate.private for mate in teammates)]:
        chat.next_message_id = max(chat.next_message_id, next_ids.get(chat.id, 1))

    async def move_clock(seconds: float) -> str:
        ran = await tick(app, clock, seconds)
        _keep_clock(db, clock)
        at = datetime.fromtimestamp(clock.now(), UTC).strftime("%a %Y-%m-%d %H:%M UTC")
        return f"(clock) now {at}; {tn('n_due_job', ran, 'en')} ran"

    await start_app(app)
    await _print_desk_link(app)
    try:
        # at EOF the bot is stopped first (every update it fetched is handled), then the rest printed
        await terminal_chat(server, you, group=group, teammates=teammates, write=say,
                            handled=handled_by(app), drain=lambda: _drain(server, app), tick=move_clock,
                            files_dir=files)
    finally:
        if app.running:
            await stop_app(app)
        await server.stop()
        _keep_clock(db, clock)
    return 0


def _clock_file(db: Path) -> Path:
    return db.with_name(f"{db.stem}-clock.txt")


def _clock_offset(db: Path) -> float:
    """How far ahead of real time the sandbox's clock starts: where the last session on this database
    left it (`/tick` moved it), so what was due later on that clock (a quiz's close, a deadline) is
    still later, not days ago; 0 for a new database or one whose clock real time has caught up with."""
    try:
        left_at = float(_clock_file(db).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return 0.0
    return max(0.0, left_at - time.time())


def _keep_clock(db: Path, clock: ShiftedClock) -> None:
    """Write the clock's time beside the database (after each /tick and at the end)."""
    path = _clock_file(db)
    with contextlib.suppress(OSError):  # a read-only folder: the next session starts at real time
        scratch = path.with_suffix(".tmp")
        scratch.write_text(f"{clock.now():.3f}\n", encoding="ascii")
        os.replace(scratch, path)


async def _print_desk_link(app) -> None:
    """The sandbox lead's way into the desk from a desktop browser: a one-time login link."""
    svc = services(app)
    if desk_runner(app) is None:
        say(f"The lead's desk needs port {svc.settings.desk_port}, which is taken: start the sandbox with "
            f"PROCTOR_DESK_PORT set to a free port (PROCTOR_DESK_PORT=8081 proctor sandbox) to have it.")
        return
    token = await issue_link(svc.db, SANDBOX_USER, svc.now())
    say(f"The lead's desk (port {svc.settings.desk_port}; PROCTOR_DESK_PORT=8081 proctor sandbox picks another): "
        f"open {svc.settings.desk_url}/desk/link#{token} in a browser "
        f"(one-time link, {LINK_SECONDS // 60} minutes; /desk link gives a new one).")
