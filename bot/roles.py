"""Team leads: the configured admin ids plus the Telegram administrators of the group.

Checked on every lead command. Group administrator lists are cached for a few minutes.
"""

from __future__ import annotations

from telegram.constants import ChatType
from telegram.error import TelegramError

from bot.services import HasBotData, Slot, services

ADMIN_CACHE_SECONDS = 300
# chat id -> (when fetched, its administrators' ids)
_CACHE: Slot[dict[int, tuple[float, frozenset[int]]]] = Slot("admin_cache", dict)


async def group_admin_ids(context: HasBotData, chat_id: int) -> frozenset[int]:
    """The group's Telegram administrators, cached for ADMIN_CACHE_SECONDS."""
    svc = services(context)
    cache = _CACHE.of(context)
    now = svc.now()
    hit = cache.get(chat_id)
    if hit and now - hit[0] < ADMIN_CACHE_SECONDS:
        return hit[1]
    try:
        admins = await context.bot.get_chat_administrators(chat_id)
    except TelegramError:
        return hit[1] if hit else frozenset()
    ids = frozenset(m.user.id for m in admins)
    cache[chat_id] = (now, ids)
    return ids


async def is_team_lead(context: HasBotData, user_id: int, chat_id: int | None,
                       chat_type: str | None) -> bool:
    """A configured admin anywhere, or an administrator of this group (in this group only)."""
    if services(context).is_admin(user_id):
        return True
    if chat_id is None or chat_type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return False
    return user_id in await group_admin_ids(context, chat_id)
