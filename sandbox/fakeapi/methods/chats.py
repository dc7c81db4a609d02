"""Chats and members: chat lookup, getChat, members, administrators, and accepted no-op methods."""

from __future__ import annotations

from typing import Any

from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.params import names, require
from sandbox.fakeapi.methods.registry import Api, method
from sandbox.fakeapi.state import BotState, ChatInfo


def find_chat(state: BotState, chat_id: Any) -> ChatInfo:
    if isinstance(chat_id, str) and chat_id.startswith("@"):
        found = next((c for c in state.chats.values() if c.username == chat_id[1:]), None)
    else:
        found = state.chats.get(chat_id) if isinstance(chat_id, int) else None
    if found is None:
        raise ApiError.chat_not_found()
    return found


def writable_chat(state: BotState, p: dict[str, Any]) -> ChatInfo:
    chat = find_chat(state, require(p, "chat_id"))
    if chat.blocked:
        raise ApiError.blocked() if chat.is_private else ApiError.kicked()
    if not chat.started:
        raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
    return chat


@method("getChat")
def get_chat(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    chat = find_chat(api.state, require(p, "chat_id"))
    gifts = (
        "unlimited_gifts",
        "limited_gifts",
        "unique_gifts",
        "premium_subscription",
        "gifts_from_channels",
    )
    return {
        **chat.to_api(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": dict.fromkeys(gifts, False),
    }


_ADMIN_RIGHTS = names(
    "can_manage_chat can_delete_messages can_manage_video_chats can_restrict_members "
    "can_promote_members can_change_info can_invite_users can_post_stories can_edit_stories "
    "can_delete_stories can_pin_messages can_manage_topics"
)


def _member(state: BotState, chat: ChatInfo, user_id: int) -> dict[str, Any]:
    user = state.users.get(user_id)
    if user is None:
        raise ApiError.bad_request("user not found")
    info = {"user": user.to_api()}
    if chat.is_private:
        status = "member" if user_id in (chat.id, state.bot.id) else "left"
        return {**info, "status": status}
    if chat.admins and chat.admins[0] == user_id:
        return {**info, "status": "creator", "is_anonymous": False}
    if user_id in chat.admins or (user_id == state.bot.id and chat.bot_is_admin):
        rights = dict.fromkeys(_ADMIN_RIGHTS, True)
        return {**info, "status": "administrator", "can_be_edited": False, "is_anonymous": False, **rights}
    if user_id in chat.members or user_id == state.bot.id:
        return {**info, "status": "member"}
    return {**info, "status": "left"}


@method("getChatMember")
def get_chat_member(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    chat = find_chat(api.state, require(p, "chat_id"))
    return _member(api.state, chat, int(require(p, "user_id")))


@method("getChatAdministrators")
def get_chat_administrators(api: Api, p: dict[str, Any]) -> list[dict[str, Any]]:
    chat = find_chat(api.state, require(p, "chat_id"))
    if chat.is_private:
        raise ApiError.bad_request("there are no administrators in the private chat")
    admins = list(chat.admins) + ([api.state.bot.id] if chat.bot_is_admin else [])
    return [_member(api.state, chat, user_id) for user_id in admins]


@method("getChatMemberCount")
def get_chat_member_count(api: Api, p: dict[str, Any]) -> int:
    chat = find_chat(api.state, require(p, "chat_id"))
    return 2 if chat.is_private else len(chat.members | set(chat.admins)) + 1


@method(
    "close",
    "logOut",
    "setMyDefaultAdministratorRights",
    "sendChatAction",
    "pinChatMessage",
    "unpinChatMessage",
    "unpinAllChatMessages",
    "leaveChat",
    "setMessageReaction",
)
def accept(api: Api, p: dict[str, Any]) -> bool:
    if "chat_id" in p:
        find_chat(api.state, p["chat_id"])
    return True
