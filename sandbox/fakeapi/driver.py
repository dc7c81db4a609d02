"""The test side: start the fake server, act as users and groups, read chats, wait for the bot."""

from __future__ import annotations

import asyncio
import contextlib
import json
import mimetypes
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sandbox.fakeapi.limits import RateLimiter, RateLimits, SendStats
from sandbox.fakeapi.methods import ApiError
from sandbox.fakeapi.server import ApiServer
from sandbox.fakeapi.state import (
    BotState,
    Call,
    CallbackRecord,
    ChatInfo,
    Fault,
    Hold,
    StoredMessage,
    UserInfo,
)

DEFAULT_TOKEN = "123456:TEST-fake-token"
MAX_TYPED = 4096  # UTF-16 units a Telegram client sends in one message
T = TypeVar("T")

_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
_MENTION = re.compile(r"(?<!\S)@[A-Za-z0-9_]{3,32}")


class TooLong(ValueError):
    """A message longer than a Telegram client sends (MAX_TYPED UTF-16 units)."""


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def text_entities(text: str) -> list[dict[str, Any]]:
    """bot_command and mention entities as Telegram marks them (offsets in UTF-16 units)."""
    found = [("bot_command", m) for m in _COMMAND.finditer(text)]
    found += [("mention", m) for m in _MENTION.finditer(text)]
    found.sort(key=lambda item: item[1].start())
    return [
        {"type": kind, "offset": _utf16(text[: m.start()]), "length": _utf16(m.group())} for kind, m in found
    ]


class Toast:
    """The answer to one button press; `await toast.wait()` returns the toast text."""

    def __init__(self, api: FakeBotApi, record: CallbackRecord) -> None:
        self._api = api
        self.record = record

    @property
    def answered(self) -> bool:
        return self.record.answered

    @property
    def text(self) -> str | None:
        return self.record.text

    @property
    def show_alert(self) -> bool:
        return self.record.show_alert

    async def wait(self, timeout: float = 5.0) -> str | None:
        """Waits until the bot answered the callback query; returns its text (None if empty)."""
        await self._api.wait_for(
            lambda: self.record.answered, timeout, f"answer to callback {self.record.id}"
        )
        return self.record.text


class FakeGroup:
    """A supergroup the bot is in."""

    def __init__(self, api: FakeBotApi, info: ChatInfo) -> None:
        self._api = api
        self.info = info

    @property
    def id(self) -> int:
        return self.info.id

    def set_admins(self, user_ids: list[int], *, bot_is_admin: bool | None = None) -> None:
        """The first id is the creator. An admin bot receives every message (no privacy mode)."""
        self.info.admins = list(user_ids)
        if bot_is_admin is not None:
            self.info.bot_is_admin = bot_is_admin

    def add_members(self, *user_ids: int) -> None:
        self.info.members.update(user_ids)

    def remove_members(self, *user_ids: int) -> None:
        """They leave the group: getChatMember says "left" from now on."""
        self.info.members.difference_update(user_ids)

    @property
    def privacy_mode(self) -> bool:
        return self.info.privacy_mode

    @privacy_mode.setter
    def privacy_mode(self, value: bool) -> None:
        self.info.privacy_mode = value

    @property
    def kicked(self) -> bool:
        """When True the bot gets 403 "bot was kicked from the group chat"."""
        return self.info.blocked

    @kicked.setter
    def kicked(self, value: bool) -> None:
        self.info.blocked = value

    def chat(self) -> list[StoredMessage]:
        return self._api.chat_view(self.id)

    def last_message(self, *, from_bot: bool | None = True) -> StoredMessage | None:
        return self._api.last_message(self.id, from_bot=from_bot)


ChatRef = FakeGroup | int | None
MessageRef = StoredMessage | int | None


class FakeUser:
    """A Telegram user; their private chat with the bot has chat id == user id."""

    def __init__(self, api: FakeBotApi, info: UserInfo, chat: ChatInfo) -> None:
        self._api = api
        self.info = info
        self.private = chat
        self.last_sent: dict[int, int] = {}  # chat id -> id of the last message this user sent

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def blocked(self) -> bool:
        """When True the bot gets 403 "bot was blocked by the user" in the private chat."""
        return self.private.blocked

    @blocked.setter
    def blocked(self, value: bool) -> None:
        self.private.blocked = value

    async def send(self, text: str, *, chat: ChatRef = None, reply_to: MessageRef = None) -> StoredMessage:
        """Types a message (commands get bot_command entities) and queues the update."""
        if _utf16(text) > MAX_TYPED:
            raise TooLong(f"a Telegram client sends at most {MAX_TYPED} UTF-16 units in one message")
        return self._api.post_user_message(
            self, self._chat(chat), text=text, entities=text_entities(text) or None, reply_to=reply_to
        )

    async def send_document(
        self,
        data: bytes,
        file_name: str,
        *,
        mime_type: str | None = None,
        caption: str | None = None,
        chat: ChatRef = None,
        reply_to: MessageRef = None,
    ) -> StoredMessage:
        """Uploads a file; the bot can fetch it with getFile and the server's base_file_url."""
        stored = self._api.state.store_file(data, file_name, mime_type or _guess_mime(file_name))
        return self._api.post_user_message(
            self, self._chat(chat), document=stored, caption=caption, reply_to=reply_to
        )

    async def press(
        self, message: StoredMessage, text: str | None = None, *, callback_data: str | None = None
    ) -> Toast:
        """Presses an inline button by its text (or callback_data) and queues the callback_query."""
        if message.deleted:
            raise LookupError(f"message {message.message_id} was deleted")
        buttons = [b for row in message.buttons for b in row]
        if callback_data is not None:
            button = next((b for b in buttons if b.callback_data == callback_data), None)
        else:
            button = next((b for b in buttons if b.text == text), None)
        if button is None:
            wanted = text if callback_data is None else f"callback_data={callback_data!r}"
            raise LookupError(f"no button {wanted!r} on message {message.message_id}: {buttons}")
        if button.callback_data is None:
            raise ValueError(f"button {button.text!r} is not a callback button")
        api = self._api
        record = api.state.new_callback(self.id, message, button.callback_data)
        api.inject_update(
            {
                "callback_query": {
                    "id": record.id,
                    "from": self.info.to_api(),
                    "message": api.state.message_to_api(message),
                    "chat_instance": str(abs(message.chat_id)),
                    "data": button.callback_data,
                }
            }
        )
        return Toast(api, record)

    async def answer_poll(self, message: StoredMessage, option_ids: list[int]) -> None:
        """Votes in a poll; non-anonymous polls send the bot a poll_answer update. A closed poll (its
        open_period over, or stopped) takes no vote, and a quiz one vote per user (Telegram's rules)."""
        poll = message.poll
        if poll is None or self._api.state.close_due_poll(poll):
            raise ValueError(f"message {message.message_id} has no open poll")
        voters = self._api.state.poll_voters.setdefault(poll["id"], set())
        if poll["type"] == "quiz" and self.id in voters:
            raise ValueError(f"user {self.id} already answered quiz {poll['id']}")
        voters.add(self.id)
        for option in option_ids:
            poll["options"][option]["voter_count"] += 1
        poll["total_voter_count"] += 1
        if not poll["is_anonymous"]:
            self._api.inject_update(
                {
                    "poll_answer": {
                        "poll_id": poll["id"],
                        "user": self.info.to_api(),
                        "option_ids": option_ids,
                        "option_persistent_ids": [poll["options"][i]["persistent_id"] for i in option_ids],
                    }
                }
            )

    def chat(self) -> list[StoredMessage]:
        """The private chat as the user sees it, oldest first."""
        return self._api.chat_view(self.id)

    def last_message(self, *, from_bot: bool | None = True) -> StoredMessage | None:
        return self._api.last_message(self.id, from_bot=from_bot)

    async def wait_message(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        chat: ChatRef = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """Waits for a bot message sent after this user's last message (matching `predicate`)."""
        chat_id = self._chat(chat).id
        after = self.last_sent.get(chat_id, 0)

        def found() -> StoredMessage | None:
            for message in reversed(self._api.chat_view(chat_id)):
                if message.message_id <= after:
                    return None
                if message.from_bot and (predicate is None or predicate(message)):
                    return message
            return None

        return await self._api.wait_for(found, timeout, f"bot message in chat {chat_id}")

    def _chat(self, chat: ChatRef) -> ChatInfo:
        if chat is None:
            return self.private
        chat_id = chat.id if isinstance(chat, FakeGroup) else chat
        return self._api.state.chats[chat_id]


def _guess_mime(file_name: str) -> str | None:
    return mimetypes.guess_type(file_name)[0]


class FakeBotApi:
    """A fake Bot API server in this process, plus the controls integration tests need.

    Point PTB at it with ``ApplicationBuilder().token(api.token).base_url(api.base_url)``
    (and ``.base_file_url(api.base_file_url)`` to download files users sent).
    """

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "proctor_bot",
        bot_name: str = "Proctor",
        rate_limits: RateLimits | None = None,
        clock: Callable[[], float] = time.time,
        port: int = 0,
        first_update_id: int = 1,
    ) -> None:
        """`first_update_id`: where generated update ids start (Telegram's ids keep growing across
        restarts of a client, so a long-lived database must not see small ids again)."""
        self.token = token
        bot = UserInfo(int(token.split(":", 1)[0]), bot_name, username=bot_username, is_bot=True)
        self.state = BotState(bot, clock, first_update_id)
        self.limiter = RateLimiter(rate_limits)
        self.server = ApiServer(token, self.state, self.limiter, port=port)
        self._users: dict[int, FakeUser] = {}
        self._groups: dict[int, FakeGroup] = {}

    async def start(self) -> None:
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop()

    async def __aenter__(self) -> FakeBotApi:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.server.host}:{self.server.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://{self.server.host}:{self.server.port}/file/bot"

    # --- people and chats --------------------------------------------------------------------

    def user(
        self,
        user_id: int,
        first_name: str = "User",
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        started: bool = True,
    ) -> FakeUser:
        """The user with this id (created on first call) and their private chat with the bot.

        With started=False the bot gets 403 "can't initiate conversation" until the user writes.
        """
        if user_id in self._users:
            return self._users[user_id]
        info = UserInfo(user_id, first_name, last_name, username, language_code)
        chat = ChatInfo(
            user_id, "private", first_name=first_name, last_name=last_name, username=username, started=started
        )
        self.state.users[user_id] = info
        self.state.chats[user_id] = chat
        self._users[user_id] = user = FakeUser(self, info, chat)
        return user

    def group(self, chat_id: int, title: str = "Group", *, type: str = "supergroup") -> FakeGroup:
        """The group with this id (created on first call); the bot is a member."""
        if chat_id in self._groups:
            return self._groups[chat_id]
        info = ChatInfo(chat_id, type, title=title)
        self.state.chats[chat_id] = info
        self._groups[chat_id] = group = FakeGroup(self, info)
        return group

    def chat_view(self, chat_id: int) -> list[StoredMessage]:
        """Messages of a chat (both sides, deleted ones left out), oldest first."""
        return self.state.chat_messages(chat_id)

    def last_message(self, chat_id: int, *, from_bot: bool | None = True) -> StoredMessage | None:
        """The newest message in the chat (from the bot by default; None = from anyone)."""
        for message in reversed(self.chat_view(chat_id)):
            if from_bot is None or message.from_bot == from_bot:
                return message
        return None

    # --- updates -----------------------------------------------------------------------------

    def inject_update(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queues a raw update (an update_id is added if missing); returns it as queued."""
        queued = self.state.updates.push(dict(update))
        self.server.notify()
        return queued

    def post_user_message(
        self, user: FakeUser, chat: ChatInfo, *, reply_to: MessageRef = None, **fields: Any
    ) -> StoredMessage:
        """Stores a user's message in the chat and queues it for the bot if the bot may see it."""
        reply_id = reply_to.message_id if isinstance(reply_to, StoredMessage) else reply_to
        if chat.is_private:
            chat.started = True
        else:
            chat.members.add(user.id)
        message = self.state.new_message(chat, user.id, reply_to=reply_id, **fields)
        user.last_sent[chat.id] = message.message_id
        if self._bot_sees(chat, message):
            self.inject_update({"message": self.state.message_to_api(message)})
        else:
            self.server.notify()
        return message

    def _bot_sees(self, chat: ChatInfo, message: StoredMessage) -> bool:
        """Privacy mode: in groups a bot only sees commands, replies to it and mentions."""
        if chat.is_private or not chat.privacy_mode or chat.bot_is_admin:
            return True
        replied = self.state.messages.get((chat.id, message.reply_to or 0))
        if replied is not None and replied.from_bot:
            return True
        text = message.text or message.caption or ""
        me = f"@{self.state.bot.username}".lower()
        for entity in message.entities or []:
            raw = text.encode("utf-16-le")[2 * entity["offset"] : 2 * (entity["offset"] + entity["length"])]
            word = raw.decode("utf-16-le").lower()
            if entity["type"] == "mention" and word == me:
                return True
            if entity["type"] == "bot_command" and ("@" not in word or word.endswith(me)):
                return True
        return False

    # --- what the bot did --------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """Every request except getUpdates, in arrival order, params decoded."""
        return self.state.calls

    def calls_to(self, method: str, chat_id: int | None = None) -> list[dict[str, Any]]:
        """Params of the calls of `method` (optionally to one chat)."""
        return [
            c.params
            for c in self.state.calls
            if c.method == method and (chat_id is None or c.params.get("chat_id") == chat_id)
        ]

    @property
    def errors(self) -> list[tuple[Call, int, str]]:
        """Error answers given (call, error_code, description), e.g. to assert there were none."""
        return self.state.errors

    @property
    def stats(self) -> SendStats:
        return self.limiter.stats

    def commands(self, scope: dict[str, Any] | None = None, language_code: str = "") -> list[dict[str, str]]:
        key = json.dumps(scope or {"type": "default"}, sort_keys=True)
        return self.state.commands.get((key, language_code), [])

    # --- error injection ---------------------------------------------------------------------

    def fail(
        self, method: str, error: ApiError | None = None, *, times: int = 1, chat_id: int | None = None
    ) -> None:
        """Makes the next `times` calls of `method` (to `chat_id`, if given) answer `error`.

        Default error: 429 with retry_after=1. See ApiError.retry_after/blocked/kicked/server_error.
        """
        self.state.faults.append(Fault(method, error or ApiError.retry_after(1), times, chat_id))

    def hold(self, method: str, *, chat_id: int | None = None,
             when: Callable[[dict[str, Any]], bool] | None = None, error: ApiError | None = None) -> Hold:
        """The next call of `method` (to `chat_id`, with params matching `when`) takes effect, but
        its answer waits for `hold.release()`; `await hold.reached.wait()` to act in that window
        (kill the bot: the message is in the chat, the bot never learnt its id). With `error`
        the call takes effect and is answered with that error at once."""
        hold = Hold(method, chat_id, when, error)
        self.state.holds.append(hold)
        return hold

    # --- waiting -----------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "") -> T:
        """Waits until `predicate()` is truthy and returns its value; re-checked on every request
        the server handles (and every 50 ms, for conditions on outside state)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self.server.change_event()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"not within {timeout}s: {what or predicate}")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, 0.05)):
                    await changed.wait()

    async def wait_change(self, timeout: float | None = None) -> None:
        """Waits until the server handled another request or an update was queued."""
        changed = self.server.change_event()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await changed.wait()

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Waits until the bot fetched every queued update and made no request for `quiet` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self.server.change_event()
            quiet_for = time.monotonic() - self.server.last_activity
            if not self.state.updates.undelivered and not self.server.in_flight and quiet_for >= quiet:
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"not idle within {timeout}s: {self.state.updates.undelivered} updates not fetched, "
                    f"{self.server.in_flight} requests in flight"
                )
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(remaining, max(quiet - quiet_for, 0.005))):
                    await changed.wait()
