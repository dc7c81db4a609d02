"""`proctor invite create|list`: invites in bulk for a hiring round, one link per line (or CSV)."""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from collections.abc import Callable
from datetime import UTC
from typing import TypeVar

from pydantic import ValidationError
from telegram import Bot
from telegram.error import InvalidToken, TelegramError

from bank.csv_safety import safe_cell
from bank.errors import BankError, NotFound
from bank.paper_list import AmbiguousPaper
from bot.invites.render import problem_text
from bot.logging_setup import redact, register_settings
from bot.settings import TOKEN, Settings, bad_setting, startup_error
from proctor.invites import store
from proctor.invites.links import link
from proctor.invites.listing import listing
from proctor.invites.request import (
    BadInvite,
    check_attempts,
    check_count,
    check_extra,
    check_window,
    find_paper,
    parse_duration,
)
from proctor.local_time import iso, moment
from proctor.storage.db import Database

T = TypeVar("T")


def add_invite_commands(subparsers: argparse._SubParsersAction) -> None:
    inv = subparsers.add_parser("invite", help="hiring invites: one link per candidate")
    sub = inv.add_subparsers(dest="invite_command", required=True)
    cr = sub.add_parser("create", help="make invites and print one link per line")
    cr.add_argument("--paper", required=True, help="its code (P3, as /papers and `proctor bank list` show it), title or part of the title")
    cr.add_argument("--count", type=int, default=1)
    cr.add_argument("--window", default="72h", help="how long the links can be started: 90m, 48h, 3d")
    cr.add_argument("--extra", help="extra time on the paper's limit, e.g. 15m")
    cr.add_argument("--attempts", type=int, default=1, help="attempts per invite")
    cr.add_argument("--bot", help="the bot's username (default: asked from Telegram (getMe) with TELEGRAM_BOT_TOKEN)")
    cr.add_argument("--lead", type=int, default=0, help="Telegram id of the lead who gets the result cards")
    cr.add_argument("--team", type=int, help="the team group's chat id")
    cr.add_argument("--csv", action="store_true", help="CSV: invite id, link, closes at")
    ls = sub.add_parser("list", help="every invite, newest first")
    ls.add_argument("--team", type=int, help="only this team group's")
    ls.add_argument("--csv", action="store_true")


def invite_commands() -> dict:
    return {"create": _create, "list": _list}


def _when(ts: float | None) -> str:
    """A moment on the command line (which has no reader's zone: UTC, named)."""
    return "" if ts is None else moment(ts, UTC)


async def bot_username(given: str | None) -> str:
    """`given` (--bot), else the bot's own username as Telegram tells it (getMe, with TELEGRAM_BOT_TOKEN
    and PROCTOR_BOT_API_URL). Raises BankError saying what to give."""
    if given and given.lstrip("@"):
        return given.lstrip("@")
    try:
        settings = Settings()
    except ValidationError as e:
        if (bad := bad_setting(e)).name == TOKEN and bad.missing:
            raise BankError("the links need the bot's username: give --bot NAME, or set TELEGRAM_BOT_TOKEN "
                            "and it is asked from Telegram") from None
        raise BankError(startup_error(e).removeprefix("proctor: ")) from None
    token = settings.telegram_bot_token.get_secret_value()
    register_settings(settings)
    try:
        async with Bot(token, base_url=settings.bot_api_url) as bot:  # initialising is its getMe
            return bot.username
    except InvalidToken:
        raise BankError("the Bot API rejected TELEGRAM_BOT_TOKEN (check it with @BotFather), or give --bot NAME") \
            from None
    except TelegramError as e:
        raise BankError(f"cannot ask the Bot API for the bot's username ({redact(str(e))}); "
                        "give --bot NAME, or check the network or PROCTOR_BOT_API_URL") from None


def _option(option: str, value: object, check: Callable[[], T]) -> T:
    """`check()`'s value; a BadInvite it raises is a BankError naming the option and its value."""
    try:
        return check()
    except BadInvite as e:
        raise BankError(f"{option} {value}: {problem_text(e, 'en')}") from None


async def _create(db: Database, args) -> int:
    # the options first, then the bot's username, then the paper: a failure creates no invite
    window = _option("--window", args.window, lambda: check_window(parse_duration(args.window)))
    extra = _option("--extra", args.extra, lambda: check_extra(int(parse_duration(args.extra) // 60))) \
        if args.extra else 0
    _option("--count", args.count, lambda: check_count(args.count))
    _option("--attempts", args.attempts, lambda: check_attempts(args.attempts))
    bot = await bot_username(args.bot)
    try:
        paper_id, _ = await find_paper(db, args.paper)
    except AmbiguousPaper as e:
        raise BankError(f"{e}; give one code") from None
    except NotFound:
        raise BankError(f"no single paper matches {args.paper!r}; `proctor bank list` shows each paper's code") from None
    try:
        # the command line is the operator's: a configured admin's rights (a team's leads still see a
        # hiring paper's sections and answers only once it is verified: `proctor team verify`)
        made = await store.create(db, paper_id=paper_id, team=args.team, lead=args.lead, now=time.time(),
                                  window=window, extra_min=extra, attempts=args.attempts, count=args.count,
                                  admin=True)
    except BadInvite as e:
        raise BankError(problem_text(e, "en")) from None
    out = csv.writer(sys.stdout) if args.csv else None
    if out:
        out.writerow(["invite", "link", "closes_at"])
    for inv, token in made:
        url = link(bot, token)
        if out:
            out.writerow([inv.id, url, iso(inv.closes_at, UTC)])
        else:
            print(url)
    return 0


async def _list(db: Database, args) -> int:
    rows = await listing(db, args.team, time.time(), limit=None)
    buf = io.StringIO()
    w = csv.writer(buf) if args.csv else None
    if w:
        w.writerow(["invite", "paper", "status", "candidate", "score", "max", "closes_at", "finished_at"])
    for r in rows:
        score = "" if r.score is None else f"{r.score:g}"
        if w:
            w.writerow([r.invite.id, safe_cell(r.paper), r.status.value, safe_cell(r.candidate), score,
                        "" if r.max_score is None else f"{r.max_score:g}", iso(r.invite.closes_at, UTC),
                        iso(r.finished_at, UTC)])
        else:
            buf.write(f"#{r.invite.id} {r.status.value:<8} {r.paper} · {r.candidate or '—'}"
                      f"{f' · {score}/{r.max_score:g}' if r.score is not None else ''} · "
                      f"closes {_when(r.invite.closes_at)}\n")
    sys.stdout.write(buf.getvalue() or "no invites\n")
    return 0

