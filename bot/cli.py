"""The `proctor` command: run the bot, try it in a sandbox, import and inspect the bank."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from pydantic import ValidationError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="proctor", description="Exam Proctor: a Telegram bot for exams.")
    p.add_argument("--db", help="SQLite file (default: $PROCTOR_DB or ./data/proctor.db)")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the bot (long polling, or --webhook URL)")
    run.add_argument("--webhook", metavar="URL", help="serve a webhook at URL instead of polling")

    sub.add_parser("sandbox", help="a fake Bot API server, the bot and a terminal chat: no token needed")

    from bot.bank_cli import add_bank_commands

    add_bank_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.db:
        os.environ["PROCTOR_DB"] = args.db
    if args.command == "run":
        return _run(args)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "sandbox":
        from sandbox.session import run_sandbox

        return asyncio.run(run_sandbox(Path(args.db) if args.db else None))
    from bot.bank_cli import run_bank_command

    return run_bank_command(args)


def _run(args) -> int:
    from bot.settings import TOKEN_HELP, Settings

    try:
        settings = Settings()
    except ValidationError as e:
        if any(err["loc"] and err["loc"][0] == "TELEGRAM_BOT_TOKEN" for err in e.errors()):
            print(TOKEN_HELP, file=sys.stderr)
        else:
            print(f"proctor: bad setting: {e.errors()[0]['loc'][0]}: {e.errors()[0]['msg']}", file=sys.stderr)
        return 2
    from bot.app import run_bot
    from bot.logging_setup import setup_logging

    setup_logging(settings.telegram_bot_token.get_secret_value())

    from bank.errors import BankError
    from bot.app import StartupFailed

    try:
        return run_bot(settings, webhook_url=args.webhook)
    except (BankError, StartupFailed) as e:  # e.g. a database newer than the code: one clear line
        print(f"proctor: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
