"""An outbox message costs one token at the pacer (bot/pacing.py, bot/outbox.py): the lane waits for
the message's bulk turn before its sender renders it and hands the sender the `Turn`; the sender
passes it as `rate_limit_args`, so its send uses the token already taken. A sender that forgot it
would send as a reply: a second token, taken ahead of the replies' reserve.

Counted at the real pacer (its `turn`, watched, not replaced: every token it grants is a turn some
request waited for) while the real Application delivers each kind through the fake Bot API."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot import outbox as bot_outbox
from bot import pacing
from bot.pacing import Pacer, Priority, Turn
from proctor.outbox import Kind
from sandbox.fakeapi import ApiError
from tests.bot import test_regrade_hiring
from tests.bot.test_invites import (
    ADMIN,
    ALPHA,
    CID,
    DAN,
    LEAD,
    finish,
    make_invite,
    open_link,
    take,
)
from tests.bot.test_regrade_hiring import save_key
from tests.harness import BotEnv, attempt_message, fire_deadline, start_exam
from tests.papers_fixture import small_paper
from tests.reads import question_ids, the_attempt

# a hiring paper whose first key an admin can fix, Alpha's lead verified for it
env = test_regrade_hiring.env
WRITTEN = "梯度累积是把梯度累加后再更新参数。"


@dataclass
class Delivered:
    kind: Kind
    chat: int
    turns: list[tuple[int, Priority]] = field(default_factory=list)  # (chat, priority) of each token taken


def watch_turns(env: BotEnv, monkeypatch) -> list[Delivered]:
    """Every outbox delivery from now on, with the turns its task waited for at the pacer."""
    seen: list[Delivered] = []
    delivering: dict[asyncio.Task, Delivered] = {}  # a lane's task -> the message it delivers now
    pacer = pacing.pacer(env.app)
    assert pacer is not None
    waited, deliver = pacer.turn, bot_outbox._deliver

    async def turn(chat, priority):
        d = delivering.get(asyncio.current_task())
        if d is not None:
            d.turns.append((chat, priority))
        await waited(chat, priority)

    async def counted(app, message):
        task = asyncio.current_task()
        d = delivering[task] = Delivered(message.kind, message.chat_id)
        try:
            return await deliver(app, message)
        finally:
            del delivering[task]
            seen.append(d)

    monkeypatch.setattr(pacer, "turn", turn)
    monkeypatch.setattr(bot_outbox, "_deliver", counted)
    return seen


def test_a_turn_is_always_true():
    """PTB drops a false `rate_limit_args`: a turn must never be one."""
    assert Turn(5) and Turn(5, used=True) and Turn("@channel") and Turn(0)


async def test_a_turn_pays_for_its_chats_first_send_and_the_others_wait_as_bulk():
    pacer, turns = Pacer(), []
    waited = pacer.turn

    async def turn(chat, priority):
        turns.append((chat, priority))
        await waited(chat, priority)

    pacer.turn = turn  # type: ignore[method-assign]

    async def call() -> bool:
        return True

    async def send(endpoint: str, chat: int, rate_limit_args: Priority | Turn | None) -> None:
        await pacer.process_request(call, (), {}, endpoint, {"chat_id": chat}, rate_limit_args)

    try:
        taken = await pacer.bulk_turn(5)
        assert turns == [(5, Priority.bulk)]
        await send("editMessageText", 5, taken)  # an edit in a private chat is not paced
        await send("sendMessage", 5, taken)  # the token already taken
        assert turns == [(5, Priority.bulk)]
        await send("sendMessage", 5, taken)  # a second send with the turn
        await send("sendMessage", 6, Turn(5))  # another chat's
        await send("sendMessage", 7, Turn(7, used=True))  # a turn that took no token
        await send("sendMessage", 8, None)  # no turn: a reply
        assert turns[1:] == [(5, Priority.bulk), (6, Priority.bulk), (7, Priority.bulk), (8, Priority.reply)]
    finally:
        await pacer.shutdown()


async def test_every_kind_of_outbox_message_costs_one_token(env, monkeypatch):
    lead, cid, admin, dan = (env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(ADMIN, "Boss"),
                             env.api.user(DAN, "Dan"))
    payload, _ = await make_invite(env, lead, "hire 48h notify")
    await env.idle()
    seen = watch_turns(env, monkeypatch)
    # the invited candidate hands in: their card in the exam message's place, the lead's card, the team's note
    await take(env, cid, payload, written=WRITTEN)
    await finish(env, cid)
    card = await lead.wait_message(lambda m: (m.text or "").startswith("📋 Invite #1 finished"))
    await env.api.wait_for(lambda: env.api.last_message(ALPHA), what="the team's note")
    # the lead reviews the written answer: the candidate's notice
    await lead.press(card, "✍️ Review these answers")
    review = await lead.wait_message(lambda m: WRITTEN in (m.text or ""))
    await lead.press(review, "4")
    await cid.wait_message(lambda m: "reviewed" in (m.text or ""))  # a hiring paper's review `score`: the total
    # an admin fixes the key the candidate answered: their key-fix notice, the lead's regraded card
    await save_key(env, admin, (await question_ids(env.db, "hire", "single"))[0], "A")
    await cid.wait_message(lambda m: "regraded" in (m.text or ""))
    await lead.wait_message(lambda m: "regraded" in (m.text or "") and "📋 Invite #1 finished" in (m.text or ""))
    # an exam of someone's own: the result card is a message of its own
    await start_exam(env, dan)
    await finish(env, dan)
    await dan.wait_message(lambda m: "— result" in (m.text or ""))
    await env.idle()

    assert {d.kind for d in seen} == set(Kind), "a kind this test does not deliver: add it"
    # one bulk token each, the one its lane waited for; an edit in the message's place none
    wrong = [d for d in seen if d.turns != ([] if d.kind is Kind.result_in_place else [(d.chat, Priority.bulk)])]
    assert wrong == [], wrong


async def test_an_invited_card_whose_screen_is_gone_is_posted_for_one_bulk_token(env, monkeypatch):
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h")
    welcome = await open_link(cid, payload)
    await cid.press(welcome, "▶️ Start")
    await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await env.idle()
    attempt = await the_attempt(env.db, CID)
    seen = watch_turns(env, monkeypatch)
    env.api.fail("editMessageText", ApiError.bad_request("Bad Request: message to edit not found"), chat_id=CID)
    env.clock.advance(61 * 60)
    fire_deadline(env, attempt.id)
    await cid.wait_message(lambda m: "— result" in (m.text or ""))
    await env.idle()
    [posted] = [d for d in seen if d.kind is Kind.result_in_place]
    assert posted.turns == [(CID, Priority.bulk)]  # its turn took no token: the post waited as bulk


async def test_without_a_pacer_the_senders_pass_no_turn(tmp_path, db_location):
    """PTB refuses `rate_limit_args` when the bot has no rate limiter (as the benchmarks run it)."""
    e = BotEnv(tmp_path, location=db_location, pace=None)
    await e.seed(small_paper())
    await e.start()
    try:
        assert pacing.pacer(e.app) is None
        dan = e.api.user(DAN, "Dan")
        await start_exam(e, dan)
        await finish(e, dan)
        card = await dan.wait_message(lambda m: "— result" in (m.text or ""))
        assert "Score: " in card.text
    finally:
        await e.close()
