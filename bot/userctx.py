"""Who is talking, in which language, and how they want question text shown: read from the update,
or from the user's record when there is no update (jobs, the outbox's cards)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import Application

from bot.context import Ctx, Seen
from bot.i18n import pick_lang
from bot.services import services
from proctor.chats import group_prefs, group_prefs_in
from proctor.people.users import UserPrefs, ensure_user, ensure_user_in, find_prefs

_GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


@dataclass(frozen=True, slots=True)
class UserCtx:
    """`lang` and `script` are those of the chat the update came from: a group's own when its
    administrators set one (/lang there), else the user's; `own_lang` and `own_script` are the
    user's, for what goes to their private chat (cards, files) and for button toasts."""

    id: int
    first_name: str
    lang: str
    script: str
    own_lang: str = ""
    own_script: str = ""

    def own(self) -> UserCtx:
        """The same user in their own language and script (for their private chat)."""
        return replace(self, lang=self.own_lang or self.lang, script=self.own_script or self.script)


def group_of(update: Update) -> int | None:
    """The group whose language answers this update: a message in a group (a button's toast is
    its presser's own)."""
    chat = update.effective_chat
    if chat is not None and chat.type in _GROUPS and update.callback_query is None:
        return chat.id
    return None


def seen_in(conn: sqlite3.Connection, user_id: int, first_name: str, username: str | None, now: float,
            group_id: int | None) -> Seen:
    """The claim's read (bot/intake.py), on the database thread."""
    prefs = ensure_user_in(conn, user_id, first_name, username, now)
    return Seen(prefs, None if group_id is None else group_prefs_in(conn, group_id))


async def user_ctx(update: Update, context: Ctx) -> UserCtx:
    """Record the user on first sight and return their preferences; a message in a group whose
    language is set is answered in the group's language and script, whoever sent it.

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
        prefs = await ensure_user(svc.db, tg.id, tg.first_name or "", tg.username, svc.now())
        seen = Seen(prefs, None if group_id is None else await group_prefs(svc.db, group_id))
    prefs = seen.prefs
    lang = pick_lang(prefs.language, tg.language_code, svc.settings.language)
    u = UserCtx(tg.id, prefs.first_name, lang, prefs.script, lang, prefs.script)
    if seen.group is not None and seen.group[0] is not None:  # the group's, set by its administrators
        group_language, group_script = seen.group
        u = replace(u, lang=pick_lang(group_language, None, svc.settings.language), script=group_script or "orig")
    return u


async def prefs_for(context: Ctx | Application, user_id: int) -> UserCtx:
    """A user's language and script when there is no update to read them from (jobs)."""
    return prefs_ctx(context, user_id, await find_prefs(services(context).db, user_id))


def prefs_ctx(context: Ctx | Application, user_id: int, prefs: UserPrefs | None) -> UserCtx:
    """`prefs_for` with the user's preferences already read (None: a user without a record)."""
    svc = services(context)
    if prefs is None:
        return UserCtx(user_id, "", svc.settings.language, "orig")
    lang = pick_lang(prefs.language, None, svc.settings.language)
    return UserCtx(user_id, prefs.first_name, lang, prefs.script, lang, prefs.script)
