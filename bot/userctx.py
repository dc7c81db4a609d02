"""Who is talking, in which language, and how they want question text shown."""

from __future__ import annotations

from dataclasses import dataclass, replace

from telegram import Update
from telegram.constants import ChatType

from bot.context import Ctx
from bot.i18n import pick_lang
from proctor.chats import group_prefs
from proctor.people.users import UserPrefs, ensure_user
from proctor.storage.db import carried, run_carried

_GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


@dataclass(frozen=True)
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


async def user_ctx(update: Update, context: Ctx) -> UserCtx:
    """Record the user on first sight and return their preferences; a message in a group whose
    language is set is answered in the group's language and script, whoever sent it.

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
    u = UserCtx(tg.id, prefs.first_name, lang, prefs.script, lang, prefs.script)
    chat = update.effective_chat
    if chat is not None and chat.type in _GROUPS and update.callback_query is None:
        group_language, group_script = await group_prefs(svc.db, chat.id)
        if group_language is not None:  # the group's, set by its administrators (bot/chat_prefs.py)
            u = replace(u, lang=pick_lang(group_language, None, svc.settings.language),
                        script=group_script or "orig")
    return u
