"""People who take a whole bundled paper through the fake Bot API, one update at a time (bench_update_cpu).

A person reads the screen as a person would: a fill-in is typed, a single choice or true/false is
pressed, a multiple choice gets two ticks and Submit; on the second single-choice question they go
◀ Back to look at the one before and Next ▶ again; when the last answer brings "Finish now?" they
press "Yes, finish" and wait for the result card. A person who skims (the warm-up) answers two
questions of each kind, skips the rest and presses Finish on the last. They read only what either
bot shows (its buttons and the question number), so the same people take the paper on our bot and
on the bare one.

Each update waits until the bot has made the Bot API calls `CALLS` lists for its kind (the same for
both bots: bench/README.md) and none is in flight; a call the list does not have is counted as
unexpected and reported. `take_turns` lets the people act one after another: one update at a time,
at most `rate` a second, none sooner than the bot's per-user meter allows, and a person's updates
that make the bot send a new message at least SEND_GAP apart (Telegram's one message a second in a
chat, which our pacer keeps and PTB's limiter does not: so neither ever has to hold a call back).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bank.importer import parse_files
from bank.kinds import Kind
from bot.catalogue.marks import TICKED
from bot.exam.render import points
from bot.ordering import RATE
from bot.section_names import section_name
from proctor.storage.bootstrap import SEEDS_DIR
from sandbox.fakeapi import Call, FakeBotApi, StoredMessage

TIMEOUT = 60.0
PRESSED = (Kind.single, Kind.truefalse, Kind.multi)  # every other kind is typed
TICKS = ("A", "C")  # the options a person ticks on a multiple-choice question
WRONG = "不知道"
SEND_GAP = 1.05  # s between one person's updates that send a message (Telegram: about 1 a second a chat)


class Step(StrEnum):
    """The kinds of update a person sends while taking a paper."""

    typed = "typed answer"
    press = "press (single choice, true/false)"
    tick = "tick (multiple choice)"
    submit = "Submit (multiple choice)"
    back = "◀ Back"
    next = "Next ▶"
    skip = "Skip ▶"
    last = "last answer (Finish now? appears)"
    finish = "Finish (Finish now? appears)"
    hand_in = "Yes, finish (hand-in, result card)"


# The Bot API calls each kind of update makes, in order: ours (recorded with `bench_update_cpu.py
# --calls`) and the bare bot alike.
CALLS: dict[Step, tuple[str, ...]] = {
    Step.typed: ("sendMessage", "deleteMessage"),
    Step.press: ("answerCallbackQuery", "editMessageText"),
    Step.tick: ("answerCallbackQuery", "editMessageText"),
    Step.submit: ("answerCallbackQuery", "editMessageText"),
    Step.back: ("answerCallbackQuery", "editMessageText"),
    Step.next: ("answerCallbackQuery", "editMessageText"),
    Step.skip: ("answerCallbackQuery", "editMessageText"),
    Step.last: ("answerCallbackQuery", "editMessageText"),
    Step.finish: ("answerCallbackQuery", "editMessageText"),
    Step.hand_in: ("answerCallbackQuery", "editMessageText", "sendMessage"),
}
SENDS = frozenset(step for step, calls in CALLS.items() if "sendMessage" in calls)


@dataclass(frozen=True)
class Question:
    kind: Kind
    ref: str  # its reference, as the screen's header shows it ("P1 · Q12")
    section: str  # as the screen's header shows it ("单项选择题")
    points: str  # "2 pts"
    stem: str
    options: tuple[str, ...]
    typed: str  # what a person types (the key for every other fill-in, else a wrong answer)


@dataclass(frozen=True)
class Paper:
    number: int  # as /exam lists it: "P1 · ..."
    title: str
    questions: tuple[Question, ...]

    @property
    def button(self) -> str:
        return f"P{self.number} · "

    def as_json(self) -> dict[str, Any]:
        """What the bare bot needs to draw the same screens."""
        return {"title": self.title, "questions": [
            {"kind": q.kind.value, "ref": q.ref, "section": q.section, "points": q.points, "stem": q.stem,
             "options": list(q.options)}
            for q in self.questions]}


def bundled_paper(number: int) -> Paper:
    """Bundled paper `number` (1-5, in /exam's order: the seed files' order on a fresh database)."""
    paper = parse_files(sorted(SEEDS_DIR.glob("*.txt")))[number - 1]
    questions: list[Question] = []
    n = 0  # the question's place in the paper's full order (unaskable ones too): its reference's
    for section in paper.sections:
        for q in section.questions:
            n += 1
            if not q.askable:
                continue
            key = q.answer if q.kind == Kind.fill and len(questions) % 2 == 0 else None
            typed = "、".join(blank[0] for blank in key) if isinstance(key, list) and key else WRONG
            questions.append(Question(q.kind, f"P{number} · Q{n}", section_name(section.title, "en"),
                                      points(q.points, "en"), q.stem, tuple(q.options), typed))
    return Paper(number, paper.title, tuple(questions))


def _bot_screen(messages: list[StoredMessage]) -> StoredMessage | None:
    """The live exam message: the newest from the bot with Finish (or Yes, finish) on it."""
    for message in reversed(messages):
        if message.from_bot and {"Finish", "Yes, finish"} & set(message.button_texts):
            return message
    return None


@dataclass
class Person:
    api: FakeBotApi
    paper: Paper
    user_id: int
    skim: bool = False  # answer two questions of each kind, skip the rest, then Finish (a warm-up)
    last: float = 0.0  # when they last acted
    last_send: float = -10.0  # when they last made the bot send a message
    updates: Counter[Step] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)
    done: bool = False
    _looked_back: bool = False
    _looking_back: bool = False

    def __post_init__(self) -> None:
        self.user = self.api.user(self.user_id, f"P{self.user_id}", language_code="en")

    def screen(self) -> StoredMessage:
        found = _bot_screen(self.user.chat())
        if found is None:
            raise LookupError(f"user {self.user_id}: no exam screen")
        return found

    async def _wait_button(self, prefix: str) -> StoredMessage:
        def found() -> StoredMessage | None:
            for message in reversed(self.user.chat()):
                if message.from_bot and any(text.startswith(prefix) for text in message.button_texts):
                    return message
            return None
        return await self.api.wait_for(found, TIMEOUT, f"a button {prefix!r} for user {self.user_id}")

    async def open(self, ours: bool) -> None:
        """/exam up to the first question (ours: the paper, then ▶️ Start). Set-up, not measured."""
        await self.user.send("/exam")
        if ours:
            chooser = await self._wait_button(self.paper.button)
            await self.user.press(chooser, next(t for t in chooser.button_texts if t.startswith(self.paper.button)))
            await self.user.press(await self._wait_button("▶️ Start"), "▶️ Start")
        await self.api.wait_for(lambda: _bot_screen(self.user.chat()), TIMEOUT, f"the first question for {self.user_id}")
        self.last = self.last_send = time.perf_counter()

    def next_step(self) -> tuple[Step, Callable[[], Awaitable[object]]]:
        """What the person does next, read off the screen (and done by calling `act` with it)."""
        screen = self.screen()
        labels = screen.button_texts
        if "Yes, finish" in labels:
            return Step.hand_in, lambda: self.user.press(screen, "Yes, finish")
        if self._looking_back:
            return Step.next, lambda: self.user.press(screen, "Next ▶")
        pos = int(screen.text.split(" of ", 1)[0].rsplit(" ", 1)[-1]) - 1  # "P1 · Q12 · 12 of 40 · ..."
        questions = self.paper.questions
        q = questions[pos]
        last = pos == len(questions) - 1
        if self.skim and pos >= 2 and questions[pos - 1].kind == questions[pos - 2].kind == q.kind:
            return (Step.finish, lambda: self.user.press(screen, "Finish")) if last else (
                Step.skip, lambda: self.user.press(screen, "Skip ▶"))
        if q.kind == Kind.single and not self._looked_back and pos and questions[pos - 1].kind == Kind.single:
            return Step.back, lambda: self.user.press(screen, "◀ Back")
        if q.kind not in PRESSED:
            return Step.typed, lambda: self.user.send(q.typed)
        if q.kind == Kind.multi:
            ticked = {t.split()[-1] for t in labels if t.startswith(TICKED)}
            wanted = [letter for letter in TICKS if letter not in ticked]
            if wanted:
                button = next(t for t in labels if t.split()[-1] == wanted[0])
                return Step.tick, lambda: self.user.press(screen, button)
            return (Step.last if last else Step.submit), lambda: self.user.press(screen, "Submit")
        answer = ("A", "B")[pos % 2] if q.kind == Kind.single else next(
            t for t in labels if t.endswith(("True", "False")[pos % 2]))
        return (Step.last if last else Step.press), lambda: self.user.press(screen, answer)

    def ready_at(self, step: Step) -> float:
        at = self.last + 1 / RATE
        return max(at, self.last_send + SEND_GAP) if step in SENDS else at

    async def act(self, step: Step, action: Callable[[], Awaitable[object]], quiet: float | None = None) -> list[Call]:
        """Sends the update and waits for the calls its kind makes (or, given `quiet`, until the bot has
        been quiet that long: to find out what they are); returns the calls it made so far."""
        api = self.api
        if self.updates.total() > 3 * len(self.paper.questions) + 10:
            raise RuntimeError(f"user {self.user_id}: the paper never ends (the bot does not show what a person expects)")
        first = len(api.calls)
        expected = Counter(CALLS[step])
        self.last = time.perf_counter()
        if step in SENDS:
            self.last_send = self.last
        self._looked_back |= step == Step.back
        self._looking_back = step == Step.back
        await action()

        def answered() -> bool:
            return not api.server.in_flight and Counter(c.method for c in api.calls[first:]) >= expected
        if quiet is None:
            await api.wait_for(answered, TIMEOUT, f"{step} from user {self.user_id}: the calls {CALLS[step]}")
        else:
            await api.wait_idle(quiet=quiet, timeout=TIMEOUT)
        calls = api.calls[first:]
        self.unexpected.update(Counter(c.method for c in calls) - expected)
        self.updates[step] += 1
        self.done = step == Step.hand_in
        return calls


async def take_turns(people: list[Person], rate: float) -> None:
    """The people take the paper to the end, one update at a time, turn by turn: the next person
    whose turn it may be acts; at most `rate` updates a second in all."""
    last_start = 0.0
    turn = 0
    while not all(p.done for p in people):
        waiting = [p for p in people if not p.done]
        first = turn % len(waiting)
        planned = [(p, *p.next_step()) for p in waiting[first:] + waiting[:first]]
        now = time.perf_counter()
        ready = [x for x in planned if x[0].ready_at(x[1]) <= now]
        person, step, action = ready[0] if ready else min(planned, key=lambda x: x[0].ready_at(x[1]))
        await asyncio.sleep(max(0.0, person.ready_at(step) - now, last_start + 1 / rate - now))
        last_start = time.perf_counter()
        await person.act(step, action)
        turn += 1
