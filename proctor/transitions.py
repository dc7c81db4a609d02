"""One shape for every state machine of the domain: a table of named moves, each from some states
to one state, and a refusal for any move the table does not list.

Each machine names its moves as functions over this table, so a caller says `finish(status)` rather
than writing a status string, and a test can walk the whole table; a daily delivery, whose moves are
made in SQL from whatever state the row holds (proctor.daily.delivery.move_in), names them as its
`Move` enum and asks the table for their sources and target.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Generic, TypeVar

from proctor.errors import ProctorError

E = TypeVar("E", bound=StrEnum)


class IllegalTransition(ProctorError):
    """A state machine cannot move from its state by that transition."""


class Machine(Generic[E]):
    """Named moves over the states of one StrEnum."""

    def __init__(self, noun: str, moves: Mapping[str, Mapping[E, E]]):
        self.noun = noun
        self.moves = {name: dict(table) for name, table in moves.items()}

    def move(self, name: str, status: E) -> E:
        """The state after move `name` from `status`. Raises IllegalTransition."""
        try:
            return self.moves[name][status]
        except KeyError:
            raise IllegalTransition(f"cannot {name} {self.noun} that is {status.value}") from None

    def sources(self, name: str) -> tuple[E, ...]:
        """The states move `name` may start from."""
        return tuple(self.moves[name])

    def target(self, name: str) -> E:
        """The one state move `name` ends in (for moves whose every source ends in the same state)."""
        (to,) = set(self.moves[name].values())
        return to
