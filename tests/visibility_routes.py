"""Every route a person (or the machine's owner) can take, read from the application itself: the
commands and updates in the Application's handler table, `/report <name>` views and deep links the
features registered, every member of every callback codec's enum, every outbox kind and job kind
(with the sender and callback registered for it), every desk route, every command-line subcommand.

A route is a short string (what the matrix's failures name):
    /bankstats                          a command
    /report invites                     a view another feature added to /report
    /start inv_…                        a deep link's payload prefix
    button ^l: Action.uphold            a member of a codec's enum, under its handler's pattern
    update bot.daily.answering.group_reply   any other handler (text, replies, files, poll answers)
    outbox invite_result                an outbox kind (its stored value)
    job daily-close                     a job kind
    desk GET /items.csv                 a desk route (path under /desk)
    cli proctor bank show               a leaf subcommand of `proctor`
"""

from __future__ import annotations

import argparse
import inspect
from enum import Enum
from typing import Any

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot import cli, outbox, scheduling
from bot.authoring import callbacks as authoring_cb
from bot.core import start_payloads
from bot.exam import callbacks as exam_cb
from bot.invites import callbacks as invites_cb
from bot.leads import callbacks as leads_cb
from bot.leads.added_reports import reports
from bot.scheduling import JobKind
from desk.server import make_app
from proctor import outbox as outbox_kinds
from proctor.daily import steps as daily_steps
from proctor.exams import steps as exam_steps
from proctor.exams.states import AttemptMode

# Each callback handler's pattern and the enums its codec decodes to (a pattern without a row here is
# an unclassified route). Typed text is a step too, but no button's: it is a route of private text.
CODECS: dict[str, tuple[type[Enum], ...]] = {
    "^x:": (exam_steps.Action, exam_cb.Screen),
    "^d:": (daily_steps.Action,),
    "^l:": (leads_cb.Action,),
    "^i:": (invites_cb.Press,),
    "^a:": (authoring_cb.UploadAction, authoring_cb.DraftAction, authoring_cb.EditqAction,
            authoring_cb.NewPaperAction),
}
TYPED = (exam_steps.Action.typed, daily_steps.Action.typed)


def button(pattern: str, member: Enum) -> str:
    return f"button {pattern} {type(member).__name__}.{member.name}"


def forget_press(confirm: bool) -> str:
    """/forgetme's buttons (`f:`): its codec's Press, by confirm (delete or keep)."""
    return f"button ^f: Press(confirm={confirm})"


def pick(start: bool, mode: AttemptMode) -> str:
    """The exam's paper buttons (`x:p`, `x:go`): the codec's Pick, by start and mode."""
    return f"button ^x: Pick(start={start}, mode={mode.name})"


def _handler_name(callback: Any) -> str:
    inner = inspect.getclosurevars(callback).nonlocals.get("handler")  # bot.feature.for_admins' wrapper
    target = inner if callable(inner) else callback
    suffix = " (admins only)" if callable(inner) else ""
    return f"{target.__module__}.{target.__qualname__}{suffix}"


def bot_routes(app: Application) -> set[str]:
    """Every route of the bot's handler table and registries."""
    found: set[str] = set()
    for handlers in app.handlers.values():
        for h in handlers:
            if isinstance(h, CommandHandler):
                found |= {f"/{c}" for c in h.commands}
            elif isinstance(h, CallbackQueryHandler) and h.pattern is not None:
                pattern = h.pattern.pattern if hasattr(h.pattern, "pattern") else str(h.pattern)
                if pattern == "^f:":
                    found |= {forget_press(confirm) for confirm in (False, True)}
                    continue
                enums = CODECS.get(pattern)
                if enums is None:
                    found.add(f"button {pattern} (no codec row)")
                    continue
                found |= {button(pattern, m) for enum in enums for m in enum if m not in TYPED}
                if pattern == "^x:":
                    found |= {pick(start, mode) for start in (False, True) for mode in AttemptMode}
            else:
                found.add(f"update {_handler_name(h.callback)}")
    found |= {f"/report {name}" for name in reports(app)}
    found |= {f"/start {prefix}…" for prefix in start_payloads(app)}
    senders = outbox.senders(app)
    found |= {f"outbox {kind.value}" + ("" if kind in senders else " (no sender)") for kind in outbox_kinds.Kind}
    callbacks = scheduling.kinds(app)
    found |= {f"job {kind.value}" + ("" if kind in callbacks else " (no callback)") for kind in JobKind}
    return found


def desk_routes() -> set[str]:
    """Every route of the desk's router (static files aside)."""
    app = make_app(None)  # type: ignore[arg-type]  # the router alone: no request is served
    found = set()
    for route in app.router.routes():
        info = route.resource.get_info() if route.resource is not None else {}
        path = info.get("path") or info.get("formatter") or ""
        if "prefix" in info:  # the static files
            continue
        if route.method != "HEAD":
            found.add(f"desk {route.method} {path}")
    return found


def cli_routes() -> set[str]:
    """Every leaf subcommand of `proctor` (its argparse parser, walked)."""
    found: set[str] = set()

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            found.add("cli proctor " + " ".join(words))
        for action in subs:
            for name, sub in action.choices.items():
                walk(sub, (*words, name))

    walk(cli._parser(), ())
    return found
