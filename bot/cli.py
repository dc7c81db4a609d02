"""The `proctor` command: run the bot, try it in a sandbox, import and inspect the bank."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from pathlib import Path

from bot.logging_setup import LEVELS

# The imports inside the functions below are lazy on purpose, not to dodge a circle (nothing imports
# this module): `proctor bank ...` starts without loading telegram, the bot or the sandbox; and what
# `proctor run` needs (asyncio, sqlite3 too) is imported after main() has turned the
# collector off, not at this module's import (its collections cost ~4 ms of every cold start).


def _parser(*, bank: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="proctor", description="Exam Proctor: a Telegram bot for exams.")
    _global_options(p)
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the bot (long polling, or --webhook URL)")
    run.add_argument("--webhook", metavar="URL", help="serve a webhook at URL instead of polling")

    sandbox = sub.add_parser("sandbox", help="a fake Bot API server, the bot and a terminal chat: no token needed")
    sandbox.add_argument("--db", default=argparse.SUPPRESS, help="SQLite file (default: ./data/sandbox.db)")

    if bank:  # not for `proctor run`: the bank's commands (and the modules they import) are not needed
        from bot.backup_cli import add_backup_commands
        from bot.bank_cli import add_bank_commands

        add_bank_commands(sub)
        add_backup_commands(sub)
    _after_the_command(p)
    return p


def _global_options(p: argparse.ArgumentParser, default: object = None) -> None:
    p.add_argument("--db", default=default, help="SQLite file (default: $PROCTOR_DB or ./data/proctor.db)")
    p.add_argument("--log-level", type=str.upper, choices=LEVELS, default=default,
                   help="what to log on stderr (default: INFO for run, WARNING otherwise); secrets are always redacted")


def _after_the_command(p: argparse.ArgumentParser) -> None:
    """The global options on every command too: `proctor run --db X` as well as `proctor --db X run`
    (SUPPRESS: absent after the command, the value given before it stays)."""
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if "--db" not in command._option_string_actions:
                    _global_options(command, argparse.SUPPRESS)
                elif "--log-level" not in command._option_string_actions:  # sandbox: its own --db help
                    command.add_argument("--log-level", type=str.upper, choices=LEVELS, default=argparse.SUPPRESS,
                                         help=argparse.SUPPRESS)
                _after_the_command(command)


def _is_run(argv: list[str]) -> bool:
    """Whether the command is `run` (the global options may come first)."""
    globals_only = argparse.ArgumentParser(add_help=False)
    globals_only.add_argument("--db")
    globals_only.add_argument("--log-level")
    _, rest = globals_only.parse_known_args(argv)
    return rest[:1] == ["run"]


def main(argv: list[str] | None = None) -> int:
    # Start-up imports allocate much and free little: a collection during them is wasted time
    # (~25% of a cold start). It is back on once the command is set up; for `run`, once the bot
    # is built (bot.app.run_bot).
    gc.disable()
    try:
        return _main(argv)
    except BrokenPipeError:  # `proctor bank export | head`: the reader left; end quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the flush at exit does not complain either
        return 1
    finally:
        gc.enable()


def _main(argv: list[str] | None) -> int:
    args = _parser(bank=not _is_run(sys.argv[1:] if argv is None else argv)).parse_args(argv)
    if args.db:
        os.environ["PROCTOR_DB"] = args.db
    elif args.command != "sandbox":  # `.env`'s PROCTOR_DB too, as `proctor run` reads it (bot.settings)
        from bot.settings import setting

        if db := setting("PROCTOR_DB"):
            os.environ["PROCTOR_DB"] = db
    if args.command == "run":
        return _run(args)
    gc.enable()
    from bot.logging_setup import setup_logging

    setup_logging(args.log_level or logging.WARNING, fmt="%(levelname)s %(name)s: %(message)s")
    if args.command == "sandbox":
        # the entry point starts the layer above the bot (declared in pyproject's layers contract)
        import asyncio

        from bank.errors import BankError
        from proctor.errors import ProctorError
        from sandbox.session import run_sandbox

        try:
            return asyncio.run(run_sandbox(Path(args.db) if args.db else None))
        except (BankError, ProctorError) as e:  # a database that is not one, a directory, newer than the code: one line
            print(f"proctor: {e}", file=sys.stderr)
            return 1
    if hasattr(args, "backup_command"):  # `proctor backup|restore` (bot/backup_cli.py)
        from bot.backup_cli import run_backup_command

        return run_backup_command(args)
    from bot.bank_cli import run_bank_command

    return run_bank_command(args)


def _run(args) -> int:
    import sqlite3

    from bot.settings import SettingError, Settings, startup_error

    try:
        settings = Settings()  # from the environment and `.env` (bot.settings)
    except SettingError as e:
        print(startup_error(e), file=sys.stderr)
        return 2
    from bot.app import run_bot
    from bot.logging_setup import register_secret, register_token, setup_logging

    setup_logging(args.log_level or logging.INFO)
    register_token(settings.telegram_bot_token.get_secret_value())
    if settings.webhook_secret is not None:
        register_secret(settings.webhook_secret.get_secret_value(), "webhook secret")

    from bank.errors import BankError
    from bot.app import StartupFailed
    from proctor.errors import ProctorError

    try:
        return run_bot(settings, webhook_url=args.webhook)
    except (BankError, ProctorError, StartupFailed) as e:  # e.g. a database newer than the code: one clear line
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    except sqlite3.Error as e:  # the database failed while starting up (post_init): one line naming it
        from proctor.storage.db import unusable

        print(f"proctor: {unusable(settings.db, e)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
