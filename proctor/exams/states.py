"""An attempt's states, its modes and its paper's grading method, and the moves between states."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from bank.kinds import GradingMethod as GradingMethod  # the paper's enums, named here too
from bank.kinds import MultiPolicy as MultiPolicy
from proctor.transitions import Machine


class AttemptStatus(StrEnum):
    running = "running"  # questions are being answered
    finished = "finished"  # handed in (submitted, or its time ran out): scored
    cancelled = "cancelled"  # given up: no score, but it counts as a seen paper


class AttemptMode(StrEnum):
    exam = "exam"  # timed when the paper says so, keys after the hand-in, counts toward the limit
    practice = "practice"  # untimed, feedback at once


class FinishReason(StrEnum):
    submitted = "submitted"
    timeout = "timeout"
    cancelled = "cancelled"


S = AttemptStatus
MACHINE: Machine[AttemptStatus] = Machine("an attempt", {
    "finish": {S.running: S.finished},  # handed in: submitted or timed out
    "cancel": {S.running: S.cancelled},
})


def finish(status: AttemptStatus) -> AttemptStatus:
    return MACHINE.move("finish", status)


def cancel(status: AttemptStatus) -> AttemptStatus:
    return MACHINE.move("cancel", status)


def closing_move(reason: FinishReason) -> Callable[[AttemptStatus], AttemptStatus]:
    """The move that ends an attempt for this finish reason."""
    match reason:
        case FinishReason.cancelled:
            return cancel
        case FinishReason.submitted | FinishReason.timeout:
            return finish


def accepts_answers(status: AttemptStatus) -> bool:
    return status == S.running
