"""Who is talking, in which language, and how they want question text shown."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Update

from bot.context import Ctx
from bot.i18n import pick_lang
from proctor.people.users import UserPrefs, ensure_user
from proctor.storage.db import carried, run_carried


@dataclass(frozen=True)
class UserCtx:
    id: int
    first_name: str
    lang: str
    script: str


async def user_ctx(update: Update, context: Ctx) -> UserCtx:
    """Record the user on first sight and return their preferences.

    The first call for an update takes the record its claim read, or wrote for a new or renamed
    user (bot.core), in the handler's first round trip: no trip of its own unless it comes first;
    a later call (after /lang, say) reads it anew."""
    svc = context.services
    tg = context.user
    prefs = None
    claim = carried()
    if claim is not None:
        await run_carried()
        prefs, claim.result = claim.result, None
    if not isinstance(prefs, UserPrefs) or prefs.id != tg.id:
        prefs = await ensure_user(svc.db, tg.id, tg.first_name or "", tg.username, svc.now())
    lang = pick_lang(prefs.language, tg.language_code, svc.settings.language)
    return UserCtx(tg.id, prefs.first_name, lang, prefs.script)
