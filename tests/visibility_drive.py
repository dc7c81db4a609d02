"""Driving the visibility matrix: people act (send, press, open desk pages, run the command line),
and everything each of them can then read is searched for the canaries (tests/visibility_world.py).

What a person can read after a step: every message the bot sent or edited in their private chat or in
a group they are a known member of (its text or caption, buttons, poll, and a file's contents: a
CSV, an XLSX's sheets, an HTML page), the toasts of their own presses, their desk session's pages and
downloads, and what the command line printed for its operator. A step is one route; its readings are
the Bot API calls made from the step's start until the bot went quiet, plus what the desk and the
command line returned to whom.
"""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bank.authoring.draft import load_draft
from bank.kinds import Kind
from bot import outbox
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode
from proctor.exams.visibility import OPERATOR as OPERATOR_VIEW
from proctor.exams.visibility import lens
from proctor.storage import updates
from proctor.teams.disputes import open_disputes
from sandbox.fakeapi.methods.params import UploadedPart
from sandbox.fakeapi.state import StoredMessage
from tests.desk_helpers import DeskClient, DeskEnv
from tests.reads import attempts_of, invites_stored, outbox_due, paper_id, question_ids, uploads_of
from tests.visibility_seed import FIRST_UPDATE
from tests.visibility_world import (
    CANDIDATES,
    DECOY,
    GROUPS,
    PEOPLE,
    SLUGS,
    Canary,
    PaperKind,
    Who,
    found,
    groups_of,
    readers,
    word,
)

OPERATOR = "operator"  # who reads the command line's output: the machine's owner
CONTENT = ("send", "edit", "copy", "forward")  # Bot API methods that put something in a chat


@dataclass(frozen=True)
class Reading:
    """Something a person read: where, and its text."""
    reader: Who | str  # a viewer, or OPERATOR
    where: str
    text: str


@dataclass(frozen=True)
class Sighting:
    route: str
    reader: Who | str
    kind: PaperKind
    canary: Canary
    where: str

    def __str__(self) -> str:
        reader = self.reader.value if isinstance(self.reader, Who) else self.reader
        return f"{self.route} × {reader} × {self.kind} {self.canary} (in {self.where})"


def file_text(data: bytes) -> str:
    """A file's words: an XLSX's (or any zip's) XML parts, else the bytes as UTF-8."""
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".xml"))
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return ""  # an image's pixels: its caption is searched
    return data.decode("utf-8", "replace")


def _value_text(value: Any) -> str:
    if isinstance(value, UploadedPart):
        return file_text(value.data)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


@dataclass
class Matrix:
    """The running world and the ids the drivers need (found once the bot runs on the seeded copy)."""

    env: DeskEnv
    papers: dict[PaperKind, int] = field(default_factory=dict)
    fill: dict[PaperKind, int] = field(default_factory=dict)  # the fill-in (key canary)
    choice: dict[PaperKind, int] = field(default_factory=dict)  # the first single choice
    written: dict[PaperKind, int] = field(default_factory=dict)  # the short answer (reference canary)
    held: dict[PaperKind, int] = field(default_factory=dict)  # the held multiple choice (doubt canary)
    sat: dict[tuple[Who, PaperKind], int] = field(default_factory=dict)  # finished sittings
    running: dict[Who, int] = field(default_factory=dict)  # the candidates' attempts
    position: dict[Who, int] = field(default_factory=dict)  # the candidates' current question
    written_pos: dict[tuple[Who, PaperKind], int] = field(default_factory=dict)  # the short answer's position
    disputes: dict[PaperKind, tuple[int, int]] = field(default_factory=dict)  # the member's: fill-in, choice
    seed_invites: list[int] = field(default_factory=list)
    invites: dict[Who, int] = field(default_factory=dict)  # the invite each viewer claimed during the run
    decoy: int = 0
    decoy_question: int = 0
    done_upto: int = FIRST_UPDATE - 1  # every update up to this id was handled to the end
    desks: dict[Who, DeskClient] = field(default_factory=dict)
    read: list[Reading] = field(default_factory=list)  # readings the desk and the command line add
    sitting: dict[Who, set[PaperKind]] = field(default_factory=dict)  # sittings started during the run
    ended: dict[Who, set[PaperKind]] = field(default_factory=dict)  # candidates' sittings ended during the run

    async def prepare(self) -> None:
        db = self.env.db
        for kind in PaperKind:
            slug = SLUGS[kind]
            self.papers[kind] = await paper_id(db, slug)
            self.choice[kind] = (await question_ids(db, slug, Kind.single))[0]
            [self.fill[kind]] = await question_ids(db, slug, Kind.fill)
            [self.written[kind]] = await question_ids(db, slug, Kind.short)
            [self.held[kind]] = await question_ids(db, slug, Kind.multi)
        self.decoy = await paper_id(db, DECOY)
        [self.decoy_question] = await question_ids(db, DECOY)
        by_paper = {v: k for k, v in self.papers.items()}
        for who in (Who.stranger, Who.member):
            for a in await attempts_of(db, PEOPLE[who].user_id):
                kind = by_paper[a.paper_id]
                self.sat[who, kind] = a.id
                sheet = await attempts.load_sheet(db, a.id, positions=[])
                self.written_pos[who, kind] = next(i.pos for i in sheet.items if i.question_id == self.written[kind])
        mine = {d.question_id: d.id for d in await open_disputes(db, await lens(db, OPERATOR_VIEW, None), limit=100)
                if d.reason.startswith(tuple(word(Canary.dispute, k) for k in PaperKind))}
        self.disputes = {k: (mine[self.fill[k]], mine[self.choice[k]]) for k in PaperKind}
        self.seed_invites = [i.id for i in await invites_stored(db)]
        for kind, who in CANDIDATES.items():
            running = await attempts.running_attempt(db, PEOPLE[who].user_id)
            assert running is not None and running.paper_id == self.papers[kind]
            self.running[who] = running.id
        await self.refresh_positions()

    async def refresh_positions(self) -> None:
        for who, attempt in self.running.items():
            self.position[who] = (await attempts.get_attempt(self.env.db, attempt)).current_pos

    async def note_sittings(self) -> None:
        """Viewers who began an exam on a canary paper during the run: its sections are theirs to see
        now, and its keys sealed for them (the expected values follow, tests/project/test_visibility_matrix.py)."""
        by_paper = {v: k for k, v in self.papers.items()}
        for who in Who:
            running = await attempts.running_attempt(self.env.db, PEOPLE[who].user_id)
            if running is not None and running.paper_id in by_paper and running.id != self.running.get(who) \
                    and running.mode == AttemptMode.exam:
                self.sitting.setdefault(who, set()).add(by_paper[running.paper_id])

    def names(self) -> dict[str, object]:
        """What the command line's arguments name ({fill_exam}, {held_practice}, {folder}, ...)."""
        names: dict[str, object] = {"folder": self.env.db_path.parent, "decoy": DECOY,
                                    "decoy_question": self.decoy_question, "lead": PEOPLE[Who.lead_verified].user_id}
        for k in PaperKind:
            tag = k.name.split("_")[0]
            names |= {f"fill_{tag}": self.fill[k], f"held_{tag}": self.held[k], f"slug_{tag}": SLUGS[k],
                      f"dispute_{tag}": self.disputes[k][0]}
        return names

    async def pending_uploads(self) -> list[int]:
        return [u.id for u in await uploads_of(self.env.db, PEOPLE[Who.admin].user_id)]

    async def draft_id(self) -> int:
        found = await load_draft(self.env.db, PEOPLE[Who.admin].user_id)
        return found.id if found is not None else 998

    # ---- people ------------------------------------------------------------------------------------

    def user(self, who: Who):
        return self.env.api.user(PEOPLE[who].user_id)

    def uid(self, who: Who) -> int:
        return PEOPLE[who].user_id

    async def say(self, who: Who, text: str, chat: int | None = None) -> None:
        await self.user(who).send(text, chat=chat)

    async def say_everywhere(self, who: Who, text: str) -> None:
        """In every group they are in, then in their private chat (what is done once is done in a group)."""
        for g in groups_of(who):
            await self.say(who, text, chat=g.chat_id)
        await self.say(who, text)

    def bot_message(self, chat: int, data: str, text: str = "…") -> StoredMessage:
        """A message of the bot's in `chat` with one button carrying `data` (a button an earlier screen
        showed, or one a person crafted: the bot must judge the data, not trust it)."""
        state = self.env.api.state
        markup = {"inline_keyboard": [[{"text": "press", "callback_data": data}]]}
        return state.new_message(state.chats[chat], state.bot.id, text=text, reply_markup=markup)

    async def press(self, who: Who, data: str, chat: int | None = None, on: StoredMessage | None = None) -> None:
        """`who` presses a button with `data`: on `on`, or on a bot message made for it in `chat`."""
        message = on or self.bot_message(PEOPLE[who].user_id if chat is None else chat, data)
        if on is not None and data not in [b.callback_data for row in on.buttons for b in row]:
            on.reply_markup = {"inline_keyboard": [[{"text": "press", "callback_data": data}]]}
        await self.user(who).press(message, callback_data=data)

    async def each(self, act: Callable[[Who], Awaitable[None]], people: Iterable[Who] | None = None) -> None:
        """`act` for every viewer (or these), all at once: each person's updates are handled in order."""
        await asyncio.gather(*(act(who) for who in (people if people is not None else list(Who))))

    async def desk(self, who: Who) -> DeskClient:
        """`who`'s desk session (signed in as the Mini App does): kept while it lasts, so a change
        made meanwhile (a verification undone) shows at its next request."""
        if who not in self.desks:
            self.desks[who] = DeskClient(self.env)
        client = self.desks[who]
        if client.sid is None or self.env.desk_context.sessions.get(client.sid, self.env.clock.now()) is None:
            await client.login(self.uid(who), PEOPLE[who].name)
        return client

    async def close(self) -> None:
        for client in self.desks.values():
            await client.close()

    # ---- readings ----------------------------------------------------------------------------------

    def mark(self) -> int:
        return len(self.env.api.state.calls)

    async def settle(self) -> None:
        """Until the bot is quiet: every update handled to the end (a user's later update waits behind
        their earlier one), every message the outbox holds due delivered, and no call made since the
        last look."""
        calls = self.env.api.state.calls
        due: list = []
        for _ in range(100):
            before = len(calls)
            await self.env.idle()
            if not await self._handled():
                await self.env.api.wait_change(0.05)
                continue
            if due := await outbox_due(self.env.db, self.env.clock.now()):
                outbox.kick(self.env.app)  # the job is armed at its next try; the run's clock is a test's
                await self.env.api.wait_change(0.05)
                continue
            if len(calls) == before:
                return
        raise AssertionError(f"the bot did not go quiet: updates done up to {self.done_upto}, due {due}")

    async def _handled(self) -> bool:
        """Whether every update queued so far was handled to the end."""
        last = self.env.api.state.updates.last_pushed
        while last is not None and self.done_upto < last:
            if not await updates.is_done(self.env.db, self.env.app.bot.id, self.done_upto + 1):
                return False
            self.done_upto += 1
        return True

    def readings_since(self, mark: int) -> list[Reading]:
        """What people read from the Bot API calls made since `mark`."""
        state = self.env.api.state
        out = []
        for call in state.calls[mark:]:
            method = call.method.lower()
            params = call.params
            if method == "answercallbackquery":
                record = state.callbacks.get(str(params.get("callback_query_id")))
                who = next((p.who for p in PEOPLE.values() if record and p.user_id == record.user_id), None)
                if who is not None and params.get("text"):
                    out.append(Reading(who, "a toast", str(params["text"])))
                continue
            if not method.startswith(CONTENT) or "chat_id" not in params:
                continue
            chat = params["chat_id"]
            text = "\n".join(_value_text(v) for k, v in params.items() if k != "chat_id")
            where = next((f"group {g.title}" for g in GROUPS if g.chat_id == chat), f"private chat {chat}")
            out.extend(Reading(who, f"{call.method} to {where}", text) for who in readers(chat))
        return out


def sightings(route: str, readings: Iterable[Reading]) -> list[Sighting]:
    return [Sighting(route, r.reader, kind, canary, r.where)
            for r in readings for kind, canary in sorted(found(r.text))]
