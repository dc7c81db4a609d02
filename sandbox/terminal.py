"""Chat with the bot from a terminal, as one fake user or a small cast (for `proctor sandbox`).

A line goes to the first person's private chat; prefixes send it elsewhere:

    team: /daily now        in the group, as you        ann: /start       Ann's private chat
    team: 2                 button 2 of the group message printed last with buttons
    team: 3.2               button 2 of group message [#3]
    team: reply 3 批次大小   a reply to group message [#3]
    ann: team: 2            the same press, as Ann (also `as ann: team: 2`)
    ann: poll 2             Ann answers the group's open poll (a live round's quiz) with option 2
    poll 1 3                you answer options 1 and 3 (a multiple-answer quiz)
    !2                      button 2, even where the bot asks for a typed answer (there `2` is the answer)
    /upload sheet.csv       the file, sent to the bot as a document (a lead's import)
    /tick 1h                the bot's clock moves an hour; what fell due runs
    first line\\nsecond    one message with a line break where `\\n` is typed (a written answer, blanks)

An unknown `name:` prefix is an error, not an answer (`you: Note: ...` sends a line with a colon).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from bot.i18n import t as text_of
from sandbox.fakeapi.driver import MAX_TYPED, FakeBotApi, FakeGroup, FakeUser, Toast, TooLong
from sandbox.fakeapi.state import Button, StoredMessage
from sandbox.tick import parse_duration

_BARE_NUMBER = re.compile(r"^(\d+)$")
_FORCED_BUTTON = re.compile(r"^[!#](\d+)$")
_TICK = re.compile(r"^/tick(?:@\w+)?(?:\s+(.*))?$", re.IGNORECASE)
_UPLOAD = re.compile(r"^/upload(?:@\w+)?(?:\s+(.*))?$", re.IGNORECASE)
# screens on which the bot waits for a typed answer: a bare number there is the answer, not a button
_TYPED_HINTS = tuple(text_of(key, lang) for key in ("type_hint", "type_hint_fill", "daily_fill_private",
                                                        "type_hint_number", "daily_number_hint_private") for lang in ("en", "zh"))
_MESSAGE_BUTTON = re.compile(r"^#?(\d+)\.(\d+)$")
_REPLY = re.compile(r"^reply\s+#?(\d+)\s+(.+)$", re.IGNORECASE | re.DOTALL)
_PREFIX = re.compile(r"^(?:as\s+)?(\w+)\s*:\s*", re.IGNORECASE)
_TEAM_WORDS = ("team", "t")
_POLL = re.compile(r"^poll\s+(\d+(?:[\s,]+\d+)*)$", re.IGNORECASE)
PRIVATE_QUIET = 0.3
# the bot paces its messages to one chat (about one a second): a shorter quiet spell in the group
# would take the pause between two quiz questions for the end of the answer
GROUP_QUIET = 1.2


class UnknownPrefix(ValueError):
    """A line starting with `name:` where the name is nobody in the sandbox."""


def render(message: StoredMessage, first_number: int, edited: bool, *, label: str = "bot",
           tagged: bool = False, saved: Path | None = None) -> str:
    """A bot message as terminal lines, its buttons numbered from `first_number`.

    `tagged` adds the message's number (`[#12]`), by which a group message is replied to; `saved`
    is where the file it carries (a CSV, a chart) was written.
    """
    head = label + (f" [#{message.message_id}]" if tagged else "") + (" (edited)" if edited else "")
    parts = []
    options: list[str] = []  # a poll's, numbered, on lines of their own
    to = f" → {saved}" if saved is not None else ""
    if message.document is not None:
        document = message.document
        parts.append(f"[document {document.file_name or document.file_id}, {len(document.data)} bytes{to}]")
    if message.photo is not None:
        parts.append(f"[photo {message.photo.width}x{message.photo.height}{to}]")
    if message.poll is not None:
        poll = message.poll
        kind = "quiz" if poll["type"] == "quiz" else "poll"
        timing = f", {poll['open_period']} s" if poll.get("open_period") else ""
        several = ", several answers" if poll.get("allows_multiple_answers") else ""
        parts.append(f"[{kind}{timing}{several}] {poll['question']}")
        options = [f"     ({i}) {o['text']}" for i, o in enumerate(poll["options"], 1)]
        options.append("     (answer with `poll N`, as someone: `ann: poll N`)")
    if message.content:
        parts.append(message.content)
    lines = [f"{head}: {' '.join(parts)}", *options]
    number = first_number
    for row in message.buttons:
        cells = []
        for button in row:
            cells.append(f"[{number}] {button.text}" + (f" <{button.url}>" if button.url else ""))
            number += 1
        lines.append("     " + "  ".join(cells))
    return "\n".join(lines)


class ChatPane:
    """One chat on the terminal: its label, what was printed, and its numbered buttons.

    A `tagged` pane (the group) prints an edit that keeps the keyboard as its changed lines only:
    the daily quiz's answer count changes often, and the question above it does not.
    """

    def __init__(self, chat_id: int, label: str, *, tagged: bool = False, files_dir: Path | None = None) -> None:
        self.chat_id = chat_id
        self.label = label
        self.tagged = tagged
        self.files_dir = files_dir  # where files the bot sends are saved (None: not saved)
        self.buttons: list[tuple[StoredMessage, Button]] = []  # of the message printed last with buttons
        self.latest: StoredMessage | None = None  # the bot message printed last (new or edited)
        self._shown: dict[int, tuple[int, str, list[list[Button]]]] = {}  # id -> edits, text, buttons printed

    def new_lines(self, messages: list[StoredMessage]) -> list[str]:
        lines = []
        for message in messages:
            shown = self._shown.get(message.message_id)
            if not message.from_bot or (shown is not None and shown[0] == message.edits):
                continue
            self._shown[message.message_id] = (message.edits, message.content, message.buttons)
            tail = _changed_tail(shown[1], message.content) if shown is not None else None
            if self.tagged and tail and shown is not None and shown[2] == message.buttons:
                lines.append(f"{self.label} [#{message.message_id}] (edited): … {tail}")
                continue
            self.latest = message
            if message.buttons:
                self.buttons = [(message, b) for row in message.buttons for b in row]
            elif self.buttons and self.buttons[0][0] is message:
                self.buttons = []  # its keyboard was removed by an edit
            saved = self._save(message) if shown is None else None
            lines.append(render(message, 1, edited=shown is not None, label=self.label, tagged=self.tagged,
                                saved=saved))
        return lines

    def _save(self, message: StoredMessage) -> Path | None:
        """Writes the file a new message carries (a CSV, a PNG chart) to the files folder."""
        stored = message.document or message.photo
        if stored is None or self.files_dir is None:
            return None
        name = message.document.file_name if message.document is not None else None
        name = Path(name).name if name else f"photo-{message.message_id}.png"
        path = self.files_dir / f"{self.chat_id}-{message.message_id}-{name}"
        self.files_dir.mkdir(parents=True, exist_ok=True)
        path.write_bytes(stored.data)
        return path

    def expects_typed_answer(self) -> bool:
        content = self.latest.content if self.latest is not None else ""
        return any(hint in content for hint in _TYPED_HINTS)

    def button_number(self, text: str) -> int | None:
        """The button a line presses: `!2` (or `#2`) always; `2` unless the bot waits for a typed answer."""
        if match := _FORCED_BUTTON.match(text):
            return int(match.group(1))
        if (match := _BARE_NUMBER.match(text)) and not self.expects_typed_answer():
            return int(match.group(1))
        return None

    def numbered(self, text: str) -> tuple[StoredMessage, Button] | None:
        number = self.button_number(text)
        if number is not None and 1 <= number <= len(self.buttons):
            return self.buttons[number - 1]
        return None


def _changed_tail(before: str, after: str) -> str | None:
    """The lines of `after` from the first one that differs, if the two texts start alike."""
    old, new = before.splitlines(), after.splitlines()
    same = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    return "\n".join(new[same:]) if 0 < same < len(new) else None


class ChatPrinter:
    """Prints new and edited bot messages of every chat in view, and toasts; keeps the panes' buttons."""

    def __init__(self, server: FakeBotApi, panes: Sequence[ChatPane], write: Callable[[str], None],
                 *, name_toasts: bool = False) -> None:
        self.server = server
        self.panes = list(panes)
        self.write = write
        self.name_toasts = name_toasts
        self.toasts: list[tuple[FakeUser, Toast]] = []

    def refresh(self) -> None:
        for pane in self.panes:
            for line in pane.new_lines(self.server.chat_view(pane.chat_id)):
                self.write(line)
        for presser, toast in [(p, t) for p, t in self.toasts if t.answered]:
            self.toasts.remove((presser, toast))
            if toast.text:
                kind = "alert" if toast.show_alert else "toast"
                to = f" to {presser.info.first_name}" if self.name_toasts else ""
                self.write(f"({kind}{to}) {toast.text}")

    def state(self) -> tuple[tuple[int, int], ...]:
        """Message and edit counts of every chat in view: changes when the bot answers anywhere."""
        views = (self.server.chat_view(pane.chat_id) for pane in self.panes)
        return tuple((len(messages), sum(m.edits for m in messages)) for messages in views)


async def _stdin_line() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def _settle(server: FakeBotApi, printer: ChatPrinter, before: tuple, toast: Toast | None,
                  quiet: float) -> None:
    """Wait for the bot's answer to what was just typed (a toast, a message or an edit), then for quiet."""
    with contextlib.suppress(TimeoutError):
        if toast is not None:
            await toast.wait(timeout=10)
    with contextlib.suppress(TimeoutError):  # most answers change a chat; a toast alone may be all
        await server.wait_for(lambda: printer.state() != before, timeout=5 if toast is None else 3)
    with contextlib.suppress(TimeoutError):
        await server.wait_idle(quiet=quiet, timeout=10)


def prefixes(you: FakeUser, teammates: Sequence[FakeUser]) -> dict[str, FakeUser]:
    """The `name:` prefixes: `you:` and your own first name for you, each teammate's first name."""
    return {"you": you} | {p.info.first_name.lower(): p for p in (you, *teammates)}


def parse_line(text: str, people: dict[str, FakeUser], you: FakeUser,
               group: FakeGroup | None) -> tuple[FakeUser, FakeGroup | None, str]:
    """(who acts, in which chat: None for their private chat, what they typed) from a typed line.

    Strips the `ann:` / `as ann:` and `team:` / `t:` prefixes, in either order. A first prefix naming
    nobody raises UnknownPrefix (after a known prefix, the rest is the text, colons and all).
    """
    person, in_group = None, False
    while (match := _PREFIX.match(text)) and not text[match.end():].startswith("//"):  # not a URL
        word = match.group(1).lower()
        if person is None and word in people:
            person = people[word]
        elif not in_group and group is not None and word in _TEAM_WORDS:
            in_group = True
        elif person is None and not in_group:
            names = ", ".join(f"`{name}:`" for name in people) + (", `team:`" if group is not None else "")
            raise UnknownPrefix(f"(nobody here is called {match.group(1)!r}: the prefixes are {names}; "
                                f"to send a line with a colon, start it with `you:`)")
        else:
            break
        text = text[match.end():]
    return person or you, group if in_group else None, text.strip()


async def terminal_chat(
    server: FakeBotApi,
    user: FakeUser,
    *,
    group: FakeGroup | None = None,
    teammates: Sequence[FakeUser] = (),
    read_line: Callable[[], Awaitable[str]] = _stdin_line,
    write: Callable[[str], None] = print,
    group_quiet: float = GROUP_QUIET,
    handled: Callable[[int], Awaitable[bool]] | None = None,
    drain: Callable[[], Awaitable[None]] | None = None,
    tick: Callable[[float], Awaitable[str]] | None = None,
    files_dir: Path | None = None,
) -> None:
    """Sends typed lines as `user`'s messages; "1" or "!1" presses button 1. Ends at EOF.

    With a `group` and `teammates`, prefixes pick the chat and the person (see the module's docstring).
    `handled(update_id)` waits until the bot has handled an update to the end: each line then waits
    for that, not for a quiet spell alone. `drain()` runs at EOF before the last lines are printed
    (the sandbox stops the bot there, which finishes every update it fetched). `tick(seconds)` moves
    the bot's clock (`/tick 1h`) and says where it is now.
    """
    people = prefixes(user, teammates)
    own = {p.id: ChatPane(p.id, "bot" if p is user else f"bot → {p.info.first_name}", files_dir=files_dir)
           for p in (user, *teammates)}
    team = ChatPane(group.id, "team bot", tagged=True, files_dir=files_dir) if group is not None else None
    printer = ChatPrinter(server, [*own.values(), *([team] if team else [])], write,
                          name_toasts=group is not None or bool(teammates))

    async def watch() -> None:
        while True:
            await server.wait_change()
            printer.refresh()

    async def vote(person: FakeUser, numbers: list[int]) -> bool:
        """`poll 2`: the person answers the group's newest open poll; whether the bot will hear of it."""
        open_polls = [m for m in server.chat_view(group.id) if m.from_bot and m.poll is not None
                      and not server.state.close_due_poll(m.poll)] if group is not None else []
        if not open_polls:
            write("(no open poll in the group)")
            return False
        options = len(open_polls[-1].poll["options"]) if open_polls[-1].poll else 0
        if not all(1 <= n <= options for n in numbers):
            write(f"(that poll has options 1 to {options})")
            return False
        try:
            await person.answer_poll(open_polls[-1], [n - 1 for n in numbers])
        except ValueError as e:
            write(f"({e})")
            return False
        write(f"({person.info.first_name} answered {', '.join(map(str, numbers))})")
        return True

    async def act(person: FakeUser, chat: FakeGroup | None, text: str) -> tuple[Toast | None, bool]:
        """Does what the line says; (the toast of a press, whether the bot will hear of it)."""
        if match := _POLL.match(text):
            return None, await vote(person, [int(n) for n in re.split(r"[\s,]+", match.group(1))])
        pane = team if chat is not None and team is not None else own[person.id]  # a chat: the group's
        chosen = pane.numbered(text)
        if chosen is None and (forced := _FORCED_BUTTON.match(text)):
            write(f"(no button {forced.group(1)} here)")
            return None, False
        reply_to = None
        if chat is not None and (match := _MESSAGE_BUTTON.match(text)):
            chosen = _button_of(server, chat, int(match.group(1)), int(match.group(2)))
            if chosen is None:
                write(f"(no button {match.group(2)} on group message [#{match.group(1)}])")
                return None, False
        elif chat is not None and (match := _REPLY.match(text)):
            reply_to = _message(server, chat, int(match.group(1)))
            if reply_to is None:
                write(f"(no message [#{match.group(1)}] in the group)")
                return None, False
            text = match.group(2).strip()
        if chosen is None and (upload := _UPLOAD.match(text)):
            return await send_file(person, chat, upload.group(1) or "")
        if chosen is None:
            try:
                sent = await person.send(line_breaks(text), chat=chat, reply_to=reply_to)
            except TooLong:  # Telegram's client refuses it too; the line is dropped, the session goes on
                write(f"(too long: Telegram sends at most {MAX_TYPED} characters in one message; "
                      "nothing was sent)")
                return None, False
            # the fake server applies Telegram's privacy mode; say so rather than wait in silence
            if chat is not None and not server._bot_sees(chat.info, sent):
                write("(the bot doesn't see that: in a group it only gets commands, replies to its "
                      "messages and @mentions)")
                return None, False
            return None, True
        message, button = chosen
        if button.callback_data is None:
            write(f"(link) {button.url}")
            return None, False
        try:
            toast = await person.press(message, callback_data=button.callback_data)
        except LookupError:
            write("(that button is gone)")
            return None, False
        printer.toasts.append((person, toast))
        return toast, True

    async def send_file(person: FakeUser, chat: FakeGroup | None, name: str) -> tuple[Toast | None, bool]:
        """`/upload FILE`: the file, as a document the person sends in their private chat (where a lead
        imports; in a group the bot, in privacy mode, would not see it)."""
        if chat is not None:
            write("(/upload sends a file in your private chat with the bot: type it without `team:`)")
            return None, False
        if not name.strip():
            write("(usage: /upload FILE — a file on this computer, sent to the bot as a document)")
            return None, False
        path = Path(name.strip()).expanduser()
        try:
            data = path.read_bytes()
        except OSError as e:
            write(f"(cannot read {path}: {e.strerror or e})")
            return None, False
        await person.send_document(data, path.name, chat=chat)
        return None, True

    async def move_clock(text: str) -> None:
        seconds = tick_seconds(text)
        if tick is None:  # only called with one
            return
        if seconds is None:
            write("(usage: /tick 1h — also 30m, 2d, 1w, 1d12h)")
            return
        write(await tick(seconds))
        with contextlib.suppress(TimeoutError):  # what the due jobs sent
            await server.wait_idle(quiet=group_quiet, timeout=30)

    watcher = asyncio.create_task(watch())
    try:
        while line := await read_line():
            try:
                person, chat, text = parse_line(line.strip(), people, user, group)
            except UnknownPrefix as e:
                write(str(e))
                continue
            if not text:
                continue
            if tick is not None and chat is None and person is user and _TICK.match(text):
                await move_clock(text)
                printer.refresh()
                continue
            before = printer.state()
            last_update = server.state.updates.last_pushed
            toast, heard = await act(person, chat, text)
            update_id = server.state.updates.last_pushed
            if heard and handled is not None and update_id is not None and update_id != last_update:
                # the bot handled the line to the end (a button number only means something once the
                # message with that button is there); then what it sends after, paced, is awaited
                if not await handled(update_id):
                    write("(the bot has not answered that yet)")
                with contextlib.suppress(TimeoutError):
                    await server.wait_idle(quiet=group_quiet if chat else PRIVATE_QUIET, timeout=30)
            elif heard:
                # let the bot answer before the next line: lines piped in arrive all at once
                await _settle(server, printer, before, toast, group_quiet if chat else PRIVATE_QUIET)
            printer.refresh()
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
    if drain is not None:
        await drain()
    printer.refresh()


def line_breaks(text: str) -> str:
    """A typed line as the message it stands for: `\\n` (a backslash and n) is a line break."""
    return text.replace("\\n", "\n")


def tick_seconds(line: str) -> float | None:
    """The seconds a `/tick 1h` line moves the clock by (None if it names no duration)."""
    match = _TICK.match(line.strip())
    return parse_duration(match.group(1) or "") if match else None


def _message(server: FakeBotApi, group: FakeGroup, message_id: int) -> StoredMessage | None:
    return next((m for m in server.chat_view(group.id) if m.message_id == message_id), None)


def _button_of(server: FakeBotApi, group: FakeGroup, message_id: int,
               number: int) -> tuple[StoredMessage, Button] | None:
    message = _message(server, group, message_id)
    if message is None:
        return None
    buttons = [b for row in message.buttons for b in row]
    return (message, buttons[number - 1]) if 1 <= number <= len(buttons) else None
