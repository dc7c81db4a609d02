"""Who is talking, and the voices the bot answers them in (bot/voice.py's rule): read from the update,
or from the user's record when there is no update (jobs, the outbox's cards)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import Application

from bot import voice
from bot.context import Ctx, Seen
from bot.services import services
from bot.voice import Voice
from proctor.chats import group_prefs, group_prefs_in
from proctor.people.users import UserPrefs, ensure_user, ensure_user_in, find_prefs

_GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


@dataclass(frozen=True, slots=True)
class UserCtx:
    """`here` is the voice of a reply where the update came from: for a message in a group the
    group's, for a button's toast or a private chat the user's own; `mine` is the user's own, for
    what goes to their private chat (cards, files, the private result of a group quiz)."""

    id: int
    first_name: str
    here: Voice
    mine: Voice

    @property
    def lang(self) -> str:
        """What `t` takes for a reply here."""
        return self.here.lang

    @property
    def script(self) -> str:
        """How question text is shown in a reply here."""
        return self.here.script

    @property
    def own_lang(self) -> str:
        """What `t` takes for a message to the user's private chat."""
        return self.mine.lang

    def own(self) -> UserCtx:
        """The same user, answered in their private chat (their own voice)."""
        return replace(self, here=self.mine)


def group_of(update: Update) -> int | None:
    """The group whose language answers this update: a message in a group (a button's toast is
    its presser's own)."""
    chat = update.effective_chat
    if chat is not None and chat.type in _GROUPS and update.callback_query is None:
        return chat.id
    return None


def seen_in(conn: sqlite3.Connection, user_id: int, first_name: str, username: str | None, now: float,
            group_id: int | None, telegram_language: str | None = None) -> Seen:
    """The claim's read (bot/intake.py), on the database thread."""
    prefs = ensure_user_in(conn, user_id, first_name, username, now, telegram_language=telegram_language)
    return Seen(prefs, None if group_id is None else group_prefs_in(conn, group_id))


async def user_ctx(update: Update, context: Ctx) -> UserCtx:
    """Record the user on first sight and return their voices: a message in a group is answered in
    the group's (bot/voice.py), whoever sent it; a button's toast and a private chat in their own.

    The first call for an update takes what its claim read (`context.claim`: the user's record,
    written for a new or renamed user, and the group's language): no trip of its own; a later call
    (after /lang, say) reads it anew."""
    svc = context.services
    tg = context.user
    group_id = group_of(update)
    claim = context.claim
    seen = None if claim is None else claim.seen
    if claim is not None and seen is not None:
        context.claim = replace(claim, seen=None)  # taken
    if seen is None or seen.prefs.id != tg.id:
        prefs = await ensure_user(svc.db, tg.id, tg.first_name or "", tg.username, svc.now(),
                                  telegram_language=tg.language_code)
        seen = Seen(prefs, None if group_id is None else await group_prefs(svc.db, group_id))
    mine = voice.to_person(seen.prefs, svc.settings.language, tg.language_code)
    here = mine if group_id is None else voice.to_group(seen.group, svc.settings.language)
    return UserCtx(tg.id, seen.prefs.first_name, here, mine)


async def prefs_for(context: Ctx | Application, user_id: int) -> UserCtx:
    """A user's language and script when there is no update to read them from (jobs)."""
    return prefs_ctx(context, user_id, await find_prefs(services(context).db, user_id))


def prefs_ctx(context: Ctx | Application, user_id: int, prefs: UserPrefs | None) -> UserCtx:
    """`prefs_for` with the user's preferences already read (None: a user without a record)."""
    mine = voice.of_prefs(context, prefs)
    return UserCtx(user_id, prefs.first_name if prefs is not None else "", mine, mine)
