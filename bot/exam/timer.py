"""The exam header's clock, refreshed by the bot: at 10, 5 and 1 minutes before the deadline the
attempt message is edited in place (its header then shows the time left), and at 5 minutes a
separate warning message is sent, at the pacer's patient level (after replies, before the outbox).

One job per running timed attempt, `exam-timer:<attempt>`, armed for the next checkpoint (its data
says which); each run arms the one after. It is armed with the deadline (start, resume, start-up,
all through jobs.arm_deadline) and disarmed at hand-in. Three edits in an exam stay far inside
Telegram's edit limits. A failed edit or warning is logged and changes nothing else: the
deadline is its own job.
"""

from __future__ import annotations

import logging
from typing import cast

from telegram.error import TelegramError
from telegram.ext import Application

from bank.errors import NotFound
from bot import pacing, scheduling
from bot.context import Ctx
from bot.edits import edit_text
from bot.exam import render
from bot.exam.screen_lock import screen_lock
from bot.i18n import tn
from bot.scheduling import JobKind
from bot.services import services
from bot.userctx import prefs_for
from proctor.exams import service as attempts

log = logging.getLogger(__name__)

CHECKPOINTS = (600, 300, 60)  # seconds before the deadline: the header is refreshed
WARN_AT = 300  # and a warning message goes out


def register(app: Application) -> None:
    scheduling.register(app, JobKind.exam_timer, refresh)


def next_checkpoint(deadline: float, now: float, below: float | None = None) -> float | None:
    """The next checkpoint still ahead (strictly more time left than it), below `below` if given."""
    left = deadline - now
    return next((c for c in CHECKPOINTS if c < left and (below is None or c < below)), None)


def arm(app: Application, attempt_id: int, deadline: float, *, below: float | None = None) -> None:
    """(Re)arm the attempt's next refresh; none when no checkpoint is ahead."""
    now = services(app).now()
    c = next_checkpoint(deadline, now, below)
    if c is None:
        scheduling.disarm(app, JobKind.exam_timer, attempt_id)
        return
    scheduling.once(app, JobKind.exam_timer, attempt_id, deadline - c - now, data=(attempt_id, c))


def disarm(app: Application, attempt_id: int) -> None:
    scheduling.disarm(app, JobKind.exam_timer, attempt_id)


def ensure(app: Application, attempt) -> None:
    """Arm a running timed attempt's refresh if it has none (at /resume)."""
    if attempt.running and attempt.deadline is not None and not scheduling.armed(app, JobKind.exam_timer, attempt.id):
        arm(app, attempt.id, attempt.deadline)


async def refresh(context: Ctx) -> None:
    """A checkpoint: edit the header's time left; at 5 minutes, warn; arm the next checkpoint."""
    attempt_id, checkpoint = cast(tuple[int, float], context.job_data)  # armed by arm() below
    svc = context.services
    async with screen_lock(context, attempt_id):  # read and edited while no card takes its place
        try:
            sheet = await attempts.load_sheet(svc.db, attempt_id)
        except NotFound:
            return
        a = sheet.attempt
        if not a.running or a.deadline is None or a.deadline <= svc.now():
            return  # handed in, or the deadline job's turn
        arm(context.application, attempt_id, a.deadline, below=checkpoint)  # first: a failure below strands nothing
        u = await prefs_for(context, a.user_id)
        if a.message_id:
            text, kb = render.attempt_screen(sheet, u.lang, u.script, svc.now())
            try:
                await edit_text(context.bot, a.chat_id, a.message_id, text, kb)
            except TelegramError as e:
                log.info("attempt %s: could not refresh its clock (%s)", attempt_id, e)
    if checkpoint == WARN_AT:
        minutes = max(1, round((a.deadline - svc.now()) / 60))
        try:  # patient: a round's candidates share a deadline minute, and their warnings must not
            # hold up the next questions of those typing answers (bot/pacing.py)
            await context.bot.send_message(a.chat_id, tn("time_warning", minutes, u.lang),
                                           rate_limit_args=pacing.priority(context.application, pacing.Priority.patient))
        except TelegramError as e:
            log.info("attempt %s: could not send the time warning (%s)", attempt_id, e)
