"""A card the outbox sends costs one read and its delivered mark: two round trips to the database.

During a hiring round's deadline burst the outbox sends ~30 cards a second; every hop to aiosqlite's
thread competes with the candidates' answers for the event loop. The candidate's result card
(bot.exam.cards.send_result, or send_result_in_place for an invited attempt: proctor.exams.cards) and the inviting lead's card, first and after a
regrade (bot.invites.cards.send_card: proctor.invite_cards), each read what they render in one
trip. Before, the candidate's card took 4 reads (sheet, preferences, review option, pass mark) and
the lead's 6 (sheet, invite, preferences, may see, signals, name), each plus the mark.

Counted as tests/round_trips.py counts an update's: every call that hops to the thread
(`Connection._execute`), credited to the outbox delivery (`bot.outbox._deliver`) running in the task.
"""

from __future__ import annotations

import asyncio
import contextvars
from dataclasses import dataclass, field

import pytest

from bot import outbox as bot_outbox
from proctor.outbox import Kind
from tests.bot import test_regrade_hiring
from tests.bot.test_invites import ADMIN, CID, DAN, LEAD, finish, make_invite
from tests.bot.test_regrade_hiring import save_key, take_with
from tests.harness import start_exam
from tests.reads import question_ids

# the card's read, then the outbox marks it delivered
CARD_TRIPS = {Kind.result: 2, Kind.result_in_place: 2, Kind.lead_card: 2}
# the regrade tests' fixture: a hiring paper whose first key an admin can fix, Alpha's lead (no
# configured admin) verified for it, so the card's detail depends on the read rule's Visibility of the lead
env = test_regrade_hiring.env


@pytest.fixture
def db_location(tmp_path):
    """A SQLite file only: this module counts the statements of aiosqlite's connection (its trace)."""
    return str(tmp_path / "record.db")


@dataclass
class Delivery:
    kind: Kind
    regraded: bool
    task: asyncio.Task | None
    calls: list[str] = field(default_factory=list)


_NOW: contextvars.ContextVar[Delivery | None] = contextvars.ContextVar("card_delivery", default=None)


def count_deliveries(env, monkeypatch) -> list[Delivery]:
    """Every outbox delivery from now on, with the round trips it took."""
    seen: list[Delivery] = []
    conn = env.db.conn
    original_execute, original_deliver = conn._execute, bot_outbox._deliver

    async def counted(fn, *args, **kwargs):
        d = _NOW.get()
        if d is not None and d.task is asyncio.current_task():
            d.calls.append(getattr(fn, "__name__", repr(fn)))
        return await original_execute(fn, *args, **kwargs)

    async def deliver(app, message):
        d = Delivery(message.kind, "question" in message.payload, asyncio.current_task())
        token = _NOW.set(d)
        try:
            return await original_deliver(app, message)
        finally:
            _NOW.reset(token)
            seen.append(d)

    monkeypatch.setattr(conn, "_execute", counted)
    monkeypatch.setattr(bot_outbox, "_deliver", deliver)
    return seen


async def test_each_card_costs_one_read_and_its_delivered_mark(env, monkeypatch):
    lead, cid, admin = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(ADMIN, "Boss")
    payload, _ = await make_invite(env, lead, "hire 2x")
    await env.idle()
    deliveries = count_deliveries(env, monkeypatch)
    await take_with(env, cid, payload, "C")  # right by the key C
    await cid.wait_message(lambda m: "— result" in (m.text or ""))
    await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
    await save_key(env, admin, (await question_ids(env.db, "hire", "single"))[0], "A")  # now wrong: a new card
    await lead.wait_message(lambda m: "regraded" in (m.text or "") and "📋 Invite #1 finished" in (m.text or ""))
    dan = env.api.user(DAN, "Dan")  # an exam of his own, not invited: his card is posted
    await start_exam(env, dan)
    await finish(env, dan)
    await dan.wait_message(lambda m: "— result" in (m.text or ""))
    await env.idle()

    cards = [(d.kind, d.regraded, len(d.calls)) for d in deliveries if d.kind in CARD_TRIPS]
    assert sorted(cards) == sorted([(Kind.result_in_place, False, CARD_TRIPS[Kind.result_in_place]),
                                    (Kind.lead_card, False, CARD_TRIPS[Kind.lead_card]),
                                    (Kind.lead_card, True, CARD_TRIPS[Kind.lead_card]),
                                    (Kind.result, False, CARD_TRIPS[Kind.result])]), \
        [(d.kind, d.regraded, d.calls) for d in deliveries]
