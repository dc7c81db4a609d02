"""Sending, editing and deleting text messages, and what every send and edit shares."""

from __future__ import annotations

from typing import Any

from sandbox.fakeapi.methods.chats import writable_chat
from sandbox.fakeapi.methods.errors import ApiError
from sandbox.fakeapi.methods.formatting import caption_mode, checked_caption, checked_text, text_mode
from sandbox.fakeapi.methods.markup import checked_markup
from sandbox.fakeapi.methods.params import require
from sandbox.fakeapi.methods.registry import Api, method
from sandbox.fakeapi.state import BotState, ChatInfo, StoredMessage

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


def reply_target(state: BotState, chat: ChatInfo, p: dict[str, Any]) -> int | None:
    reply = p.get("reply_parameters") or {}
    message_id = reply.get("message_id", p.get("reply_to_message_id"))
    if message_id is None:
        return None
    target = state.messages.get((chat.id, message_id))
    if target is not None and not target.deleted:
        return message_id
    if reply.get("allow_sending_without_reply") or p.get("allow_sending_without_reply"):
        return None
    raise ApiError.bad_request("message to be replied not found")


def admit(api: Api, chat: ChatInfo) -> None:
    retry_after = api.limiter.admit(chat.id, is_group=not chat.is_private)
    if retry_after:
        raise ApiError.retry_after(retry_after)


def admit_edit(api: Api, message: StoredMessage) -> None:
    """An edit in a group, counted when the limits count edits (RateLimits.count_edits)."""
    chat = api.state.chats[message.chat_id]
    retry_after = api.limiter.admit_edit(chat.id, is_group=not chat.is_private)
    if retry_after:
        raise ApiError.retry_after(retry_after)


def post(api: Api, chat: ChatInfo, p: dict[str, Any], **content: Any) -> dict[str, Any]:
    """What every send shares: its keyboard and reply target checked, the rate limits applied,
    then the bot's message stored and returned in the wire format."""
    state = api.state
    markup = checked_markup(p.get("reply_markup"))
    reply_to = reply_target(state, chat, p)
    admit(api, chat)
    message = state.new_message(chat, state.bot.id, reply_markup=markup,
                                protect_content=bool(p.get("protect_content")), reply_to=reply_to, **content)
    return state.message_to_api(message)


def editable(state: BotState, p: dict[str, Any]) -> StoredMessage:
    if p.get("inline_message_id"):
        raise ApiError.bad_request("MESSAGE_ID_INVALID")
    chat = writable_chat(state, p)
    message = state.messages.get((chat.id, require(p, "message_id")))
    if message is None or message.deleted:
        raise ApiError.bad_request("message to edit not found")
    if not message.from_bot:
        raise ApiError.bad_request("message can't be edited")
    return message


def edited(state: BotState, message: StoredMessage) -> dict[str, Any]:
    message.edit_date = state.now()
    message.edits += 1
    return state.message_to_api(message)


@method("sendMessage")
def send_message(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    state = api.state
    chat = writable_chat(state, p)
    mode = text_mode(p)
    raw, text = checked_text(p, mode)
    preview = p.get("link_preview_options")
    if preview is None and p.get("disable_web_page_preview"):
        preview = {"is_disabled": True}
    return post(api, chat, p, text=text, raw_text=raw, parse_mode=mode, entities=p.get("entities"),
                link_preview_options=preview)


@method("editMessageText")
def edit_message_text(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = editable(api.state, p)
    if message.text is None:
        raise ApiError.bad_request("there is no text in the message to edit")
    mode = text_mode(p)
    raw, text = checked_text(p, mode)
    # like Telegram: leaving out reply_markup removes the inline keyboard
    markup = checked_markup(p.get("reply_markup"))
    if (text, raw if mode else None, markup) == (
        message.text,
        message.raw_text if message.parse_mode else None,
        message.reply_markup,
    ):
        raise ApiError.bad_request(NOT_MODIFIED)
    admit_edit(api, message)
    message.text, message.raw_text, message.parse_mode = text, raw, mode
    message.entities = p.get("entities")
    message.reply_markup = markup
    if p.get("link_preview_options") is not None:
        message.link_preview_options = p["link_preview_options"]
    return edited(api.state, message)


@method("editMessageCaption")
def edit_message_caption(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = editable(api.state, p)
    if message.document is None and message.photo is None:
        raise ApiError.bad_request("there is no caption in the message to edit")
    raw, caption = checked_caption(p, caption_mode(p))
    markup = checked_markup(p.get("reply_markup"))
    if (caption, markup) == (message.caption, message.reply_markup):
        raise ApiError.bad_request(NOT_MODIFIED)
    message.caption, message.raw_text, message.reply_markup = caption, raw, markup
    return edited(api.state, message)


@method("editMessageReplyMarkup")
def edit_message_reply_markup(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = editable(api.state, p)
    markup = checked_markup(p.get("reply_markup"))
    if markup == message.reply_markup:
        raise ApiError.bad_request(NOT_MODIFIED)
    message.reply_markup = markup
    return edited(api.state, message)


def _delete(state: BotState, chat: ChatInfo, message_id: Any) -> bool:
    message = state.messages.get((chat.id, message_id))
    if message is None or message.deleted:
        return False
    if not (message.from_bot or chat.is_private or chat.bot_is_admin):
        raise ApiError.bad_request("message can't be deleted")
    message.deleted = True
    return True


@method("deleteMessage")
def delete_message(api: Api, p: dict[str, Any]) -> bool:
    chat = writable_chat(api.state, p)
    if not _delete(api.state, chat, require(p, "message_id")):
        raise ApiError.bad_request("message to delete not found")
    return True


@method("deleteMessages")
def delete_messages(api: Api, p: dict[str, Any]) -> bool:
    chat = writable_chat(api.state, p)
    for message_id in require(p, "message_ids"):
        _delete(api.state, chat, message_id)
    return True
