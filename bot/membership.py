"""Who is in a group, as Telegram says (getChatMember): checked when someone joins a roster and,
at most every consent.CHECK_EVERY per member, before a lead's view of the roster.

Why asking and not listening: a bot in privacy mode that is not an administrator gets no
chat_member updates, and large groups hide join and leave messages, so leaving can't be seen
as an event. The last answer is kept in SQLite (proctor/teams/consent.py), so a view costs a call
per member only when that member's answer is older than CHECK_EVERY, and none in between.
"""

from __future__ import annotations

import logging

from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.services import HasBotData, services
from proctor.teams import consent

log = logging.getLogger(__name__)

_INSIDE = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


async def in_group(app_or_context: HasBotData, chat_id: int, user_id: int) -> bool | None:
    """Whether the user is in the group now; None when Telegram could not be asked (network, flood)."""
    try:
        member = await app_or_context.bot.get_chat_member(chat_id, user_id)
    except (BadRequest, Forbidden):  # no such user or chat, or the bot is out of the group: not in it
        return False
    except TelegramError:
        log.info("could not ask whether %s is in %s", user_id, chat_id, exc_info=True)
        return None
    if member.status in _INSIDE:
        return True
    return member.status == ChatMemberStatus.RESTRICTED and bool(getattr(member, "is_member", False))


async def check_roster(app_or_context: HasBotData, chat_id: int | None) -> None:
    """Bring the group's record of who on its roster is still in it up to date: ask about the
    members whose last answer is stale. A question Telegram could not answer is asked again at the
    next view; meanwhile the last answer stands."""
    if chat_id is None:
        return
    svc = services(app_or_context)
    due = await consent.due_checks(svc.db, chat_id, svc.now())
    found = {}
    for user_id in due:
        inside = await in_group(app_or_context, chat_id, user_id)
        if inside is not None:
            found[user_id] = inside
    await consent.record_checks(svc.db, chat_id, found, svc.now())
