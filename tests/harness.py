"""Integration harness: the real Application, over real HTTP, against the project's fake Bot API.

    env = BotEnv(tmp_path)          # a fake server, a temp SQLite file and a clock the test moves
    await env.start()               # starts the server and the Application (post_init included)
    ann = env.api.user(1001, "Ann")
    await ann.send("/exam")
    await env.restart()             # stop the Application, start a new one on the same database
    await env.close()
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bank.models import Paper
from bot import scheduling
from bot.app import build_application
from bot.lifecycle import start_app, stop_app
from bot.pacing import Pace, Pacer
from bot.scheduling import JobKind
from bot.services import services
from bot.settings import Settings
from proctor.clock import ManualClock
from proctor.exams.deadline import GRACE
from proctor.storage.db import Database
from proctor.storage.location import DbLocation, parse_location
from sandbox.fakeapi import FakeBotApi, StoredMessage
from tests.papers_fixture import save_paper
from tests.template_db import copy_migrated
from tests.template_pg import with_bundled_bank

TOKEN = "123456:TEST-fake-token-for-the-harness"
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
# the pace tests send at unless they ask for Telegram's (telegram_pace) or their own
FAST = Pace(per_second=1000, burst=1000, chat_per_second=1000, chat_burst=1000, group_per_minute=60_000,
            group_burst=1000)


class BotEnv:
    def __init__(self, tmp_path: Path, *, admins: tuple[int, ...] = (), start: float = T0,
                 shuffle: bool = True, meter: bool = False, timezone: str = "UTC", rate_limits=None,
                 telegram_pace: bool = False, first_start: bool = False, pace: Pace | None = FAST,
                 location: str | None = None):
        self.clock = ManualClock(start)
        # the record: a SQLite file here, or `location` (the `db_location` fixture: a file or a
        # PostgreSQL database holding no record row yet)
        self.db_path: DbLocation = tmp_path / "proctor.db" if location is None else parse_location(location)
        self.api = FakeBotApi(TOKEN, bot_username="proctor_bot", clock=self.clock.now,
                              rate_limits=rate_limits)
        self.admins = admins
        self.shuffle = shuffle
        self.meter = meter  # the per-user flood meter (bot/ordering.py); tests drive faster than people
        # the bot's pacer keeps Telegram's rates (bot.app.send_limiter): 30 sends a second, 1 a second
        # per chat, 20 a minute per group. Elsewhere the same pacer (its priorities and 429 retries
        # included) runs at `pace`, by default one a fake server answers at, so scripts do not wait on it;
        # pace=None: no pacer at all (as the benchmarks run the bot)
        self.telegram_pace = telegram_pace
        self.pace = pace
        self.timezone = timezone
        # a new record is what the bot's first start leaves, made once per process (a copy of a SQLite
        # file, tests/template_db.py; rows restored into PostgreSQL, tests/template_pg.py);
        # first_start=True lets the bot migrate and import the bundled bank itself
        self.first_start = first_start
        self.app = None
        self.handled_before: int | None = None

    def settings(self) -> Settings:
        return Settings(TELEGRAM_BOT_TOKEN=TOKEN, PROCTOR_DB=self.db_path, PROCTOR_BOT_API_URL=self.api.base_url,
                        PROCTOR_ADMINS=",".join(map(str, self.admins)), PROCTOR_SHUFFLE_OPTIONS=self.shuffle,
                        PROCTOR_TIMEZONE=self.timezone, PROCTOR_BOT_API_FILE_URL=self.api.base_file_url)

    async def seed(self, *papers: Paper) -> list[int]:
        """Save papers before the bot starts (the bundled bank is then not imported)."""
        if isinstance(self.db_path, Path):
            await copy_migrated(self.db_path)
        db = await Database.open(self.db_path)
        try:
            return [await save_paper(db, p, self.clock.now()) for p in papers]
        finally:
            await db.close()

    async def start(self) -> None:
        await self.api.start()
        await self.start_app()

    async def start_app(self) -> None:
        # every update queued so far was fetched and confirmed by an earlier run (which handled it):
        # idle() need not wait for this run to handle it (its record may even be forgotten by now)
        updates = self.api.state.updates
        self.handled_before = updates.last_pushed if len(updates) == 0 else None
        if not self.first_start:
            await with_bundled_bank(self.db_path, self.clock.now())
        limiter = True if self.telegram_pace else False if self.pace is None else Pacer(self.pace)
        self.app = build_application(self.settings(), clock=self.clock, rate_limiter=limiter)
        if not self.meter:  # tests/bot/test_flood.py tests the meter; elsewhere scripted users outpace it
            self.app.update_processor.burst = self.app.update_processor.max_pending_per_user = 1_000_000
        await start_app(self.app, poll_timeout=1)

    async def stop_app(self) -> None:
        if self.app is not None:
            await stop_app(self.app)
            self.app = None

    async def restart(self) -> None:
        await self.stop_app()
        await self.start_app()

    async def close(self) -> None:
        await self.stop_app()
        await self.api.stop()

    @property
    def db(self) -> Database:
        return services(self.app).db

    def in_group(self, chat_id: int, *people: tuple[int, str]) -> None:
        """At the fake Telegram these users (id, first name) are in the group: what getChatMember
        answers for roster members a test wrote straight into the database."""
        for user_id, name in people:
            self.api.user(user_id, name)
        self.api.group(chat_id).add_members(*(user_id for user_id, _ in people))

    async def idle(self) -> None:
        """The bot fetched every update, handled the last one queued to the end, and went quiet."""
        await self.api.wait_idle(quiet=0.05, timeout=10)
        last = self.api.state.updates.last_pushed
        if last is not None and last != self.handled_before and self.app is not None and self.app.running:
            from sandbox.session import handled_by

            if not await handled_by(self.app, timeout=10)(last):
                return
            await self.api.wait_idle(quiet=0.05, timeout=10)


def fire_now(env: BotEnv, name: str) -> None:
    """Make the named job due now; the real scheduler then runs it (against the moved clock)."""
    [job] = env.app.job_queue.get_jobs_by_name(name)
    job.job.modify(next_run_time=datetime.now(UTC))


def fire_deadline(env: BotEnv, attempt_id: int) -> None:
    """Make the attempt's deadline job due now (it hands in only if the clock is past the deadline and its grace)."""
    fire_now(env, scheduling.name(JobKind.deadline, attempt_id))


def hand_in_expired(env: BotEnv) -> None:
    """Move the clock past the grace a deadline waits for answers sent in time (proctor/exams/deadline.py)
    and make every armed deadline job due now: the real scheduler hands the expired attempts in."""
    env.clock.advance(GRACE)
    for job in env.app.job_queue.jobs():
        if job.name is not None and job.name.startswith(scheduling.name(JobKind.deadline, "")):
            job.job.modify(next_run_time=datetime.now(UTC))


def attempt_message(messages: list[StoredMessage]) -> StoredMessage | None:
    """The live attempt message: the newest bot message with a Finish button."""
    for m in reversed(messages):
        if m.from_bot and not m.deleted and any(t in ("Finish", "交卷") for t in m.button_texts):
            return m
    return None


_PLACE = re.compile(r"· (\d+) of (\d+) ·|· 进度 (\d+)/(\d+) ·")


def at_place(text: str | None, n: int, total: int | None = None) -> bool:
    """Whether an attempt screen's header ("P1 · Q3 · 3 of 7 · …", "P1 · 第3题 · 进度 3/7 · …") shows
    place `n` of the sitting (of `total`)."""
    m = _PLACE.search((text or "").split("\n", 1)[0])
    if m is None:
        return False
    shown, of = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), int(m.group(4)))
    return shown == n and (total is None or of == total)


def rules_card(messages: list[StoredMessage]) -> StoredMessage | None:
    return next((m for m in reversed(messages) if "▶️ Start" in m.button_texts), None)


def paper_button(message: StoredMessage, title: str) -> str | None:
    """The chooser's button for the paper titled `title` (it reads "P3 · <title>", cut to 64 characters)."""
    for label in message.button_texts:
        code, _, shown = label.partition(" · ")
        if code[:1] == "P" and code[1:].isdigit() and (
                shown == title or (shown.endswith("…") and title.startswith(shown[:-1]))):
            return label
    return None


async def pick_paper(user, title: str) -> None:
    """/exam's (or /practice's) chooser is on screen or coming: press the paper titled `title`."""
    chooser = await user.wait_message(lambda m: paper_button(m, title) is not None)
    await user.press(chooser, paper_button(chooser, title))


async def start_exam(env: BotEnv, user, paper_title: str = "Demo paper demo") -> StoredMessage:
    """/exam → pick the paper → Start, as a person would; returns the attempt message."""
    await user.send("/exam")
    await pick_paper(user, paper_title)
    rules = await env.api.wait_for(lambda: rules_card(user.chat()), what="rules card")
    await user.press(rules, "▶️ Start")
    msg = await env.api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")
    await env.idle()
    return msg
