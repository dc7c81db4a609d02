"""Create-or-resume the day's delivery for a chat: choose the set once, then reuse it."""

from __future__ import annotations

import json
import random
from datetime import date

from bank.kinds import Kind
from bank.matching_answer import shown_count
from bank.option_order import OptionOrder
from proctor.daily.candidates import CandidatePool
from proctor.daily.delivery import Delivery, create_delivery, find_delivery
from proctor.daily.selection import choose_set
from proctor.storage.db import Database


async def create_or_resume(db: Database, chat_id: int, private: bool, day: date, n: int,
                           closes_at: float, now: float, *, shuffle: bool = True,
                           pool: CandidatePool | None = None) -> tuple[Delivery, bool]:
    """The chat's delivery for `day`: the existing one, or a new one with a fresh set (from `pool`,
    the running bot's, or read anew).

    Returns (delivery, created). Raises EmptyBank if nothing may be asked.
    """
    existing = await find_delivery(db, chat_id, day)
    if existing is not None:
        return existing, False
    # the same chat and day draw the same set, so a retried creation is reproducible
    rng = random.Random(f"{chat_id}:{day.isoformat()}")
    ids = await choose_set(db, chat_id, chat_id if private else None, n, now, rng, pool)
    orders = await _orders(db, ids, rng, shuffle)
    return await create_delivery(db, chat_id, day, ids, orders, closes_at, now)


async def _orders(db: Database, ids: list[int], rng: random.Random, shuffle: bool) -> list[str]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = await db.fetchall(
        f"""SELECT q.id, q.kind, q.options, q.answer, p.shuffle_options, c.pinned FROM questions q
            JOIN papers p ON p.id = q.paper_id LEFT JOIN question_checks c ON c.question_id = q.id
            WHERE q.id IN ({marks})""", ids)
    info = {r["id"]: (shown_count(Kind(r["kind"]), json.loads(r["options"]), json.loads(r["answer"])),
                      bool(r["shuffle_options"]), json.loads(r["pinned"] or "[]"))
            for r in rows}
    return [OptionOrder.draw(info[q][0], info[q][2], rng, shuffle and info[q][1]).order for q in ids]
