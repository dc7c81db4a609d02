"""Every state machine of the domain: each named move walked from every state, the legal ones to
their target, the rest refused with IllegalTransition."""

from __future__ import annotations

import pytest

from proctor.daily import states as daily
from proctor.daily.states import DeliveryStatus as D
from proctor.daily.states import Move
from proctor.exams import states as exams
from proctor.exams.states import AttemptStatus as A
from proctor.invites import states as invites
from proctor.invites.states import InviteStatus as I
from proctor.live import states as live
from proctor.live.states import ItemStatus as LI
from proctor.live.states import RoundStatus as LR
from proctor.teams import roster
from proctor.teams.roster import Standing as R
from proctor.transitions import IllegalTransition


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

ATTEMPT = {
    exams.finish: {A.running: A.finished},
    exams.cancel: {A.running: A.cancelled},
}


def _delivery_move(move: Move):
    """A delivery's move as its SQL makes it (proctor.daily.delivery.move_in): by name, in its table."""
    def moved(status: D) -> D:
        return daily.MACHINE.move(move, status)

    moved.__name__ = move.value
    return moved


DELIVERY = {
    _delivery_move(Move.start_sending): {D.pending: D.sending},
    _delivery_move(Move.open): {D.pending: D.open, D.sending: D.open},
    _delivery_move(Move.close): {D.pending: D.keys_pending, D.sending: D.keys_pending, D.open: D.keys_pending},
    _delivery_move(Move.post_keys): {D.keys_pending: D.closed},
    _delivery_move(Move.fail): {D.pending: D.failed, D.sending: D.failed, D.open: D.failed},
    _delivery_move(Move.retry): {D.failed: D.pending},
}

INVITE = {
    invites.claim: {I.open: I.claimed},
    invites.start: {I.claimed: I.started, I.finished: I.started},
    invites.finish: {I.started: I.finished},
    invites.revoke: {I.open: I.revoked, I.claimed: I.revoked},
    invites.resend: {I.open: I.open, I.claimed: I.claimed},
}

LIVE_ROUND = {
    live.begin: {LR.countdown: LR.asking},
    live.finish: {LR.asking: LR.finished},
    live.stop: {LR.countdown: LR.stopped, LR.asking: LR.stopped},
    live.lose: {LR.countdown: LR.gone, LR.asking: LR.gone},
}

LIVE_ITEM = {
    live.send: {LI.pending: LI.sending, LI.sending: LI.sending},
    live.open_: {LI.sending: LI.open},
    live.close: {LI.pending: LI.closed, LI.sending: LI.closed, LI.open: LI.closed},
}

ROSTER = {
    roster.accept_move: {R.asked: R.joined},
    roster.consent_move: {R.invited: R.joined},
}


@pytest.mark.parametrize(("enum", "table"), [(A, ATTEMPT), (D, DELIVERY), (I, INVITE), (R, ROSTER),
                                              (LR, LIVE_ROUND), (LI, LIVE_ITEM)],
                         ids=["attempt", "delivery", "invite", "roster", "live-round", "live-item"])
def test_every_move_from_every_state(enum, table):
    for move, legal in table.items():
        for state in enum:
            if state in legal:
                assert move(state) == legal[state], (move.__name__, state)
            else:
                with pytest.raises(IllegalTransition):
                    move(state)


@pytest.mark.parametrize(("machine", "table"), [(exams.MACHINE, ATTEMPT), (daily.MACHINE, DELIVERY),
                                                (invites.MACHINE, INVITE), (roster.MACHINE, ROSTER),
                                                (live.ROUND, LIVE_ROUND), (live.ITEM, LIVE_ITEM)],
                         ids=["attempt", "delivery", "invite", "roster", "live-round", "live-item"])
def test_the_tables_list_no_move_the_test_does_not_walk(machine, table):
    assert len(machine.moves) == len(table)
    assert {frozenset(m.items()) for m in machine.moves.values()} == {frozenset(t.items()) for t in table.values()}


def test_terminal_states_have_no_way_out():
    assert all(A.finished not in t and A.cancelled not in t for t in exams.MACHINE.moves.values())
    assert all(D.closed not in t for t in daily.MACHINE.moves.values())
    assert all(s not in t for s in live.ENDED for t in live.ROUND.moves.values())
    assert all(LI.closed not in t for t in live.ITEM.moves.values())


def test_only_a_running_attempt_and_an_unfinished_delivery_take_answers():
    assert [s for s in A if exams.accepts_answers(s)] == [A.running]
    assert [s for s in D if daily.accepts_answers(s)] == [D.pending, D.sending, D.open]


def test_keys_pending_is_the_closed_row_without_closed_at():
    assert daily.effective("closed", None) == D.keys_pending
    assert daily.effective("closed", 5.0) == D.closed
    assert daily.effective("open", None) == D.open
    assert daily.stored(D.keys_pending) == "closed" and daily.stored(D.failed) == "failed"
    for s in D:  # every state survives the round trip through the row
        assert daily.effective(daily.stored(s), 5.0 if s == D.closed else None) == s


def test_an_attempt_closes_by_the_move_its_reason_names():
    assert exams.closing_move("cancelled") is exams.cancel
    assert exams.closing_move("submitted") is exams.closing_move("timeout") is exams.finish


# ---- the stored moves: the database refuses what the table refuses ------------------------------

async def test_a_stored_delivery_walks_its_machine(db):
    from datetime import date

    from proctor.daily import delivery as dstore
    from proctor.daily import subscriptions as subs
    from proctor.daily.plan import create_or_resume
    from tests.papers_fixture import save_paper, small_paper

    now = 1_800_000_000.0
    await save_paper(db, small_paper("demo"), now)
    await subs.ensure_chat(db, -100, "supergroup", "Team", now)
    d, _ = await create_or_resume(db, -100, False, date(2027, 1, 15), 3, now + 86400, now)

    async def state():
        return (await dstore.get_delivery(db, d.id)).state

    def moved(move: Move):  # as a push's sends make them (dstore.move_in, inside hand_over and next_in)
        async def make(db, delivery_id):
            return await db.run_write(lambda conn: dstore.move_in(conn, delivery_id, move))
        return make

    start_sending, mark_open = moved(Move.start_sending), moved(Move.open)

    assert await state() == D.pending
    assert not await dstore.retry_failed(db, d.id)  # only a failed one retries
    assert await start_sending(db, d.id) and await state() == D.sending
    assert not await start_sending(db, d.id)
    assert await mark_open(db, d.id) and await state() == D.open
    assert await dstore.mark_failed(db, d.id) and await state() == D.failed
    assert not await mark_open(db, d.id) and not await dstore.claim_close(db, d.id)
    assert await dstore.retry_failed(db, d.id) and await state() == D.pending
    assert await dstore.claim_close(db, d.id) and await state() == D.keys_pending
    assert not await dstore.claim_close(db, d.id)  # closed once: one caller posts the keys
    assert not (await dstore.get_delivery(db, d.id)).accepts_answers
    assert [x.id for x in await dstore.unfinished(db)] == [d.id]  # start-up posts the keys
    await dstore.mark_keys_posted(db, d.id, now + 5)
    assert await state() == D.closed and await dstore.unfinished(db) == []
    for move in (start_sending, mark_open, dstore.mark_failed, dstore.retry_failed,
                 dstore.claim_close):
        assert not await move(db, d.id)
    assert await state() == D.closed


async def test_a_stored_attempt_closes_once(db):
    from proctor.exams import service as attempts
    from tests.papers_fixture import save_paper, small_paper

    pid = await save_paper(db, small_paper("demo"), 0.0)
    from proctor.people.users import ensure_user

    await ensure_user(db, 7, "Ann", None, 0)
    a = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="exam", now=1.0, shuffle=False)
    assert a.status == A.running and a.mode == exams.AttemptMode.exam
    done = await attempts.finish_attempt(db, a.id, 2.0, "submitted")
    assert done is not None and done[0].status == A.finished
    assert await attempts.finish_attempt(db, a.id, 3.0, "cancelled") is None  # finished is terminal
    b = await attempts.start_attempt(db, user_id=7, chat_id=7, paper_id=pid, mode="practice", now=4.0, shuffle=False)
    assert (await attempts.finish_attempt(db, b.id, 5.0, "cancelled"))[0].status == A.cancelled
    assert await attempts.finish_attempt(db, b.id, 6.0, "submitted") is None
