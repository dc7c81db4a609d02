"""Bot API methods over BotState, with Telegram's validation rules and error texts."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from http import HTTPStatus
from typing import Any
from urllib.parse import urlparse

from bot.fakeapi.limits import RateLimiter
from bot.fakeapi.state import BotState, ChatInfo, StoredFile, StoredMessage

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_TOAST = 200
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


class ApiError(Exception):
    """An error answer: HTTP status, description and optional response parameters."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    @classmethod
    def bad_request(cls, text: str) -> ApiError:
        return cls(400, f"Bad Request: {text}")

    @classmethod
    def retry_after(cls, seconds: int = 1) -> ApiError:
        return cls(429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds})

    @classmethod
    def blocked(cls) -> ApiError:
        return cls(403, "Forbidden: bot was blocked by the user")

    @classmethod
    def kicked(cls) -> ApiError:
        return cls(403, "Forbidden: bot was kicked from the group chat")

    @classmethod
    def server_error(cls, code: int = 500) -> ApiError:
        return cls(code, HTTPStatus(code).phrase)

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            data["parameters"] = self.parameters
        return data


@dataclass(frozen=True)
class UploadedPart:
    """A file part of a multipart request."""

    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Api:
    """What a method implementation works on."""

    state: BotState
    limiter: RateLimiter


Handler = Callable[[Api, dict[str, Any]], Any | Awaitable[Any]]
METHODS: dict[str, tuple[str, Handler]] = {}  # lower-case name -> (canonical name, handler)


def method(*names: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        for name in names:
            METHODS[name.lower()] = (name, func)
        return func

    return register


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --- decoding request parameters ------------------------------------------------------------

_INT_FIELDS = _names(
    "message_id user_id offset limit timeout reply_to_message_id cache_time max_connections "
    "message_thread_id correct_option_id open_period from_chat_id"
)
_BOOL_FIELDS = _names(
    "protect_content disable_notification show_alert drop_pending_updates "
    "disable_web_page_preview is_anonymous allows_multiple_answers allow_sending_without_reply "
    "is_closed has_spoiler allows_revoting members_only disable_content_type_detection allow_paid_broadcast for_channels"
)
_JSON_FIELDS = _names(
    "reply_markup reply_parameters link_preview_options entities caption_entities commands "
    "scope allowed_updates options message_ids menu_button rights explanation_entities "
    "question_entities"
)


def decode_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Turns form strings into the values a JSON body would carry (PTB JSON-encodes non-strings)."""
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if isinstance(value, str):
            value = _decode_field(name, value)
        params[name] = value
    return params


def _decode_field(name: str, value: str) -> Any:
    if name == "chat_id":
        return int(value) if value.lstrip("-").isdigit() else value
    if name in _INT_FIELDS:
        try:
            return int(value)
        except ValueError:
            raise ApiError.bad_request(f"invalid {name} specified") from None
    if name in _BOOL_FIELDS:
        return value.lower() in ("true", "1")
    if name in _JSON_FIELDS:
        try:
            return json.loads(value)
        except ValueError:
            what = "reply keyboard markup" if name == "reply_markup" else name
            raise ApiError.bad_request(f"can't parse {what} JSON object") from None
    return value


def _require(p: dict[str, Any], name: str) -> Any:
    value = p.get(name)
    if value is None or value == "":
        raise ApiError.bad_request(f"{name} is empty")
    return value


# --- formatted text -------------------------------------------------------------------------

_HTML_TAGS = _names("b strong i em u ins s strike del span tg-spoiler a code pre blockquote tg-emoji")
_MDV2_RESERVED = set(">#+-=|{}.!()")


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise ApiError.bad_request(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise ApiError.bad_request(f'can\'t parse entities: Unexpected end tag "{tag}"')
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _html_visible(text: str) -> str:
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    if parser.open:
        raise ApiError.bad_request(
            f"can't parse entities: Can't find end tag corresponding to start tag \"{parser.open[-1]}\""
        )
    return "".join(parser.parts)


def _markdown_visible(text: str, strict: bool) -> str:
    """Strips Markdown markup; with `strict` (MarkdownV2) unescaped reserved chars are errors."""
    out: list[str] = []
    marks: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and strict and i + 1 < n:
            out.append(text[i + 1])
            i += 2
        elif c == "`":
            fence = "```" if text.startswith("```", i) else "`"
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise ApiError.bad_request(
                    f"can't parse entities: Can't find end of the entity starting at byte offset {i}"
                )
            out.append(text[i + len(fence) : end])
            i = end + len(fence)
        elif text.startswith(("||", "__"), i) and strict:
            _toggle(marks, text[i : i + 2])
            i += 2
        elif c in "*_~":
            _toggle(marks, c)
            i += 1
        elif c == "[":
            marks.append("[")
            i += 1
        elif c == "]" and marks and marks[-1] == "[":
            marks.pop()
            close = text.find(")", i)
            if not text.startswith("(", i + 1) or close < 0:
                raise ApiError.bad_request(
                    "can't parse entities: Character ']' is reserved and must be escaped with the preceding '\\'"
                )
            i = close + 1
        elif strict and c in _MDV2_RESERVED and not (c == ">" and (i == 0 or text[i - 1] == "\n")):
            raise ApiError.bad_request(
                f"can't parse entities: Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        else:
            out.append(c)
            i += 1
    if marks:
        raise ApiError.bad_request("can't parse entities: Can't find end of the entity")
    return "".join(out)


def _toggle(marks: list[str], mark: str) -> None:
    if marks and marks[-1] == mark:
        marks.pop()
    else:
        marks.append(mark)


def visible_text(text: str, parse_mode: str | None) -> str:
    """The text the user sees once Telegram applied `parse_mode`."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        return _html_visible(text)
    if mode in ("markdownv2", "markdown"):
        return _markdown_visible(text, strict=mode == "markdownv2")
    if mode:
        raise ApiError.bad_request(f"unsupported parse_mode {parse_mode}")
    return text


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _checked_text(p: dict[str, Any], name: str = "text") -> tuple[str, str]:
    raw = p.get(name)
    if not isinstance(raw, str) or not raw.strip():
        raise ApiError.bad_request("message text is empty")
    mode = None if p.get("entities") else p.get("parse_mode")
    text = visible_text(raw, mode)
    if not text.strip():
        raise ApiError.bad_request("message text is empty")
    if utf16_len(text) > MAX_TEXT:
        raise ApiError.bad_request("message is too long")
    return raw, text


def _checked_caption(p: dict[str, Any]) -> tuple[str | None, str | None]:
    raw = p.get("caption")
    if not raw:
        return None, None
    text = visible_text(raw, p.get("parse_mode"))
    if utf16_len(text) > MAX_CAPTION:
        raise ApiError.bad_request("message caption is too long")
    return raw, text


# --- keyboards, chats, messages -------------------------------------------------------------

_BUTTON_ACTIONS = _names(
    "callback_data url web_app login_url switch_inline_query switch_inline_query_current_chat "
    "switch_inline_query_chosen_chat copy_text callback_game pay"
)


def checked_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise ApiError.bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup  # reply keyboard, remove keyboard or force reply: accepted as is
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise ApiError.bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
        )
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise ApiError.bad_request("BUTTON_TEXT_INVALID")
        if not any(key in button for key in _BUTTON_ACTIONS):
            raise ApiError.bad_request("text buttons are unallowed in the inline keyboard")
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                raise ApiError.bad_request("BUTTON_DATA_INVALID")
        if "url" in button and urlparse(str(button["url"])).scheme not in ("http", "https", "tg"):
            raise ApiError.bad_request("BUTTON_URL_INVALID")
    return markup


def find_chat(state: BotState, chat_id: Any) -> ChatInfo:
    if isinstance(chat_id, str) and chat_id.startswith("@"):
        found = next((c for c in state.chats.values() if c.username == chat_id[1:]), None)
    else:
        found = state.chats.get(chat_id) if isinstance(chat_id, int) else None
    if found is None:
        raise ApiError.bad_request("chat not found")
    return found


def writable_chat(state: BotState, p: dict[str, Any]) -> ChatInfo:
    chat = find_chat(state, _require(p, "chat_id"))
    if chat.blocked:
        raise ApiError.blocked() if chat.is_private else ApiError.kicked()
    if not chat.started:
        raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
    return chat


def _reply_target(state: BotState, chat: ChatInfo, p: dict[str, Any]) -> int | None:
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


def _admit(api: Api, chat: ChatInfo) -> None:
    retry_after = api.limiter.admit(chat.id, is_group=not chat.is_private)
    if retry_after:
        raise ApiError.retry_after(retry_after)


def _editable(state: BotState, p: dict[str, Any]) -> StoredMessage:
    if p.get("inline_message_id"):
        raise ApiError.bad_request("MESSAGE_ID_INVALID")
    chat = writable_chat(state, p)
    message = state.messages.get((chat.id, _require(p, "message_id")))
    if message is None or message.deleted:
        raise ApiError.bad_request("message to edit not found")
    if not message.from_bot:
        raise ApiError.bad_request("message can't be edited")
    return message


def _edited(state: BotState, message: StoredMessage) -> dict[str, Any]:
    message.edit_date = state.now()
    message.edits += 1
    return state.message_to_api(message)


# --- updates and webhooks -------------------------------------------------------------------


@method("getMe")
def get_me(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return {
        **api.state.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@method("getUpdates")
async def get_updates(api: Api, p: dict[str, Any]) -> list[dict[str, Any]]:
    state, queue = api.state, api.state.updates
    if state.webhook.url:
        raise ApiError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )
    offset = p.get("offset")
    limit = min(max(int(p.get("limit") or 100), 1), 100)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0.0, float(p.get("timeout") or 0))
    generation = queue.new_poller()
    while True:
        if not queue.is_current(generation):
            raise ApiError(
                409,
                "Conflict: terminated by other getUpdates request; "
                "make sure that only one bot instance is running",
            )
        if offset is not None:
            queue.confirm(offset)
        batch = queue.take(limit)
        remaining = deadline - loop.time()
        if batch or state.closing or remaining <= 0:
            return batch
        await queue.wait(remaining)


def _is_local_url(url: str) -> bool:
    return urlparse(url).hostname in ("127.0.0.1", "localhost", "::1")


@method("setWebhook")
def set_webhook(api: Api, p: dict[str, Any]) -> bool:
    state = api.state
    url = p.get("url") or ""
    if url and not (url.startswith("https://") or _is_local_url(url)):
        raise ApiError.bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if p.get("drop_pending_updates"):
        state.updates.clear()
    state.webhook.url = url
    state.webhook.secret_token = p.get("secret_token")
    state.webhook.max_connections = p.get("max_connections") or 40
    state.webhook.allowed_updates = p.get("allowed_updates")
    state.updates.wake()
    return True


@method("deleteWebhook")
def delete_webhook(api: Api, p: dict[str, Any]) -> bool:
    if p.get("drop_pending_updates"):
        api.state.updates.clear()
    api.state.webhook.url = ""
    return True


@method("getWebhookInfo")
def get_webhook_info(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    hook = api.state.webhook
    info: dict[str, Any] = {
        "url": hook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(api.state.updates),
    }
    if hook.url:
        info["max_connections"] = hook.max_connections
        if hook.allowed_updates is not None:
            info["allowed_updates"] = hook.allowed_updates
    return info


# --- bot profile ----------------------------------------------------------------------------

_SCOPES = _names(
    "default all_private_chats all_group_chats all_chat_administrators chat chat_administrators chat_member"
)
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def _commands_key(api: Api, p: dict[str, Any]) -> tuple[str, str]:
    scope = p.get("scope") or {"type": "default"}
    if scope.get("type") not in _SCOPES:
        raise ApiError.bad_request("BOT_COMMAND_SCOPE_INVALID")
    if "chat_id" in scope:
        find_chat(api.state, scope["chat_id"])
    return json.dumps(scope, sort_keys=True), p.get("language_code") or ""


@method("setMyCommands")
def set_my_commands(api: Api, p: dict[str, Any]) -> bool:
    commands = _require(p, "commands")
    if not isinstance(commands, list) or len(commands) > 100:
        raise ApiError.bad_request("too many commands")
    for command in commands:
        if not _COMMAND_NAME.match(str(command.get("command", ""))):
            raise ApiError.bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(str(command.get("description", ""))) <= 256:
            raise ApiError.bad_request("command description is empty")
    api.state.commands[_commands_key(api, p)] = [
        {"command": c["command"], "description": c["description"]} for c in commands
    ]
    return True


@method("getMyCommands")
def get_my_commands(api: Api, p: dict[str, Any]) -> list[dict[str, str]]:
    return api.state.commands.get(_commands_key(api, p), [])


@method("deleteMyCommands")
def delete_my_commands(api: Api, p: dict[str, Any]) -> bool:
    api.state.commands.pop(_commands_key(api, p), None)
    return True


_PROFILE_TEXTS = {"description": 512, "short_description": 120, "name": 64}


def _profile_setter(kind: str) -> Handler:
    def set_text(api: Api, p: dict[str, Any]) -> bool:
        text = p.get(kind) or ""
        if len(text) > _PROFILE_TEXTS[kind]:
            raise ApiError.bad_request(f"{kind.upper()}_INVALID")
        api.state.bot_texts[(kind, p.get("language_code") or "")] = text
        return True

    return set_text


def _profile_getter(kind: str) -> Handler:
    def get_text(api: Api, p: dict[str, Any]) -> dict[str, str]:
        return {kind: api.state.bot_texts.get((kind, p.get("language_code") or ""), "")}

    return get_text


for _kind, _suffix in (
    ("description", "Description"),
    ("short_description", "ShortDescription"),
    ("name", "Name"),
):
    method(f"setMy{_suffix}")(_profile_setter(_kind))
    method(f"getMy{_suffix}")(_profile_getter(_kind))


@method("setChatMenuButton")
def set_chat_menu_button(api: Api, p: dict[str, Any]) -> bool:
    api.state.menu_buttons[p.get("chat_id")] = p.get("menu_button") or {"type": "default"}
    return True


@method("getChatMenuButton")
def get_chat_menu_button(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return api.state.menu_buttons.get(p.get("chat_id"), {"type": "commands"})


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


# --- sending and editing --------------------------------------------------------------------


@method("sendMessage")
def send_message(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    state = api.state
    chat = writable_chat(state, p)
    raw, text = _checked_text(p)
    markup = checked_markup(p.get("reply_markup"))
    reply_to = _reply_target(state, chat, p)
    preview = p.get("link_preview_options")
    if preview is None and p.get("disable_web_page_preview"):
        preview = {"is_disabled": True}
    _admit(api, chat)
    message = state.new_message(
        chat,
        state.bot.id,
        text=text,
        raw_text=raw,
        parse_mode=p.get("parse_mode"),
        entities=p.get("entities"),
        reply_markup=markup,
        protect_content=bool(p.get("protect_content")),
        reply_to=reply_to,
        link_preview_options=preview,
    )
    return state.message_to_api(message)


def _uploaded(state: BotState, p: dict[str, Any], name: str) -> StoredFile:
    value = _require(p, name)
    if isinstance(value, str) and value.startswith("attach://"):
        value = _require(p, value.removeprefix("attach://"))
    if isinstance(value, UploadedPart):
        return state.store_file(value.data, value.filename, value.content_type)
    if isinstance(value, str) and value in state.files:
        return state.files[value]
    if isinstance(value, str) and urlparse(value).scheme in ("http", "https"):
        return state.store_file(b"", value.rsplit("/", 1)[-1] or None, None)
    raise ApiError.bad_request("wrong file identifier/HTTP URL specified")


def _send_file(api: Api, p: dict[str, Any], kind: str) -> dict[str, Any]:
    state = api.state
    chat = writable_chat(state, p)
    stored = _uploaded(state, p, kind)
    if kind == "photo" and not _looks_like_image(stored.data):
        raise ApiError.bad_request("IMAGE_PROCESS_FAILED")
    raw_caption, caption = _checked_caption(p)
    markup = checked_markup(p.get("reply_markup"))
    reply_to = _reply_target(state, chat, p)
    _admit(api, chat)
    message = state.new_message(
        chat,
        state.bot.id,
        caption=caption,
        raw_text=raw_caption,
        parse_mode=p.get("parse_mode"),
        reply_markup=markup,
        protect_content=bool(p.get("protect_content")),
        reply_to=reply_to,
        **{kind: stored},
    )
    return state.message_to_api(message)


def _looks_like_image(data: bytes) -> bool:
    return data.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")) or data[8:12] == b"WEBP"


@method("sendDocument")
def send_document(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return _send_file(api, p, "document")


@method("sendPhoto")
def send_photo(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    return _send_file(api, p, "photo")


@method("sendPoll")
def send_poll(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    state = api.state
    chat = writable_chat(state, p)
    question = _require(p, "question")
    options = [o["text"] if isinstance(o, dict) else str(o) for o in (p.get("options") or [])]
    if not 1 <= len(question) <= 300:
        raise ApiError.bad_request("POLL_QUESTION_INVALID")
    if not 2 <= len(options) <= 12 or not all(1 <= len(o) <= 100 for o in options):
        raise ApiError.bad_request("POLL_OPTIONS_INVALID")
    poll_type = p.get("type") or "regular"
    correct = p.get("correct_option_ids")
    if correct is None and p.get("correct_option_id") is not None:
        correct = [p["correct_option_id"]]
    if poll_type == "quiz" and not (correct and all(0 <= int(i) < len(options) for i in correct)):
        raise ApiError.bad_request("QUIZ_CORRECT_ANSWER_INVALID")
    reply_to = _reply_target(state, chat, p)
    markup = checked_markup(p.get("reply_markup"))
    _admit(api, chat)
    poll: dict[str, Any] = {
        "id": f"POLL{len(state.messages) + 1}",
        "question": question,
        "options": [{"persistent_id": str(i), "text": o, "voter_count": 0} for i, o in enumerate(options)],
        "total_voter_count": 0,
        "is_closed": bool(p.get("is_closed")),
        "is_anonymous": p.get("is_anonymous", True),
        "type": poll_type,
        "allows_multiple_answers": bool(p.get("allows_multiple_answers")),
        "allows_revoting": bool(p.get("allows_revoting")),
        "members_only": bool(p.get("members_only")),
    }
    if poll_type == "quiz":
        poll["correct_option_ids"] = [int(i) for i in correct]
    message = state.new_message(
        chat,
        state.bot.id,
        poll=poll,
        reply_markup=markup,
        protect_content=bool(p.get("protect_content")),
        reply_to=reply_to,
    )
    return state.message_to_api(message)


@method("stopPoll")
def stop_poll(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = _editable(api.state, p)
    if message.poll is None:
        raise ApiError.bad_request("message with poll to stop not found")
    if message.poll["is_closed"]:
        raise ApiError.bad_request("poll has already been closed")
    message.poll["is_closed"] = True
    return message.poll


@method("editMessageText")
def edit_message_text(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = _editable(api.state, p)
    if message.text is None:
        raise ApiError.bad_request("there is no text in the message to edit")
    raw, text = _checked_text(p)
    # like Telegram: leaving out reply_markup removes the inline keyboard
    markup = checked_markup(p.get("reply_markup"))
    mode = p.get("parse_mode")
    if (text, raw if mode else None, markup) == (
        message.text,
        message.raw_text if message.parse_mode else None,
        message.reply_markup,
    ):
        raise ApiError.bad_request(NOT_MODIFIED)
    message.text, message.raw_text, message.parse_mode = text, raw, mode
    message.entities = p.get("entities")
    message.reply_markup = markup
    if p.get("link_preview_options") is not None:
        message.link_preview_options = p["link_preview_options"]
    return _edited(api.state, message)


@method("editMessageCaption")
def edit_message_caption(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = _editable(api.state, p)
    if message.document is None and message.photo is None:
        raise ApiError.bad_request("there is no caption in the message to edit")
    raw, caption = _checked_caption(p)
    markup = checked_markup(p.get("reply_markup"))
    if (caption, markup) == (message.caption, message.reply_markup):
        raise ApiError.bad_request(NOT_MODIFIED)
    message.caption, message.raw_text, message.reply_markup = caption, raw, markup
    return _edited(api.state, message)


@method("editMessageReplyMarkup")
def edit_message_reply_markup(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    message = _editable(api.state, p)
    markup = checked_markup(p.get("reply_markup"))
    if markup == message.reply_markup:
        raise ApiError.bad_request(NOT_MODIFIED)
    message.reply_markup = markup
    return _edited(api.state, message)


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
    if not _delete(api.state, chat, _require(p, "message_id")):
        raise ApiError.bad_request("message to delete not found")
    return True


@method("deleteMessages")
def delete_messages(api: Api, p: dict[str, Any]) -> bool:
    chat = writable_chat(api.state, p)
    for message_id in _require(p, "message_ids"):
        _delete(api.state, chat, message_id)
    return True


@method("answerCallbackQuery")
def answer_callback_query(api: Api, p: dict[str, Any]) -> bool:
    record = api.state.callbacks.get(str(_require(p, "callback_query_id")))
    if record is None or record.answered:
        raise ApiError.bad_request("query is too old and response timeout expired or query ID is invalid")
    text = p.get("text")
    if text and len(text) > MAX_TOAST:
        raise ApiError.bad_request("MESSAGE_TOO_LONG")
    record.answered, record.text = True, text or None
    record.show_alert, record.url = bool(p.get("show_alert")), p.get("url")
    return True


# --- chats and members ----------------------------------------------------------------------


@method("getChat")
def get_chat(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    chat = find_chat(api.state, _require(p, "chat_id"))
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


_ADMIN_RIGHTS = _names(
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
    chat = find_chat(api.state, _require(p, "chat_id"))
    return _member(api.state, chat, int(_require(p, "user_id")))


@method("getChatAdministrators")
def get_chat_administrators(api: Api, p: dict[str, Any]) -> list[dict[str, Any]]:
    chat = find_chat(api.state, _require(p, "chat_id"))
    if chat.is_private:
        raise ApiError.bad_request("there are no administrators in the private chat")
    admins = list(chat.admins) + ([api.state.bot.id] if chat.bot_is_admin else [])
    return [_member(api.state, chat, user_id) for user_id in admins]


@method("getChatMemberCount")
def get_chat_member_count(api: Api, p: dict[str, Any]) -> int:
    chat = find_chat(api.state, _require(p, "chat_id"))
    return 2 if chat.is_private else len(chat.members | set(chat.admins)) + 1


@method("getFile")
def get_file(api: Api, p: dict[str, Any]) -> dict[str, Any]:
    stored = api.state.files.get(_require(p, "file_id"))
    if stored is None:
        raise ApiError.bad_request("invalid file_id")
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
        "file_path": stored.file_path,
    }
