"""An attempt's screen has one writer at a time (bot/exam/screen_lock.py): a step stored while the
attempt ran whose reply goes out after the deadline's hand-in never deletes the result card that took
the screen's place, nor edits it back into a question. Driven through the fake Bot API: the reply is
held on the wire (or before it, at the press's acknowledgement) while the deadline job hands in."""

from __future__ import annotations

from bot.exam.screen_lock import Screens, screen_lock
from tests.bot import test_invites
from tests.bot.test_invites import CID, LEAD, make_invite, open_link
from tests.harness import attempt_message, fire_deadline
from tests.reads import answers_in, the_attempt

RESULT = "— result"
env = test_invites.env  # the hiring paper, invite-only, Alpha verified for it


async def _started(env):
    """Cid opened an invite to the hiring paper and started it: the screen shows its first question."""
    lead, cid = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid")
    payload, _ = await make_invite(env, lead, "hire 48h")
    welcome = await open_link(cid, payload)
    await cid.press(welcome, "▶️ Start")
    await env.api.wait_for(lambda: attempt_message(cid.chat()), what="attempt message")
    await env.idle()
    return cid


async def _hand_in_at_the_deadline(env, attempt_id: int, card_at: int) -> None:
    """The deadline passes and its job hands the attempt in; its card goes to the outbox, which puts
    it in message `card_at`, or waits for the screen's lock while a held reply holds it."""
    lock = screen_lock(env.app, attempt_id)  # the one the card's sender takes (kept while this holds it)
    env.clock.advance(61 * 60)
    fire_deadline(env, attempt_id)
    cid = env.api.user(CID, "Cid")
    await env.api.wait_for(lambda: lock._waiters or any(m.message_id == card_at and RESULT in (m.text or "")
                                                        for m in cid.chat()),
                           what="the card in the screen's place, or waiting for the screen")


def _shown(cid) -> list:
    return [m for m in cid.chat() if m.from_bot and not m.deleted]


async def test_a_typed_answers_reposted_screen_late_on_the_wire_leaves_the_card(env):
    cid = await _started(env)
    while "简述" not in attempt_message(cid.chat()).text:  # the written question: its answer reposts the screen
        await cid.press(attempt_message(cid.chat()), "Skip ▶")
        await env.idle()
    screen = attempt_message(cid.chat())
    attempt = await the_attempt(env.db, CID)
    hold = env.api.hold("sendMessage", chat_id=CID)  # the repost reaches the chat; its answer waits
    await cid.send("梯度累积把几个小批次的梯度加起来再更新")
    await hold.reached.wait()
    await _hand_in_at_the_deadline(env, attempt.id, screen.message_id)
    hold.release()
    await env.idle()
    cards = [m for m in _shown(cid) if RESULT in (m.text or "")]
    assert len(cards) == 1, [m.text for m in _shown(cid)]
    assert (await the_attempt(env.db, CID)).message_id == cards[0].message_id
    assert not [m for m in _shown(cid) if "Skip ▶" in m.button_texts]  # no question left to press
    stored = [rec.response for rec in (await answers_in(env.db, attempt.id)).values()]
    assert any("梯度累积把几个小批次" in str(r) for r in stored), stored  # stored before the deadline: it counts


async def test_a_press_acknowledged_after_the_hand_in_does_not_edit_the_card_back(env):
    cid = await _started(env)
    screen = attempt_message(cid.chat())
    attempt = await the_attempt(env.db, CID)
    hold = env.api.hold("answerCallbackQuery")  # the press is stored; its screen waits behind the ack
    await cid.press(screen, "A")
    await hold.reached.wait()
    await _hand_in_at_the_deadline(env, attempt.id, screen.message_id)
    hold.release()
    await env.idle()
    card = next(m for m in cid.chat() if m.message_id == screen.message_id)
    assert not card.deleted and RESULT in card.text and "Skip ▶" not in card.button_texts
    assert [m for m in _shown(cid) if RESULT in (m.text or "")] == [card]


def test_the_marks_kept_are_the_latest_and_bounded():
    screens = Screens()
    screens.KEPT = 3
    for attempt_id in (1, 2, 3, 1, 4):  # 1 marked again: it is among the latest
        screens.carded(attempt_id)
    assert [screens.has_card(i) for i in (1, 2, 3, 4)] == [True, False, True, True]


async def test_a_question_grid_acknowledged_after_the_hand_in_does_not_replace_the_card(env):
    cid = await _started(env)
    screen = attempt_message(cid.chat())
    attempt = await the_attempt(env.db, CID)
    hold = env.api.hold("answerCallbackQuery")  # the grid is read; its edit waits behind the ack
    await cid.press(screen, "☰ Questions")
    await hold.reached.wait()
    await _hand_in_at_the_deadline(env, attempt.id, screen.message_id)
    hold.release()
    await env.idle()
    card = next(m for m in cid.chat() if m.message_id == screen.message_id)
    assert not card.deleted and RESULT in card.text
