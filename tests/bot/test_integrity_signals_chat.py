"""Integrity signals where a lead sees them, through the fake Bot API: the count on the lead's result
card and the `signals` column of `/report invites`; the card's line in both languages; and every way
an attempt is handed in (Finish, the deadline job, start-up) computes them."""

from __future__ import annotations

import csv
import io

import pytest

from bot.invites import render
from proctor.exams import service as attempts
from proctor.exams.model import compute_result
from proctor.exams.visibility import EVERY, Visibility
from proctor.integrity.signals import Signal
from proctor.invites import store
from tests.bot.test_invites import ALPHA, LEAD, _env, finish, make_invite, take
from tests.harness import fire_deadline, hand_in_expired
from tests.reads import the_attempt

WRITTEN = "梯度累积是在每次前向传播计算损失后，不立即更新模型参数，而是将梯度进行累加，等到若干步后再统一更新。"
OWN = "把几个小批次的梯度加在一起再更新参数，相当于用更大的批次训练，显存不够时很有用。"


@pytest.fixture
async def env(tmp_path, db_location):
    e = await _env(tmp_path, db_location)
    yield e
    await e.close()


async def _card(env, lead, invite_id: int):
    return await lead.wait_message(lambda m: (m.text or "").startswith(f"📋 Invite #{invite_id} finished"))


async def test_two_candidates_with_the_same_written_answer_are_counted_on_the_card_and_in_the_report(env):
    lead = env.api.user(LEAD, "Lea")
    ann, bob, cy = (env.api.user(uid, name) for uid, name in ((51, "Ann"), (52, "Bob"), (53, "Cy")))
    links = [(await make_invite(env, lead, "hire"))[0] for _ in range(3)]
    for user, link, text in ((ann, links[0], WRITTEN), (cy, links[1], OWN), (bob, links[2], WRITTEN)):
        env.clock.advance(600)
        await take(env, user, link, written=text)
        env.clock.advance(600)
        await finish(env, user)
    first, honest, copy = (await _card(env, lead, 1)), (await _card(env, lead, 2)), (await _card(env, lead, 3))
    # Ann's card went out before Bob copied her: only Bob's, handed in second, counts the pair
    assert "⚠️" not in first.text and "⚠️" not in honest.text
    assert ("⚠️ 1 signal to look at (not a verdict): written answer near-identical to another candidate's ×1. "
            "Evidence on the desk.") in copy.text
    before = len(lead.chat())
    await lead.send("/report invites", chat=ALPHA)
    doc = await env.api.wait_for(lambda: next((m for m in lead.chat()[before:] if m.document), None))
    rows = {r["invite"]: r for r in csv.DictReader(io.StringIO(doc.document.data.decode("utf-8-sig")))}
    # the report is read now: both sides of the pair are there
    assert {k: r["signals"] for k, r in rows.items()} == {"1": "similar:1", "2": "", "3": "similar:1"}


async def test_the_cards_signal_line_in_both_languages(env):
    lead = env.api.user(LEAD, "Lea")
    link, _ = await make_invite(env, lead, "hire")
    await take(env, env.api.user(51, "Ann"), link, written=OWN)
    await finish(env, env.api.user(51, "Ann"))
    inv = await store.get(env.db, 1)
    sheet = await attempts.load_sheet(env.db, inv.attempt_id)
    result = compute_result(sheet.items, sheet.answers)
    counts = {Signal.fast: 3, Signal.quick: 1}
    vis = Visibility(inv.paper_id, EVERY)
    en, _ = render.result_card(inv, sheet.attempt, result, "Ann", "en", counts, vis=vis)
    zh, _ = render.result_card(inv, sheet.attempt, result, "Ann", "zh", counts, vis=vis)
    assert ("⚠️ 2 signals to look at (not a verdict): right answers faster than reading ×3; "
            "handed in far faster than the paper's median.") in en
    assert "⚠️ 2 项值得留意的信号（并非结论）：答对速度快于读题 ×3；交卷远快于该卷中位用时。" in zh
    assert "⚠️" not in render.result_card(inv, sheet.attempt, result, "Ann", "en", {}, vis=vis)[0]


async def test_a_hand_in_by_the_deadline_job_computes_the_signals_too(env):
    lead = env.api.user(LEAD, "Lea")
    ann, bob = env.api.user(51, "Ann"), env.api.user(52, "Bob")
    first, second = (await make_invite(env, lead, "hire"))[0], (await make_invite(env, lead, "hire"))[0]
    await take(env, ann, first, written=WRITTEN)
    await finish(env, ann)
    await take(env, bob, second, written=WRITTEN)  # the same answer, and Bob never presses Finish
    env.clock.advance(61 * 60)
    fire_deadline(env, (await the_attempt(env.db, 52)).id)
    card = await _card(env, lead, 2)
    assert "handed in at the deadline" in card.text and "⚠️ 1 signal to look at" in card.text


async def test_a_hand_in_at_start_up_computes_the_signals_too(env):
    lead = env.api.user(LEAD, "Lea")
    ann, bob = env.api.user(51, "Ann"), env.api.user(52, "Bob")
    first, second = (await make_invite(env, lead, "hire"))[0], (await make_invite(env, lead, "hire"))[0]
    await take(env, ann, first, written=WRITTEN)
    await finish(env, ann)
    await take(env, bob, second, written=WRITTEN)
    await env.stop_app()
    env.clock.advance(61 * 60)  # the deadline passes while the bot is down
    await env.start_app()
    hand_in_expired(env)  # Bob's attempt is handed in a grace after the start
    card = await _card(env, lead, 2)
    assert "handed in at the deadline" in card.text and "⚠️ 1 signal to look at" in card.text
