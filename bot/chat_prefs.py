"""The language and script of what the bot posts in a group: the group's own (/lang and /script by
its administrators, proctor/chats.py), else PROCTOR_LANGUAGE and the questions as written. Daily
quizzes and live rounds read it here."""

from __future__ import annotations

from bot.i18n import LANGS
from bot.services import HasBotData, services
from proctor.chats import group_prefs


async def group_lang(ctx: HasBotData, chat_id: int) -> tuple[str, str]:
    """(language, script) for messages to the group."""
    svc = services(ctx)
    lang, script = await group_prefs(svc.db, chat_id)
    default = svc.settings.language if svc.settings.language in LANGS else "en"
    return (lang if lang in LANGS else default), (script or "orig")
