"""Chat with the bot from a terminal, as one fake user (for `proctor sandbox`)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import Awaitable, Callable

from bot.fakeapi.driver import FakeBotApi, FakeUser, Toast
from bot.fakeapi.state import Button, StoredMessage

_BUTTON_NUMBER = re.compile(r"^#?(\d+)$")


def render(message: StoredMessage, first_number: int, edited: bool) -> str:
    """A bot message as terminal lines, its buttons numbered from `first_number`."""
    label = "bot (edited):" if edited else "bot:"
    parts = []
    if message.document is not None:
        document = message.document
        parts.append(f"[document {document.file_name or document.file_id}, {len(document.data)} bytes]")
    if message.photo is not None:
        parts.append(f"[photo {message.photo.width}x{message.photo.height}]")
    if message.poll is not None:
        options = " / ".join(o["text"] for o in message.poll["options"])
        parts.append(f"[poll] {message.poll['question']} ({options})")
    if message.content:
        parts.append(message.content)
    lines = [f"{label} {' '.join(parts)}"]
    number = first_number
    for row in message.buttons:
        cells = []
        for button in row:
            cells.append(f"[{number}] {button.text}" + (f" <{button.url}>" if button.url else ""))
            number += 1
        lines.append("     " + "  ".join(cells))
    return "\n".join(lines)


class ChatPrinter:
    """Prints new and edited bot messages and toasts; remembers the numbered buttons."""

    def __init__(self, user: FakeUser, write: Callable[[str], None]) -> None:
        self.user = user
        self.write = write
        self.buttons: list[tuple[StoredMessage, Button]] = []
        self.toasts: list[Toast] = []
        self._shown: dict[int, int] = {}  # message id -> edits already printed

    def refresh(self) -> None:
        for message in self.user.chat():
            shown = self._shown.get(message.message_id)
            if not message.from_bot or shown == message.edits:
                continue
            self._shown[message.message_id] = message.edits
            if message.buttons:
                self.buttons = [(message, b) for row in message.buttons for b in row]
            elif self.buttons and self.buttons[0][0] is message:
                self.buttons = []  # its keyboard was removed by an edit
            self.write(render(message, 1, edited=shown is not None))
        for toast in [t for t in self.toasts if t.answered]:
            self.toasts.remove(toast)
            if toast.text:
                self.write(f"({'alert' if toast.show_alert else 'toast'}) {toast.text}")

    def numbered(self, text: str) -> tuple[StoredMessage, Button] | None:
        match = _BUTTON_NUMBER.match(text)
        if match and 1 <= int(match.group(1)) <= len(self.buttons):
            return self.buttons[int(match.group(1)) - 1]
        return None


async def _stdin_line() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def _chat_state(user: FakeUser) -> tuple[int, int]:
    messages = user.chat()
    return len(messages), sum(m.edits for m in messages)


async def _settle(server: FakeBotApi, user: FakeUser, before: tuple[int, int], toast: Toast | None) -> None:
    """Wait for the bot's answer to what was just typed (a toast, a message or an edit), then for quiet."""
    with contextlib.suppress(TimeoutError):
        if toast is not None:
            await toast.wait(timeout=10)
    with contextlib.suppress(TimeoutError):  # most answers change the chat; a toast alone may be all
        await server.wait_for(lambda: _chat_state(user) != before, timeout=5 if toast is None else 3)
    with contextlib.suppress(TimeoutError):
        await server.wait_idle(quiet=0.3, timeout=10)


async def terminal_chat(
    server: FakeBotApi,
    user: FakeUser,
    *,
    read_line: Callable[[], Awaitable[str]] = _stdin_line,
    write: Callable[[str], None] = print,
) -> None:
    """Sends typed lines as `user`'s messages; "1" or "#1" presses button 1. Ends at EOF."""
    printer = ChatPrinter(user, write)

    async def watch() -> None:
        while True:
            await server.wait_change()
            printer.refresh()

    watcher = asyncio.create_task(watch())
    try:
        while line := await read_line():
            text = line.strip()
            if not text:
                continue
            chosen = printer.numbered(text)
            before, toast = _chat_state(user), None
            if chosen is None:
                await user.send(text)
            elif chosen[1].callback_data is None:
                write(f"(link) {chosen[1].url}")
            else:
                try:
                    toast = await user.press(chosen[0], callback_data=chosen[1].callback_data)
                except LookupError:
                    write("(that button is gone)")
                else:
                    printer.toasts.append(toast)
            # let the bot answer before the next line: lines piped in arrive all at once, and a
            # button number only means something once the message with that button is there
            await _settle(server, user, before, toast)
            printer.refresh()
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
    printer.refresh()
