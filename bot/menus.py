"""Who may use which command where: the one table /help and the command menus are made from.

Each feature lists its commands (`Feature.commands`) with their audience (everyone, a team's lead, a
configured admin) and their place (a private chat, a group, either). A configured admin leads every
team, in private too; a group's administrators lead that group's team there. /help shows what the
caller can do in this chat; the menus (setMyCommands, one per scope and language) show the same:
private chats, groups, groups' administrators, and each configured admin's private chat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import NamedTuple

from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from telegram.ext import Application

from bank.script import to_script
from bot.i18n import HANT, LANGS, chinese, t
from bot.services import HasBotData, Slot


class Who(StrEnum):
    everyone = "everyone"
    lead = "lead"  # a team's lead: the group's administrators there, configured admins anywhere
    admin = "admin"  # a configured admin (PROCTOR_ADMINS): the question bank is every team's


class Where(StrEnum):
    private = "private"
    group = "group"
    anywhere = "anywhere"


class Command(NamedTuple):
    """A command in the menus and in /help: its name, what it does (English, Chinese), for whom, where."""

    name: str
    en: str
    zh: str
    who: Who = Who.everyone
    where: Where = Where.anywhere
    usage: str = ""  # its arguments, as /help shows them ("[today|week|month|all]"); the menu has no room
    usage_zh: str = ""  # the same in Chinese when it has words to translate ("<reason>": "<理由>")

    def describe(self, lang: str) -> str:
        return _in_script(self.zh, lang) if chinese(lang) else self.en

    def arguments(self, lang: str) -> str:
        return _in_script(self.usage_zh, lang) if chinese(lang) and self.usage_zh else self.usage


def _in_script(text: str, lang: str) -> str:
    """A Chinese description as a `t` language reads it (Traditional for HANT)."""
    return to_script(text, "hant") if lang == HANT else text


class Caller(NamedTuple):
    """What the caller is in this chat."""

    private: bool
    lead: bool  # leads this chat's team (a configured admin: in private too)
    admin: bool  # a configured admin


def offered(commands: Iterable[Command], caller: Caller) -> list[Command]:
    """The commands `caller` can use in this chat, in the table's order."""
    here = Where.private if caller.private else Where.group
    allowed = {Who.everyone} | ({Who.lead} if caller.lead else set()) | ({Who.admin} if caller.admin else set())
    return [c for c in commands if c.where in (here, Where.anywhere) and c.who in allowed]


_TABLE: Slot[list[Command]] = Slot("command_table", list)


def set_table(app: Application, entries: Iterable[Sequence]) -> None:
    """Every feature's commands, in menu order (bot/app.py, at build time); a bare (name, en, zh) is
    everyone's, anywhere."""
    _TABLE.of(app)[:] = [c if isinstance(c, Command) else Command(*c) for c in entries]


def table(ctx: HasBotData) -> list[Command]:
    return _TABLE.of(ctx)


def help_text(commands: Iterable[Command], caller: Caller, lang: str) -> str:
    """/help: what the caller can do here, everyone's first, then a lead's, then an admin's."""
    shown = offered(commands, caller)
    lines = [t("help_head_private" if caller.private else "help_head_group", lang)]
    for who, head in ((Who.everyone, None), (Who.lead, "help_lead"), (Who.admin, "help_admin")):
        mine = [c for c in shown if c.who is who]
        if mine:
            lines += ([""] + [t(head, lang)] if head else []) + [
                f"/{c.name}{' ' + c.arguments(lang) if c.usage else ''} – {c.describe(lang)}" for c in mine]
    lines += ["", t("help_more_private" if not caller.private else "help_more_group", lang)]
    return "\n".join(lines)


CANDIDATE_PRIVATE = Caller(private=True, lead=False, admin=False)
MEMBER_IN_GROUP = Caller(private=False, lead=False, admin=False)
LEAD_IN_GROUP = Caller(private=False, lead=True, admin=False)
ADMIN_PRIVATE = Caller(private=True, lead=True, admin=True)


def menus(admins: Iterable[int]) -> list[tuple[BotCommandScope, Caller]]:
    """Each menu scope with the caller it is for: the menu shows what /help shows there."""
    return [(BotCommandScopeDefault(), CANDIDATE_PRIVATE), (BotCommandScopeAllPrivateChats(), CANDIDATE_PRIVATE),
            (BotCommandScopeAllGroupChats(), MEMBER_IN_GROUP),
            (BotCommandScopeAllChatAdministrators(), LEAD_IN_GROUP),
            *((BotCommandScopeChat(admin), ADMIN_PRIVATE) for admin in sorted(admins))]


def menu(commands: Iterable[Command], caller: Caller, lang: str) -> list[BotCommand]:
    return [BotCommand(c.name, c.describe(lang)) for c in offered(commands, caller)]


def menu_langs() -> tuple[str | None, ...]:
    """setMyCommands' language_code per catalogue language: English is the default (None)."""
    return tuple(None if lang == "en" else lang for lang in LANGS)
