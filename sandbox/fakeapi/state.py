"""The fake Bot API's world as plain data: users, chats, messages, files, callbacks, updates."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple


class Button(NamedTuple):
    """One inline keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None


class Call(NamedTuple):
    """One Bot API request the server received (params decoded to Python values)."""

    method: str
    params: dict[str, Any]


@dataclass
class UserInfo:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass
class ChatInfo:
    id: int
    type: str  # "private", "group" or "supergroup"
    title: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    username: str | None = None
    admins: list[int] = field(default_factory=list)  # the first one is the creator
    members: set[int] = field(default_factory=set)
    bot_is_admin: bool = False
    privacy_mode: bool = True  # like Telegram's default for bots in groups
    blocked: bool = False  # private: the user blocked the bot; group: the bot was kicked
    started: bool = True  # private: the user has written to the bot at least once
    message_ids: list[int] = field(default_factory=list)
    next_message_id: int = 1

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "last_name", "username"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    data: bytes
    file_name: str | None = None
    mime_type: str | None = None
    width: int = 0
    height: int = 0

    @property
    def file_path(self) -> str:
        return f"files/{self.file_id}"

    def document_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
        }
        if self.file_name:
            data["file_name"] = self.file_name
        if self.mime_type:
            data["mime_type"] = self.mime_type
        return data

    def photo_api(self) -> list[dict[str, Any]]:
        return [
            {
                "file_id": self.file_id,
                "file_unique_id": self.file_unique_id,
                "width": self.width,
                "height": self.height,
                "file_size": len(self.data),
            }
        ]


class ParseMode(StrEnum):
    """The markup Telegram reads in a text or caption (the request's `parse_mode`, in any case)."""
    html = "html"
    markdown = "markdown"
    markdown_v2 = "markdownv2"


@dataclass
class StoredMessage:
    """A message in a chat; tests read these live objects (edits show up in place)."""

    chat_id: int
    message_id: int
    from_id: int
    date: int
    from_bot: bool
    text: str | None = None  # visible text, markup already parsed
    raw_text: str | None = None  # what the bot sent, before parse_mode
    parse_mode: ParseMode | None = None
    entities: list[dict[str, Any]] | None = None
    caption: str | None = None
    reply_markup: dict[str, Any] | None = None
    protect_content: bool = False
    reply_to: int | None = None
    document: StoredFile | None = None
    photo: StoredFile | None = None
    poll: dict[str, Any] | None = None
    link_preview_options: dict[str, Any] | None = None
    edit_date: int | None = None
    edits: int = 0
    deleted: bool = False

    @property
    def id(self) -> int:
        return self.message_id

    @property
    def web_app_urls(self) -> list[str]:
        """The Mini App URLs of the inline keyboard's web_app buttons."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [b["web_app"].get("url", "") for row in rows for b in row if isinstance(b.get("web_app"), dict)]

    @property
    def buttons(self) -> list[list[Button]]:
        """Inline keyboard rows; empty when the message has no inline keyboard."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [
            [Button(b.get("text", ""), b.get("callback_data"), b.get("url")) for b in row] for row in rows
        ]

    @property
    def button_texts(self) -> list[str]:
        return [b.text for row in self.buttons for b in row]

    @property
    def content(self) -> str:
        """Text or caption, whichever the message has."""
        return self.text if self.text is not None else (self.caption or "")


@dataclass
class CallbackRecord:
    """A button press and how the bot answered it (the toast the user saw)."""

    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None


@dataclass
class Fault:
    """An injected error for the next `remaining` calls of a method (optionally one chat)."""

    method: str
    error: Exception
    remaining: int
    chat_id: int | None = None


@dataclass
class Hold:
    """The next call of a method (optionally one chat, matching `when`) is carried out, but its
    answer is held back until release(): a window where the bot cannot know the call went through.
    With `error`, it is not held: the call is carried out and answered with the error (a timeout
    or a 502 after Telegram acted)."""

    method: str
    chat_id: int | None = None
    when: Callable[[dict[str, Any]], bool] | None = None
    error: Exception | None = None
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


@dataclass
class WebhookInfo:
    url: str = ""
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None


class UpdateQueue:
    """Pending updates with getUpdates semantics.

    Updates are kept in arrival order. The ones already handed out form a prefix; an
    `offset` confirms (drops) handed-out updates with a smaller update_id. An update that was
    never handed out is always delivered once, even if its id is old, so tests can replay an
    update_id to simulate a duplicate delivery.
    """

    def __init__(self, first_id: int = 1) -> None:
        self._entries: deque[dict[str, Any]] = deque()
        self._delivered = 0
        self._arrived = asyncio.Event()
        self._ids = itertools.count(first_id)
        self._generation = 0
        self.last_pushed: int | None = None  # the update_id of the update queued last

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def undelivered(self) -> int:
        return len(self._entries) - self._delivered

    def next_id(self) -> int:
        return next(self._ids)

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        if "update_id" not in update:
            update = {"update_id": self.next_id(), **update}
        elif update["update_id"] >= 1:
            # keep generated ids above any explicit one
            self._ids = itertools.count(max(next(self._ids), update["update_id"] + 1))
        self._entries.append(update)
        self.last_pushed = update["update_id"]
        self._arrived.set()
        return update

    def confirm(self, offset: int) -> None:
        if offset < 0:
            keep = -offset
            while len(self._entries) > keep:
                self._entries.popleft()
            self._delivered = min(self._delivered, len(self._entries))
            return
        kept = [u for u in itertools.islice(self._entries, self._delivered) if u["update_id"] >= offset]
        for _ in range(self._delivered):
            self._entries.popleft()
        self._entries.extendleft(reversed(kept))
        self._delivered = len(kept)

    def take(self, limit: int) -> list[dict[str, Any]]:
        batch = list(itertools.islice(self._entries, limit))
        self._delivered = max(self._delivered, len(batch))
        return batch

    def clear(self) -> None:
        self._entries.clear()
        self._delivered = 0

    def new_poller(self) -> int:
        """Registers a new long-poll request; older ones see they were superseded."""
        self._generation += 1
        self._arrived.set()
        return self._generation

    def is_current(self, generation: int) -> bool:
        return generation == self._generation

    def wake(self) -> None:
        self._arrived.set()

    async def wait(self, timeout: float) -> None:
        """Waits until something arrives (or a waiter must re-check), at most `timeout` s."""
        self._arrived.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._arrived.wait()


class BotState:
    """Everything the fake server knows. Methods here only read and write data."""

    def __init__(self, bot: UserInfo, clock: Callable[[], float] = time.time, first_update_id: int = 1) -> None:
        self.bot = bot
        self.clock = clock
        self.users: dict[int, UserInfo] = {bot.id: bot}
        self.chats: dict[int, ChatInfo] = {}
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        self.files: dict[str, StoredFile] = {}
        self.callbacks: dict[str, CallbackRecord] = {}
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}  # (kind, language_code) -> text
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        self.webhook = WebhookInfo()
        self.updates = UpdateQueue(first_update_id)
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []
        self.calls: list[Call] = []
        self.errors: list[tuple[Call, int, str]] = []
        self.poll_voters: dict[str, set[int]] = {}  # poll id -> who voted (a quiz takes one vote each)
        self.closing = False
        self._file_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)

    def now(self) -> int:
        return int(self.clock())

    def close_due_poll(self, poll: dict[str, Any]) -> bool:
        """Close a poll whose open_period is over (Telegram closes it itself); True if it is closed."""
        if not poll["is_closed"] and poll.get("close_date") is not None and self.clock() >= poll["close_date"]:
            poll["is_closed"] = True
        return bool(poll["is_closed"])

    def new_message(self, chat: ChatInfo, from_id: int, **fields: Any) -> StoredMessage:
        message = StoredMessage(
            chat_id=chat.id,
            message_id=chat.next_message_id,
            from_id=from_id,
            date=self.now(),
            from_bot=from_id == self.bot.id,
            **fields,
        )
        chat.next_message_id += 1
        chat.message_ids.append(message.message_id)
        self.messages[(chat.id, message.message_id)] = message
        return message

    def chat_messages(self, chat_id: int) -> list[StoredMessage]:
        chat = self.chats.get(chat_id)
        if chat is None:
            return []
        found = (self.messages[(chat_id, mid)] for mid in chat.message_ids)
        return [m for m in found if not m.deleted]

    def store_file(self, data: bytes, file_name: str | None, mime_type: str | None) -> StoredFile:
        n = next(self._file_ids)
        width, height = png_size(data)
        stored = StoredFile(f"FILE{n:06d}", f"U{n:06d}", data, file_name, mime_type, width, height)
        self.files[stored.file_id] = stored
        return stored

    def new_callback(self, user_id: int, message: StoredMessage, data: str) -> CallbackRecord:
        record = CallbackRecord(
            str(next(self._callback_ids)), user_id, message.chat_id, message.message_id, data
        )
        self.callbacks[record.id] = record
        return record

    def take_fault(self, method: str, chat_id: int | None) -> Exception | None:
        for fault in self.faults:
            if fault.method == method and fault.chat_id in (None, chat_id):
                fault.remaining -= 1
                if fault.remaining <= 0:
                    self.faults.remove(fault)
                return fault.error
        return None

    def take_hold(self, method: str, params: dict[str, Any]) -> Hold | None:
        for hold in self.holds:
            if hold.method == method and hold.chat_id in (None, params.get("chat_id")) \
                    and (hold.when is None or hold.when(params)):
                self.holds.remove(hold)
                return hold
        return None

    def message_to_api(self, message: StoredMessage, with_reply: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": message.message_id,
            "from": self.users[message.from_id].to_api(),
            "chat": self.chats[message.chat_id].to_api(),
            "date": message.date,
        }
        if message.text is not None:
            data["text"] = message.text
        if message.entities:
            data["entities"] = message.entities
        if message.caption is not None:
            data["caption"] = message.caption
        if message.document is not None:
            data["document"] = message.document.document_api()
        if message.photo is not None:
            data["photo"] = message.photo.photo_api()
        if message.poll is not None:
            self.close_due_poll(message.poll)
            data["poll"] = message.poll
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        if message.protect_content:
            data["has_protected_content"] = True
        if message.link_preview_options:
            data["link_preview_options"] = message.link_preview_options
        if message.reply_markup and "inline_keyboard" in message.reply_markup:
            data["reply_markup"] = message.reply_markup
        replied = self.messages.get((message.chat_id, message.reply_to)) if message.reply_to else None
        if with_reply and replied is not None:
            data["reply_to_message"] = self.message_to_api(replied, with_reply=False)
        return data


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG image, or (1, 1) for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return 1, 1
