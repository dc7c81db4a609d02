"""The `proctor` command: run the bot, try it in a sandbox, import and inspect the bank."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys

from pydantic import ValidationError

from bank.errors import BankError
from bot.app import StartupFailed, run_bot
from bot.backup_cli import add_backup_commands, run_backup_command
from bot.bank_cli import add_bank_commands, run_bank_command
from bot.db_cli import add_db_commands, run_db_command
from bot.logging_setup import LEVELS, register_settings, setup_logging
from bot.ratings_cli import add_ratings_commands, run_ratings_command
from bot.settings import RecordSettings, Settings, startup_error, use_ptb_timedeltas
from proctor.errors import ProctorError
from proctor.storage.db import unusable
from proctor.storage.location import needs_file
from sandbox.session import run_sandbox  # the entry point starts the layer above the bot (pyproject's layers)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="proctor", description="Exam Proctor: a Telegram bot for exams.")
    _global_options(p)
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the bot (long polling, or --webhook URL)")
    run.add_argument("--webhook", metavar="URL", help="serve a webhook at URL instead of polling")

    sandbox = sub.add_parser("sandbox", help="a fake Bot API server, the bot and a terminal chat: no token needed")
    sandbox.add_argument("--db", default=argparse.SUPPRESS, help="SQLite file (default: ./data/sandbox.db)")

    add_bank_commands(sub)
    add_backup_commands(sub)
    add_db_commands(sub)
    add_ratings_commands(sub)
    _after_the_command(p)
    return p


def _global_options(p: argparse.ArgumentParser, default: object = None) -> None:
    p.add_argument("--db", default=default, help="SQLite file or postgresql:// URL (default: $PROCTOR_DB or ./data/proctor.db)")
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


def main(argv: list[str] | None = None) -> int:
    use_ptb_timedeltas()  # first: before any PTB object is built (tests/conftest.py does it for the tests)
    try:
        return _main(argv)
    except BrokenPipeError:  # `proctor bank export | head`: the reader left; end quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the flush at exit does not complain either
        return 1


def _parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line read; words no parser takes are reported by the command they follow (its
    usage and `proctor import: error: unrecognized arguments: --bogus`), as argparse reports any
    other mistake, not by the top parser with the whole program's usage."""
    words = sys.argv[1:] if argv is None else argv
    parser = _parser()
    args, extra = parser.parse_known_args(words)
    if extra:
        _command_before(parser, args, words, words.index(extra[0])).error(
            f"unrecognized arguments: {' '.join(extra)}")
    return args


def _command_before(parser: argparse.ArgumentParser, args: argparse.Namespace, words: list[str],
                    at: int) -> argparse.ArgumentParser:
    """The innermost (sub)command whose name comes before `words[at]` (`proctor bank list --x`: `bank list`)."""
    start = 0
    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, sub.dest, None) if sub is not None else None
        if sub is None or name not in sub.choices or name not in words[start:at]:
            return parser
        start = words.index(name, start) + 1
        parser = sub.choices[name]


def _main(argv: list[str] | None) -> int:
    args = _parse(argv)
    if hasattr(args, "db_run"):  # `proctor db copy SRC DST` (bot/db_cli.py) names both; PROCTOR_DB is not read
        return run_db_command(args)
    given = {"PROCTOR_DB": args.db} if args.db else {}  # --db over PROCTOR_DB (and `.env`'s)
    try:  # only `run` reads the bot's settings (a token and all); the other commands, where the record is
        record = Settings(**given) if args.command == "run" else RecordSettings(**given)
    except ValidationError as e:
        print(startup_error(e), file=sys.stderr)
        return 2
    if isinstance(record, Settings):
        return _run(args, record)
    setup_logging(args.log_level or logging.WARNING, fmt="%(levelname)s %(name)s: %(message)s")
    register_settings(record)
    if args.command == "sandbox":
        try:  # only an explicit --db: the sandbox never opens PROCTOR_DB, a real bot's database
            return asyncio.run(run_sandbox(needs_file(record.db, "proctor sandbox") if args.db else None))
        except ValidationError as e:  # the bot's other settings (PROCTOR_DESK_PORT, ...) as `run` reads them
            print(startup_error(e), file=sys.stderr)
            return 2
        except (BankError, ProctorError) as e:  # a database that is not one, a directory, newer than the code: one line
            print(f"proctor: {e}", file=sys.stderr)
            return 1
    if hasattr(args, "backup_command"):  # `proctor backup|restore` (bot/backup_cli.py)
        return run_backup_command(args, record.db)
    if hasattr(args, "ratings_run"):  # `proctor ratings recompute|replay` (bot/ratings_cli.py)
        return run_ratings_command(args, record.db)
    return run_bank_command(args, record.db)


def _run(args: argparse.Namespace, settings: Settings) -> int:
    setup_logging(args.log_level or logging.INFO)
    register_settings(settings)
    try:
        return run_bot(settings, webhook_url=args.webhook)
    except (BankError, ProctorError, StartupFailed) as e:  # e.g. a database newer than the code: one clear line
        print(f"proctor: {e}", file=sys.stderr)
        return 1
    except sqlite3.Error as e:  # the database failed while starting up (post_init): one line naming it
        print(f"proctor: {unusable(settings.db, e)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
