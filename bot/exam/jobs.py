"""Deadline jobs: one APScheduler job per timed attempt, rebuilt from the database at start-up."""

from __future__ import annotations

import logging

from telegram.ext import Application

from bank.errors import NotFound
from bot import scheduling
from bot.context import Ctx
from bot.exam import timer
from bot.exam.hand_in import finish_and_report
from bot.scheduling import JobKind
from bot.services import services
from proctor.exams import service as attempts
from proctor.exams.deadline import GRACE, hand_in_at, hand_in_due
from proctor.exams.states import FinishReason

log = logging.getLogger(__name__)


def register(app: Application) -> None:
    scheduling.register(app, JobKind.deadline, deadline_reached)
    timer.register(app)


# attempts that expired while no bot ran are handed in this far apart after the start: the hand-ins of a
# round's deadline minute come about as far apart (bench/bench_failover.py), and the answers handled at
# the same time wait for one hand-in at most, not for all of them
START_SPACING = 0.1


def arm_deadline(app: Application, attempt_id: int, deadline: float, *, later: float = 0.0) -> None:
    """(Re)schedule the attempt's hand-in: a grace after its deadline, for answers sent in time
    (proctor/exams/deadline.py), and `later` seconds more; the stable name replaces an older job."""
    now = services(app).now()
    scheduling.once(app, JobKind.deadline, attempt_id, hand_in_at(deadline, now) - now + later)
    timer.arm(app, attempt_id, deadline)  # the header's clock refreshes with it


def disarm_deadline(app: Application, attempt_id: int) -> None:
    scheduling.disarm(app, JobKind.deadline, attempt_id)
    timer.disarm(app, attempt_id)


async def deadline_reached(context: Ctx) -> None:
    """Hand in an attempt whose time is up, even if the candidate is idle."""
    attempt_id = context.job_key
    svc = context.services
    try:
        attempt = await attempts.get_attempt(svc.db, attempt_id)
    except NotFound:  # the user deleted their data (/forgetme) while the exam was running
        return
    if not attempt.running:
        return
    if attempt.deadline is not None and not hand_in_due(attempt.deadline, svc.now()):
        arm_deadline(context.application, attempt_id, attempt.deadline)  # the clock moved back: wait
        return
    await finish_and_report(context, attempt_id, FinishReason.timeout)


def ensure_deadline(app: Application, attempt) -> None:
    """Arm a running timed attempt's deadline if it has no job (say an earlier arming was lost)."""
    if attempt.running and attempt.deadline is not None and not scheduling.armed(app, JobKind.deadline, attempt.id):
        log.warning("attempt %s had no deadline job: re-armed", attempt.id)
        arm_deadline(app, attempt.id, attempt.deadline)
    else:
        timer.ensure(app, attempt)


async def recover(app: Application) -> None:
    """At start-up: arm every timed running attempt's deadline. One that expired while no bot ran is
    handed in a grace after the start, once the answers Telegram kept for the bot are handled (a typed
    one sent in time counts: proctor/exams/deadline.py); its result goes to the outbox then. Nothing
    here talks to Telegram."""
    svc = services(app)
    expired = 0
    for a in await attempts.timed_running(svc.db):
        if a.deadline is None:  # timed: never
            continue
        if a.deadline > svc.now():
            arm_deadline(app, a.id, a.deadline)
            continue
        later = expired * START_SPACING
        expired += 1
        log.info("attempt %s expired while the bot was down: handed in in %.1f s", a.id, GRACE + later)
        arm_deadline(app, a.id, a.deadline, later=later)
