"""The server side of bench_exam: timing probes on the fake Bot API and simulated candidates.

The probe wraps entries of the fake server's method table (bot.fakeapi.methods.METHODS) in this
process only, while a run lasts; bot/fakeapi itself is unchanged. It stamps, with
time.perf_counter() in the server's process:

- delivered: when getUpdates hands a press (callback_query) or a typed answer (message) to the bot;
- answered:  when the bot's answerCallbackQuery for a press arrives;
- edited:    when the bot shows the next question: editMessageText for that chat after a press, or
             sendMessage of a screen (a keyboard with Finish) after a typed answer.

Bot-side latency = edited - delivered. End-to-end = when the candidate sees the edit - press.
Candidates wait on a per-chat signal from the probe, not on FakeBotApi.wait_for, whose waiters all
wake on every request (500 waiters x 1000 requests/s would make the driver the bottleneck).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from sandbox.fakeapi import FakeBotApi, StoredMessage
from sandbox.fakeapi import methods as fake_methods

T = TypeVar("T")
TIMEOUT = 60.0
ANSWER_BUTTONS = ("A", "True")  # the first button of a question answered by pressing
TYPED_ANSWER = "梯度累积步数"


@dataclass
class Press:
    chat_id: int
    callback_id: str  # "" for a typed answer
    pressed: float
    delivered: float | None = None
    answered: float | None = None
    edited: float | None = None
    seen: float | None = None

    @property
    def bot_side(self) -> float | None:
        return None if self.delivered is None or self.edited is None else self.edited - self.delivered

    @property
    def end_to_end(self) -> float | None:
        return None if self.seen is None else self.seen - self.pressed


def _chat_of(params: dict[str, Any]) -> int | None:
    try:
        return int(params["chat_id"])
    except (KeyError, TypeError, ValueError):
        return None


class Probe:
    """Installed around one run: `with Probe() as probe: ...`."""

    def __init__(self) -> None:
        self.presses: list[Press] = []
        self._by_callback: dict[str, Press] = {}
        self._open: dict[int, Press] = {}  # chat id -> the press still waiting for its edit
        self._events: dict[int, asyncio.Event] = {}
        self._saved: dict[str, tuple[str, Callable]] = {}

    def __enter__(self) -> Probe:
        # aiohttp listens with a backlog of 128: 200+ connections opened at once overflow it and
        # the dropped SYNs are retried after 1 s, 3 s, 7 s. That is the fake server, not the bot.
        self._site = web.TCPSite
        web.TCPSite = functools.partial(self._site, backlog=4096)
        table = fake_methods.METHODS
        self._saved = dict(table)
        for key, (name, handler) in self._saved.items():
            table[key] = (name, self._wrap(name, handler))
        return self

    def __exit__(self, *exc_info: object) -> None:
        fake_methods.METHODS.update(self._saved)
        web.TCPSite = self._site

    # --- stamping -----------------------------------------------------------------------------

    def _wrap(self, name: str, handler: Callable) -> Callable:
        if inspect.iscoroutinefunction(handler):
            async def wrapped_async(api, params):
                result = await handler(api, params)
                if name == "getUpdates" and result:
                    self._on_delivered(result)
                return result
            return wrapped_async

        def wrapped(api, params):
            arrived = time.perf_counter()
            chat_id = _chat_of(params)
            try:
                result = handler(api, params)
            finally:
                if chat_id is not None:
                    self._signal(chat_id)
            if name == "answerCallbackQuery":
                press = self._by_callback.get(str(params.get("callback_query_id")))
                if press is not None and press.answered is None:
                    press.answered = arrived
            elif chat_id is not None and (name == "editMessageText" or (
                    name == "sendMessage" and "Finish" in str(params.get("reply_markup", "")))):
                press = self._open.get(chat_id)
                if press is not None and (name == "editMessageText") == bool(press.callback_id):
                    del self._open[chat_id]
                    press.edited = arrived
            return result
        return wrapped

    def _on_delivered(self, updates: list[dict[str, Any]]) -> None:
        now = time.perf_counter()
        for update in updates:
            query = update.get("callback_query")
            if query:
                press = self._by_callback.get(query["id"])
            else:
                chat = (update.get("message") or {}).get("chat", {}).get("id")
                press = self._open.get(chat) if chat is not None else None
            if press is not None and press.delivered is None:
                press.delivered = now

    def pressed(self, chat_id: int, callback_id: str, at: float) -> Press:
        press = Press(chat_id, callback_id, at)
        if callback_id:
            self._by_callback[callback_id] = press
        self._open[chat_id] = press
        self.presses.append(press)
        return press

    # --- waiting ------------------------------------------------------------------------------

    def _signal(self, chat_id: int) -> None:
        event = self._events.pop(chat_id, None)
        if event is not None:
            event.set()

    async def until(self, chat_id: int, predicate: Callable[[], T], timeout: float = TIMEOUT) -> T:
        """Waits until `predicate()` is truthy, re-checked whenever the bot calls for this chat."""
        deadline = time.perf_counter() + timeout
        while True:
            event = self._events.setdefault(chat_id, asyncio.Event())
            result = predicate()
            if result:
                return result
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"chat {chat_id}: not within {timeout}s")
            async with asyncio.timeout(remaining):
                await event.wait()


def _newest(messages: list[StoredMessage], wanted: Callable[[StoredMessage], bool]) -> StoredMessage | None:
    for message in reversed(messages):
        if message.from_bot and wanted(message):
            return message
    return None


class Candidate:
    """One simulated person with a private chat; takes the paper through the fake server."""

    def __init__(self, api: FakeBotApi, probe: Probe, user_id: int) -> None:
        self.user = api.user(user_id, f"C{user_id}", language_code="en")
        self.probe = probe
        self.answers = 0

    @property
    def chat_id(self) -> int:
        return self.user.id

    def screen(self) -> StoredMessage | None:
        """The live question screen: the newest bot message with a Finish button."""
        return _newest(self.user.chat(), lambda m: "Finish" in m.button_texts)

    async def _wait_button(self, text: str) -> StoredMessage:
        return await self.probe.until(self.chat_id, lambda: _newest(self.user.chat(), lambda m: text in m.button_texts))

    async def open_ours(self, paper_button: str) -> None:
        """/exam → choose the paper → ▶️ Start → the first question (set-up, not measured)."""
        await self.user.send("/exam")
        await self.user.press(await self._wait_button(paper_button), paper_button)
        await self.user.press(await self._wait_button("▶️ Start"), "▶️ Start")
        await self.probe.until(self.chat_id, self.screen)

    async def open_bare(self) -> None:
        await self.user.send("/exam")
        await self.probe.until(self.chat_id, self.screen)

    async def answer(self, typed: str | None = None) -> Press:
        """Answers the question on screen: presses its first answer button and waits until the screen
        is edited, or (a question without answer buttons) types an answer (`typed`, or a fill-in's)
        and waits for the next screen."""
        message = self.screen()
        before = message.edits
        button = message.buttons[0][0]
        at = time.perf_counter()
        if button.text in ANSWER_BUTTONS:
            toast = await self.user.press(message, callback_data=button.callback_data)
            press = self.probe.pressed(self.chat_id, toast.record.id, at)  # no await since: not yet fetched
            await self.probe.until(self.chat_id, lambda: message.edits != before)
        else:
            await self.user.send(typed or TYPED_ANSWER)
            press = self.probe.pressed(self.chat_id, "", at)
            await self.probe.until(self.chat_id, lambda: (m := self.screen()) is not None and m is not message)
        press.seen = time.perf_counter()
        self.answers += 1
        return press


async def closed_loop(candidates: list[Candidate], answers: int) -> float:
    """Everyone answers `answers` questions back to back; returns the wall time."""
    async def take(c: Candidate) -> None:
        for _ in range(answers):
            await c.answer()

    start = time.perf_counter()
    await asyncio.gather(*(take(c) for c in candidates))
    return time.perf_counter() - start


async def open_loop(candidates: list[Candidate], period: float, duration: float) -> tuple[float, float]:
    """Candidate i answers at i·period/N + r·period (staggered); returns (wall time, worst lateness)."""
    start = time.perf_counter() + 0.2
    late = [0.0]

    async def take(i: int, c: Candidate) -> None:
        offset = i * period / len(candidates)
        r = 0
        while offset + r * period < duration:
            at = start + offset + r * period
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            late[0] = max(late[0], time.perf_counter() - at)
            await c.answer()
            r += 1

    await asyncio.gather(*(take(i, c) for i, c in enumerate(candidates)))
    return time.perf_counter() - start, late[0]
