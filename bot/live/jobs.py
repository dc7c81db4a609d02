"""A live round runs as one job per round (`live:<round>`): each run asks the domain what is next
(proctor/live/plan.py), does it, and asks again until the answer is to wait, then arms itself for
that time. The round's state is in SQLite, so a restart re-arms the job and it goes on from there.

Effect first: a poll is counted ('sending') before sendPoll and its poll id recorded right after, so
a crash inside the call posts that question again on restart, once (the daily push's promise); a
crash anywhere else repeats nothing. A 429 waits its retry_after; a 403 (the bot removed from the
group) ends the round; another failure tries the step again in RETRY seconds.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import Message, Poll
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application

from bot import scheduling
from bot.context import Ctx
from bot.edits import edit_text
from bot.live import answering, render
from bot.scheduling import JobKind
from bot.services import Slot, services
from proctor.live import answers, rounds
from proctor.live.model import Item, Round
from proctor.live.plan import Act, closes_late, next_step
from proctor.live.states import RoundStatus
from proctor.transitions import IllegalTransition

log = logging.getLogger(__name__)
T = TypeVar("T")

RETRY = 5.0  # seconds before a step that failed (network, 5xx) is tried again
RETRY_AFTER_ATTEMPTS = 3
RESUME_DELAY = 2.0  # after a restart: the answers Telegram kept while the bot was down come in first
_LOCKS: Slot[dict[int, asyncio.Lock]] = Slot("live_locks", dict)  # round id -> its steps, one at a time


class ChatGone(Exception):
    """The bot may not post in the group any more (403, or the group moved)."""


def lock(app: Application, round_id: int) -> asyncio.Lock:
    return _LOCKS.of(app).setdefault(round_id, asyncio.Lock())


def arm(app: Application, round_id: int, delay: float = 0.0) -> None:
    scheduling.once(app, JobKind.live, round_id, delay)


def _seconds(e: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns that retry_after becomes a timedelta; take either
        warnings.simplefilter("ignore", DeprecationWarning)
        value = e.retry_after
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


async def call(chat_id: int, make: Callable[[], Awaitable[T]]) -> T:
    """One Bot API call to the group: a 429 waits its retry_after and tries again; a 403 raises ChatGone."""
    for attempt in range(RETRY_AFTER_ATTEMPTS + 1):
        try:
            return await make()
        except RetryAfter as e:
            if attempt == RETRY_AFTER_ATTEMPTS:
                raise
            log.info("live round in chat %s: 429, retrying after %ss", chat_id, _seconds(e))
            await asyncio.sleep(_seconds(e))
        except Forbidden as e:
            raise ChatGone(str(e)) from e
        except ChatMigrated as e:
            raise ChatGone(f"migrated to {e.new_chat_id}") from e
    raise AssertionError("unreachable")


async def _send(app: Application, chat_id: int, text: str) -> Message:
    return await call(chat_id, lambda: app.bot.send_message(chat_id, text))


async def step_job(context: Ctx) -> None:
    """The round's job: do what is due, then wait for the next thing."""
    await run(context.application, context.job_key)


async def run(app: Application, round_id: int) -> None:
    """Do every step of the round that is due now, then arm the job for the next one."""
    svc = services(app)
    async with lock(app, round_id):
        while True:
            now = svc.now()
            r, items = await rounds.load(svc.db, round_id)
            nxt = next_step(r, items, now)
            try:
                match nxt.act:
                    case Act.wait:
                        assert nxt.at is not None
                        arm(app, round_id, nxt.at - now)
                        return
                    case Act.done:
                        _LOCKS.of(app).pop(round_id, None)
                        answering.forget_round(app, round_id)
                        return
                    case Act.announce:
                        await rounds.announce(svc.db, round_id)
                        await _send(app, r.chat_id, render.countdown(r, r.starts_at - now))
                    case Act.begin:
                        await rounds.begin(svc.db, round_id)
                    case Act.send:
                        assert nxt.pos is not None
                        await _post(app, r, items[nxt.pos], len(items))
                    case Act.close:
                        assert nxt.pos is not None
                        await _close(app, r, items[nxt.pos], now)
                    case Act.finish:
                        await rounds.finish(svc.db, round_id, now)
                    case Act.podium:
                        await _podium(app, r)
            except ChatGone as e:
                log.warning("live round %s: cannot post in chat %s (%s): round ended", round_id, r.chat_id, e)
                if r.running:
                    await rounds.lose(svc.db, round_id, svc.now())
                return
            except IllegalTransition:  # a /live stop moved the round meanwhile: look again
                continue
            except TelegramError as e:
                log.warning("live round %s: %s failed (%s); trying again in %ss", round_id, nxt.act, e, RETRY)
                arm(app, round_id, RETRY)
                return


async def _post(app: Application, r: Round, item: Item, total: int) -> None:
    """Post question `item` as a quiz poll, counted before the call, its poll id recorded after; a
    question the group may not read now (a member began an exam on it) is closed unasked."""
    svc = services(app)
    q = await rounds.sending(svc.db, r.id, item.pos, svc.now())
    if q is None:
        log.info("live round %s: question %s may not be posted in the group now: skipped", r.id, item.question_id)
        return
    p = render.poll(q, item, total, r.lang, r.script)

    def send() -> Awaitable[Message]:
        return app.bot.send_poll(
            r.chat_id, p.question, p.options, is_anonymous=False, type=Poll.QUIZ,
            allows_multiple_answers=item.multiple, correct_option_ids=sorted(item.correct),
            explanation=p.explanation, open_period=r.seconds, protect_content=True)

    try:
        message = await call(r.chat_id, send)
    except BadRequest as e:  # Telegram refused this question's poll: skip it, go on with the next
        log.warning("live round %s: question %s refused (%s): skipped", r.id, item.question_id, e)
        await rounds.close_item(svc.db, r.id, item.pos, svc.now())
        return
    assert message.poll is not None, "sendPoll answers with the poll"
    await rounds.opened(svc.db, r.id, item.pos, message.poll.id, message.message_id, svc.now(), r.seconds)


async def stop_poll(app: Application, chat_id: int, message_id: int) -> None:
    """Close a poll now; one already closed (Telegram's own timer) is no error."""
    try:
        await call(chat_id, lambda: app.bot.stop_poll(chat_id, message_id))
    except BadRequest as e:
        log.info("poll %s in chat %s: %s", message_id, chat_id, e)


async def _close(app: Application, r: Round, item: Item, now: float) -> None:
    """The poll's time is over: close it (stopPoll if the bot is late, as after a restart) and
    edit the standings, or post them after the first question."""
    svc = services(app)
    if closes_late(item, now) and item.message_id is not None:
        await stop_poll(app, r.chat_id, item.message_id)
    await rounds.close_item(svc.db, r.id, item.pos, now)
    text = render.standings(r, item.pos + 1, await answers.standings(svc.db, r.id, render.STANDINGS_TOP))
    if r.standings_id is not None:
        try:
            await call(r.chat_id, lambda: edit_text(app.bot, r.chat_id, r.standings_id or 0, text))
            return
        except BadRequest as e:  # deleted by an admin: post it anew below
            log.info("live round %s: standings not edited (%s)", r.id, e)
    message = await _send(app, r.chat_id, text)
    await rounds.set_standings(svc.db, r.id, message.message_id)


async def _podium(app: Application, r: Round) -> None:
    svc = services(app)
    st = await answers.standings(svc.db, r.id, 3)
    await _send(app, r.chat_id, render.podium(r, st, r.status == RoundStatus.stopped))
    await rounds.podium_posted(svc.db, r.id)


def recover(app: Application, round_ids: list[int]) -> None:
    """Start-up: every unfinished round goes on, a moment after the bot starts fetching updates."""
    for round_id in round_ids:
        arm(app, round_id, RESUME_DELAY)
