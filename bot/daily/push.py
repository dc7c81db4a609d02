"""Sending the day's quiz: create-or-resume a delivery, send what is still unsent, close it once.

Each send is paced (one message a second per chat), a 429 is retried after its retry_after, and
a 403 turns the chat's subscription off. A send is counted before the call and the message's id
recorded right after it, so a push that stopped halfway (crash, network error) resumes with
exactly the messages still missing; one that stopped inside a call may repeat that one message,
whose copies then both accept answers (proctor.daily.delivery).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from telegram import InlineKeyboardMarkup, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.ext import Application

from bank.paper_store import get_questions
from bot import pacing, scheduling
from bot.daily import render
from bot.daily.locks import chat_lock
from bot.edits import edit_text
from bot.scheduling import JobKind
from bot.services import Slot, services
from bot.voice import Voice, chat_voice, of_prefs
from proctor.chats import chat_zone
from proctor.daily import answers as answer_store
from proctor.daily import delivery as dstore
from proctor.daily import private_next
from proctor.daily import subscriptions as subs
from proctor.daily.plan import create_or_resume
from proctor.daily.schedule import Schedule, closes_at, next_fire
from proctor.daily.states import DeliveryStatus
from proctor.daily.streaks import streaks
from proctor.exams.seal import sealed_for
from proctor.exams.visibility import AUDIENCE, lens
from proctor.local_time import moment, parse_hhmm, parse_timezone

log = logging.getLogger(__name__)

CHAT_INTERVAL = 1.0  # seconds between two messages to one chat (Telegram: about one per second)
# chats pushed at once: enough to keep the 30 msg/s limit busy, few enough that the first messages
# go out while the rest are still being prepared (3,000 chats fire at 09:00 together)
PUSH_CONCURRENCY = 64
RETRY_AFTER_ATTEMPTS = 3  # after the rate limiter's own retries


class ChatGone(Exception):
    """The bot may not post in the chat any more (blocked, or removed from the group)."""


class _Pacer:
    """Keeps at least `interval` seconds between two sends to the same chat."""

    def __init__(self, interval: float):
        self.interval = interval
        self.last: dict[int, float] = {}

    async def wait(self, chat_id: int) -> None:
        loop = asyncio.get_running_loop()
        wait = self.last.get(chat_id, -1e9) + self.interval - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last[chat_id] = loop.time()
        if len(self.last) > 10_000:
            cutoff = loop.time() - self.interval
            self.last = {k: v for k, v in self.last.items() if v >= cutoff}


@dataclass
class _Pushing:
    """The pushes' pacing (this process only; what was sent is in SQLite; the chats' locks: locks.py)."""

    pacer: _Pacer = field(default_factory=lambda: _Pacer(CHAT_INTERVAL))
    slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(PUSH_CONCURRENCY))


_STATE: Slot[_Pushing] = Slot("daily", _Pushing)


def pacer(app: Application) -> _Pacer:
    return _STATE.of(app).pacer


def push_slots(app: Application) -> asyncio.Semaphore:
    return _STATE.of(app).slots


def default_schedule(app: Application) -> Schedule:
    settings = services(app).settings
    return Schedule(parse_hhmm(settings.daily_time), parse_timezone(settings.timezone))


async def schedule_for(app: Application, chat_id: int) -> tuple[Schedule, int]:
    """The chat's schedule and question count (the defaults when it has no subscription)."""
    svc = services(app)
    sub = await subs.get_subscription(svc.db, chat_id)
    if sub is not None:
        return sub.schedule(), sub.questions
    base = default_schedule(app)
    tz = await chat_zone(svc.db, chat_id, svc.settings.timezone)  # one zone rule: proctor/chats.py
    return Schedule(base.at_time, tz), svc.settings.daily_questions


async def prefs(app: Application, chat_id: int, private: bool) -> Voice:
    """The voice of messages to this chat (bot/voice.py): the user's own in private, the group's in groups."""
    return await chat_voice(app, chat_id, private)


async def send(app: Application, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
               reply_to: int | None = None) -> Message:
    """Send one message to a chat, paced; a 429 is retried after its retry_after.

    Raises ChatGone on 403 (the caller turns the chat off); other errors propagate.
    """
    for attempt in range(RETRY_AFTER_ATTEMPTS + 1):
        await pacer(app).wait(chat_id)
        try:
            return await app.bot.send_message(chat_id, text, reply_markup=markup,
                                              reply_to_message_id=reply_to,
                                              allow_sending_without_reply=True)
        except RetryAfter as e:
            if attempt == RETRY_AFTER_ATTEMPTS:
                raise
            delay = pacing.seconds(e.retry_after)
            log.info("chat %s: 429, retrying after %ss", chat_id, delay)
            await asyncio.sleep(float(delay))
        except Forbidden as e:
            raise ChatGone(str(e)) from e
        except ChatMigrated as e:
            raise ChatGone(f"migrated to {e.new_chat_id}") from e
    raise AssertionError("unreachable")




def arm_close(app: Application, delivery: dstore.Delivery) -> None:
    """(Re)schedule the close of an open quiz at its closes_at (a delay from the bot's clock); the
    close job itself is bot/daily/jobs.py's, handed to bot/scheduling.py at registration."""
    scheduling.once(app, JobKind.daily_close, delivery.id, delivery.closes_at - services(app).now())


async def turn_off(app: Application, chat_id: int, why: str, delivery_id: int | None = None) -> None:
    """The bot may not post here: turn the subscription off, keep why, stop its job."""
    svc = services(app)
    await subs.unsubscribe(svc.db, chat_id, None, svc.now(), reason=subs.off_reason(chat_id))
    if delivery_id is not None:
        await dstore.mark_failed(svc.db, delivery_id)
    scheduling.disarm(app, JobKind.daily_push, chat_id)
    log.warning("chat %s: cannot post (%s): daily quiz turned off", chat_id, why)


async def views(app: Application, delivery: dstore.Delivery) -> list[render.View]:
    items = await dstore.items(services(app).db, delivery.id)
    questions = await get_questions(services(app).db, [i.question_id for i in items])
    return [render.View(questions[i.question_id], delivery.id, i.pos, len(items), i.option_order) for i in items]


async def push_day(app: Application, chat_id: int, private: bool, day: date) -> dstore.Delivery:
    """Create-or-resume the chat's quiz for `day` and send what is unsent. Never sends twice.

    Raises EmptyBank when nothing may be asked.
    """
    svc = services(app)
    async with push_slots(app), chat_lock(app, chat_id):
        schedule, n = await schedule_for(app, chat_id)
        now = svc.now()
        delivery, created = await create_or_resume(
            svc.db, chat_id, private, day, n, closes_at(schedule, day, now), now,
            shuffle=svc.settings.shuffle_options, pool=svc.candidates)
        if created:
            log.info("chat %s: daily quiz for %s created (%s)", chat_id, day, delivery.id)
        elif delivery.state == DeliveryStatus.failed and await dstore.retry_failed(svc.db, delivery.id):
            # the bot may post here again (the chat turned the quiz back on): finish today's
            delivery = await dstore.get_delivery(svc.db, delivery.id)
        if delivery.accepts_answers:
            arm_close(app, delivery)
            await send_unsent(app, delivery)
    return await dstore.get_delivery(svc.db, delivery.id)


async def resume(app: Application, delivery_id: int) -> None:
    """Send what a delivery still lacks (after a crash or a network error)."""
    svc = services(app)
    delivery = await dstore.get_delivery(svc.db, delivery_id)
    async with chat_lock(app, delivery.chat_id):
        delivery = await dstore.get_delivery(svc.db, delivery_id)
        if delivery.accepts_answers:
            await send_unsent(app, delivery)


async def send_unsent(app: Application, delivery: dstore.Delivery) -> None:
    """Group: every unsent item. Private: the next unanswered item, if it is unsent. Call under the lock."""
    svc = services(app)
    if delivery.private:  # which one, counted as sending, in one round trip (proctor/daily/private_next.py)
        after = await svc.db.run_write(lambda conn: private_next.next_in(conn, delivery, summary=False))
        if isinstance(after, private_next.Held):
            log.info("chat %s: the next daily question waits for the user's exam", delivery.chat_id)
        elif isinstance(after, private_next.Ask):
            await send_asked(app, delivery, after)
        return
    there = await prefs(app, delivery.chat_id, delivery.private)
    lang, script = there.lang, there.script
    all_views = await views(app, delivery)
    items = {i.pos: i for i in await dstore.items(svc.db, delivery.id)}
    todo = [v for v in all_views if items[v.pos].message_id is None]
    sent: tuple[int, int] | None = None  # the question just sent, its id written in the next trip
    for v in todo:
        count = await dstore.hand_over(svc.db, delivery.id, sent, v.pos, svc.now())
        text = render.question_text(v, lang, script, private=False, count=count)
        try:
            msg = await send(app, delivery.chat_id, text, render.question_keyboard(v, lang))
        except ChatGone as e:
            if sent is not None:
                await dstore.mark_sent(svc.db, delivery.id, *sent, svc.now())
            await turn_off(app, delivery.chat_id, str(e), delivery.id)
            return
        sent = (v.pos, msg.message_id)
    await dstore.hand_over(svc.db, delivery.id, sent, None, svc.now())


async def send_asked(app: Application, delivery: dstore.Delivery, ask: private_next.Ask) -> None:
    """Send a private quiz's next question, counted as sending already (private_next.next_in); its
    message id is written right after (with the delivery open). A crash in between sends it again."""
    svc = services(app)
    mine = of_prefs(app, ask.prefs)  # a private quiz: its person's voice
    lang, script = mine.lang, mine.script
    view = render.View(ask.question, delivery.id, ask.item.pos, ask.total, ask.item.option_order)
    text = render.question_text(view, lang, script, private=True, count=None)
    try:
        msg = await send(app, delivery.chat_id, text, render.question_keyboard(view, lang))
    except ChatGone as e:
        await turn_off(app, delivery.chat_id, str(e), delivery.id)
        return
    await dstore.mark_sent_and_open(svc.db, delivery.id, ask.item.pos, msg.message_id, svc.now())


async def held(app: Application, delivery: dstore.Delivery) -> bool:
    """Whether a private quiz's next question waits for the user's exam to be handed in."""
    svc = services(app)
    if not delivery.private or not delivery.accepts_answers:
        return False
    answered = {a.pos for a in await answer_store.user_answers(svc.db, delivery.id, delivery.chat_id)}
    waiting = next((i for i in await dstore.items(svc.db, delivery.id) if i.pos not in answered), None)
    return (waiting is not None and waiting.message_id is None
            and (await sealed_for(svc.db, delivery.chat_id)).covers(waiting.question_id))


async def close(app: Application, delivery_id: int) -> None:
    """Close the day's quiz once: stop answers; in a group post the keys and the day's top."""
    svc = services(app)
    delivery = await dstore.get_delivery(svc.db, delivery_id)
    async with chat_lock(app, delivery.chat_id):
        delivery = await dstore.get_delivery(svc.db, delivery_id)
        if delivery.accepts_answers:
            if delivery.closes_at > svc.now():
                arm_close(app, delivery)  # not yet (the clock moved back): wait
                return
            await dstore.claim_close(svc.db, delivery.id)
        elif delivery.state != DeliveryStatus.keys_pending:
            return
        if not delivery.private:
            try:
                await send(app, delivery.chat_id, await close_message(app, delivery))
            except ChatGone as e:
                await turn_off(app, delivery.chat_id, str(e))
        await dstore.mark_keys_posted(svc.db, delivery.id, svc.now())
        log.info("chat %s: daily quiz %s closed", delivery.chat_id, delivery.day)


async def close_message(app: Application, delivery: dstore.Delivery) -> str:
    svc = services(app)
    there = await prefs(app, delivery.chat_id, False)
    lang, script = there.lang, there.script
    top = await answer_store.standings(svc.db, delivery.id)
    runs = await streaks(svc.db, delivery.chat_id, [s.user_id for s in top[:10]], delivery.day)
    # everyone in the group reads the keys (the read rule's audience): none of a question a known
    # member's running exam seals
    seen = await lens(svc.db, AUDIENCE, delivery.chat_id)
    return render.close_text(delivery.day, await views(app, delivery), top, runs, lang, script, sealed=seen.sealed)


def summary_text(app: Application, summary: private_next.Summary, lang: str) -> str:
    """The private quiz's summary: answers, streak and when the next quiz comes."""
    sub, next_at = summary.subscription, None
    if sub is not None and sub.enabled:
        sch = sub.schedule()
        now = datetime.fromtimestamp(services(app).now(), UTC)
        next_at = moment(next_fire(sch.at_time, sch.tz, now), sch.tz)
    return render.private_summary(summary.answers, summary.total, summary.streak, lang, next_at)


async def safe_edit(app: Application, chat_id: int, message_id: int, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> None:
    """Edit a message; 'not modified' and vanished messages are not errors here."""
    try:
        await edit_text(app.bot, chat_id, message_id, text, markup)
    except (BadRequest, Forbidden) as e:
        log.info("chat %s: could not edit message %s: %s", chat_id, message_id, e)
