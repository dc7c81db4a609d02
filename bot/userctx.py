"""Who is talking, in which language, and how they want question text shown."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Update

from bot.context import Ctx
from bot.i18n import pick_lang
from proctor.people.users import ensure_user


@dataclass(frozen=True)
class UserCtx:
    id: int
    first_name: str
    lang: str
    script: str


async def user_ctx(update: Update, context: Ctx) -> UserCtx:
    """Record the user on first sight and return their preferences."""
    svc = context.services
    tg = context.user
    prefs = await ensure_user(svc.db, tg.id, tg.first_name or "", tg.username, svc.now())
    lang = pick_lang(prefs.language, tg.language_code, svc.settings.language)
    return UserCtx(tg.id, prefs.first_name, lang, prefs.script)
