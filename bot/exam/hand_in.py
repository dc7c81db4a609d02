"""Handing an attempt in: closed once, its jobs disarmed, the daily quiz it held back released, and its
result card left to the outbox (bot/exam/cards.py sends it)."""

from __future__ import annotations

from bot import outbox, scheduling
from bot.context import Ctx
from bot.scheduling import JobKind
from proctor.exams import service as attempts
from proctor.exams.states import FinishReason


async def finish_and_report(context: Ctx, attempt_id: int, reason: FinishReason) -> bool:
    """Hand the attempt in (once); its result card is then delivered by the outbox. False if it
    was already closed."""
    svc = context.services
    done = await attempts.finish_attempt(svc.db, attempt_id, svc.now(), reason)
    scheduling.disarm(context.application, JobKind.deadline, attempt_id)
    scheduling.disarm(context.application, JobKind.exam_timer, attempt_id)
    if done is None:
        return False
    await release_daily(context, done[0].user_id)
    outbox.kick(context.application)
    return True


async def release_daily(context: Ctx, user_id: int) -> None:
    """The exam's keys are no longer sealed: a private daily quiz held back for it goes out now
    (daily practice's release job, armed by name: the exam does not import daily practice)."""
    scheduling.once(context.application, JobKind.daily_release, user_id)
