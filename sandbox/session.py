"""`proctor sandbox`: the fake Bot API server, the real bot and a chat in the terminal — no token."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from bot.app import build_application
from bot.lifecycle import start_app, stop_app
from bot.services import services
from bot.settings import Settings
from desk.telegram_bridge import RUNNER
from proctor.storage.db import DEFAULT_DB
from proctor.teams.desk_tokens import LINK_SECONDS, issue_link
from sandbox.fakeapi import FakeBotApi, FakeGroup, FakeUser
from sandbox.terminal import terminal_chat

SANDBOX_TOKEN = "123456:SANDBOX-sandbox-sandbox-sandbox-00"
SANDBOX_USER = 1001
SANDBOX_GROUP = -1001000000001  # a supergroup id, as Telegram writes them
TEAMMATES = ((1002, "Ann"), (1003, "Bob"))
BANNER = """\
You are user 1001 (a team lead) in a private chat with the bot. Type /help; press a button by typing its number.
You are also the administrator of the group "Sandbox team", with Ann and Bob as members:
  team: /daily now       a line starting with `team:` (or `t:`) is sent in the group; its bot lines read
                         `team bot [#12]: ...`, 12 being the message's number
  team: 2                presses button 2 of the group message printed last with buttons
  team: 12.2             presses button 2 of group message [#12]
  team: reply 12 text    replies to group message [#12] (how a fill-in question is answered)
  ann: team: 2           does it as Ann (also `as ann:`, `bob:`); `ann: /start` is Ann's private chat
Toasts are seen only by whoever pressed the button: `(toast to Ann) ...`. In the group the bot only gets
commands and replies to its messages (privacy mode). Ctrl-D to quit."""


def say(text: str) -> None:
    """Print at once: when stdout is a pipe (a script driving the sandbox) it is block-buffered."""
    print(text, flush=True)


def _next_update_id(db: Path) -> int:
    """Above every update id this database has seen, as Telegram's ids keep growing."""
    if not db.exists():
        return 1
    try:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return int(conn.execute("SELECT COALESCE(MAX(update_id), 0) FROM processed_updates").fetchone()[0]) + 1
    except sqlite3.Error:
        return 1


def _next_message_ids(db: Path) -> dict[int, int]:
    """Per chat, above every message id the database refers to (attempt screens, quiz questions):
    a new session's fake chats must not hand out an id an old exam or quiz still points at."""
    if not db.exists():
        return {}
    try:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            rows = conn.execute(
                """SELECT chat_id, MAX(m) FROM (
                       SELECT chat_id, message_id AS m FROM attempts WHERE message_id IS NOT NULL
                       UNION ALL
                       SELECT d.chat_id, i.message_id FROM daily_items i
                       JOIN daily_deliveries d ON d.id = i.delivery_id WHERE i.message_id IS NOT NULL)
                   GROUP BY chat_id""").fetchall()
    except sqlite3.Error:
        return {}
    return {chat_id: int(top) + 1 for chat_id, top in rows}


def cast(server: FakeBotApi) -> tuple[FakeUser, FakeGroup, list[FakeUser]]:
    """You (a configured lead), the team group you administer, and the teammates in it."""
    you = server.user(SANDBOX_USER, first_name="You", language_code="en")
    teammates = [server.user(uid, first_name=name, language_code="en") for uid, name in TEAMMATES]
    group = server.group(SANDBOX_GROUP, "Sandbox team")
    group.set_admins([you.id])
    group.add_members(*(mate.id for mate in teammates))
    return you, group, teammates


async def run_sandbox(db: Path | None = None) -> int:
    """`db`: only an explicit --db; PROCTOR_DB (a real bot's database) is never used by the sandbox."""
    db = db if db is not None else DEFAULT_DB.with_name("sandbox.db")
    server = FakeBotApi(token=SANDBOX_TOKEN, bot_username="proctor_sandbox_bot", first_update_id=_next_update_id(db))
    await server.start()
    desk_port = int(os.environ.get("PROCTOR_DESK_PORT") or 8080)
    settings = Settings(TELEGRAM_BOT_TOKEN=SANDBOX_TOKEN, PROCTOR_DB=db, PROCTOR_BOT_API_URL=server.base_url,
                        PROCTOR_ADMINS=str(SANDBOX_USER), PROCTOR_DESK_URL=f"http://127.0.0.1:{desk_port}",
                        PROCTOR_DESK_PORT=desk_port)
    app = build_application(settings)
    say(f"Sandbox: fake Bot API at {server.base_url}, database {db}.")
    say(BANNER)
    you, group, teammates = cast(server)
    next_ids = _next_message_ids(db)
    for chat in [you.private, group.info, *(mate.private for mate in teammates)]:
        chat.next_message_id = max(chat.next_message_id, next_ids.get(chat.id, 1))
    await start_app(app)
    await _print_desk_link(app)
    try:
        await terminal_chat(server, you, group=group, teammates=teammates, write=say)
    finally:
        await stop_app(app)
        await server.stop()
    return 0


async def _print_desk_link(app) -> None:
    """The sandbox lead's way into the desk from a desktop browser: a one-time login link."""
    svc = services(app)
    if RUNNER not in svc.extra:
        say(f"The lead's desk could not start on port {svc.settings.desk_port}: set PROCTOR_DESK_PORT.")
        return
    token = await issue_link(svc.db, SANDBOX_USER, svc.now())
    say(f"The lead's desk: open {svc.settings.desk_url}/desk/link#{token} in a browser "
        f"(one-time link, {LINK_SECONDS // 60} minutes; /desk link gives a new one).")
