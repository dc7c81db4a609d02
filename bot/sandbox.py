"""`proctor sandbox`: the fake Bot API server, the real bot and a chat in the terminal — no token."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bank.db import DEFAULT_DB
from bot.app import build_application
from bot.fakeapi import FakeBotApi
from bot.fakeapi.terminal import terminal_chat
from bot.lifecycle import start_app, stop_app
from bot.settings import Settings

SANDBOX_TOKEN = "123456:SANDBOX-sandbox-sandbox-sandbox-00"
SANDBOX_USER = 1001


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


async def run_sandbox(db: Path | None = None) -> int:
    """`db`: only an explicit --db; PROCTOR_DB (a real bot's database) is never used by the sandbox."""
    db = db if db is not None else DEFAULT_DB.with_name("sandbox.db")
    server = FakeBotApi(token=SANDBOX_TOKEN, bot_username="proctor_sandbox_bot", first_update_id=_next_update_id(db))
    await server.start()
    settings = Settings(TELEGRAM_BOT_TOKEN=SANDBOX_TOKEN, PROCTOR_DB=db, PROCTOR_BOT_API_URL=server.base_url,
                        PROCTOR_ADMINS=str(SANDBOX_USER))
    app = build_application(settings)
    say(f"Sandbox: fake Bot API at {server.base_url}, database {db}.")
    say("You are user 1001 (a team lead) in a private chat with the bot. Type /help; "
        "press a button by typing its number; Ctrl-D to quit.")
    await start_app(app)
    try:
        await terminal_chat(server, server.user(SANDBOX_USER, first_name="You", language_code="en"), write=say)
    finally:
        await stop_app(app)
        await server.stop()
    return 0
