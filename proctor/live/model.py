"""A live round and its questions as stored (migration 030), read in one place."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bank.kinds import MultiPolicy
from bank.paper_settings import policy_of
from proctor.live.states import ENDED, RUNNING, ItemStatus, RoundStatus


@dataclass(frozen=True, slots=True)
class Round:
    id: int
    chat_id: int
    lead_id: int
    status: RoundStatus
    questions: int
    seconds: int
    lang: str  # the group's when the round started, as the catalogue takes it ("en", "zh", "zh-Hant")
    script: str
    created_at: float
    starts_at: float
    announced: bool
    standings_id: int | None
    ended_at: float | None
    podium_posted: bool

    @property
    def running(self) -> bool:
        return self.status in RUNNING

    @property
    def ended(self) -> bool:
        return self.status in ENDED


@dataclass(frozen=True, slots=True)
class Item:
    round_id: int
    pos: int
    question_id: int
    option_order: str
    correct: frozenset[int]
    multiple: bool
    policy: MultiPolicy
    status: ItemStatus
    poll_id: str | None
    message_id: int | None
    posted_at: float | None
    closes_at: float | None
    closed_at: float | None


@dataclass(frozen=True, slots=True)
class Drawn:
    """A question drawn for a round: how its poll shows it and which shown options are right."""

    question_id: int
    option_order: str
    correct: tuple[int, ...]
    multiple: bool
    policy: MultiPolicy


ROUND_COLUMNS = ("id, chat_id, lead_id, status, questions, seconds, lang, script, created_at, starts_at, "
                 "announced, standings_id, ended_at, podium_posted")
ITEM_COLUMNS = ("round_id, pos, question_id, option_order, correct, multiple, policy, status, poll_id, "
                "message_id, posted_at, closes_at, closed_at")


def round_of(r: sqlite3.Row) -> Round:
    return Round(id=r["id"], chat_id=r["chat_id"], lead_id=r["lead_id"], status=RoundStatus(r["status"]),
                 questions=r["questions"], seconds=r["seconds"], lang=r["lang"], script=r["script"],
                 created_at=r["created_at"], starts_at=r["starts_at"], announced=bool(r["announced"]),
                 standings_id=r["standings_id"], ended_at=r["ended_at"], podium_posted=bool(r["podium_posted"]))


def item_of(r: sqlite3.Row) -> Item:
    return Item(round_id=r["round_id"], pos=r["pos"], question_id=r["question_id"],
                option_order=r["option_order"], correct=frozenset(json.loads(r["correct"])),
                multiple=bool(r["multiple"]), policy=policy_of(r["policy"]), status=ItemStatus(r["status"]),
                poll_id=r["poll_id"], message_id=r["message_id"], posted_at=r["posted_at"],
                closes_at=r["closes_at"], closed_at=r["closed_at"])
