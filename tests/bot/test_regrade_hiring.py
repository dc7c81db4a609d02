"""A regrade of hiring attempts (/editq's Save and regrade) is reported in full: every changed
attempt gets its own audit row (attempt, old and new score, key versions), the candidate is told of
each change up or down, the inviting lead gets the updated card, and /invites shows the new score."""

from __future__ import annotations

import pytest

from proctor import hiring
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.curation import update_settings
from tests.bot.test_invites import ADMIN, ALPHA, CID, LEAD, finish, invite_list, make_invite, say
from tests.harness import T0, BotEnv, attempt_message
from tests.papers_fixture import small_paper
from tests.reads import attempts_of, paper_id, question_ids
from tests.stored import shown_ref


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,), shuffle=False)
    await e.seed(small_paper(), small_paper("hire"))
    db = await Database.open(e.db_path)
    await update_settings(db, "hire", actor=0, now=T0, invite_only=True, attempts_allowed=2)  # "2x" below
    await db.close()
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    # a configured admin verified Alpha for the hiring paper: its lead may invite and sees the cards
    await hiring.verify(e.db, ALPHA, [await paper_id(e.db, "hire")], actor=ADMIN, now=T0)
    yield e
    await e.close()


async def take_with(env, user, payload: str, letter: str) -> None:
    """Open the link, Start, answer the first question `letter`, hand in."""
    # the welcome card, not whatever comes next: the first sitting's result card goes out through the
    # outbox job and may arrive after this /start
    welcome = await say(user, f"/start {payload}", predicate=lambda m: "▶️ Start" in m.button_texts)
    await user.press(welcome, "▶️ Start")
    screen = await env.api.wait_for(lambda: attempt_message(user.chat()), what="attempt message")
    await user.press(screen, letter)
    await env.idle()
    await finish(env, user)


async def save_key(env, admin, qid: int, letter: str, button: str = "💾 Save and regrade"):
    """/editq <qid>: Key, the letter, then `button`; returns the card as it ends."""
    await admin.send(f"/editq {qid}")
    ref = await shown_ref(env.db, qid)
    card = await admin.wait_message(lambda m: f"✏️ {ref} ·" in (m.text or ""))
    await admin.press(card, "Key")
    await env.api.wait_for(lambda: "Pick the new key" in (card.text or ""), what="the key picker")
    await admin.press(card, letter)
    await env.api.wait_for(lambda: "Preview" in (card.text or ""), what="preview")
    await admin.press(card, button)
    await env.api.wait_for(lambda: "Preview" not in (card.text or ""), what="saved or refused")
    await env.idle()
    return card


async def test_every_changed_hiring_attempt_is_audited_told_and_carded(env):
    lead, cid, admin = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(ADMIN, "Boss")
    payload, _ = await make_invite(env, lead, "hire 2x")
    await take_with(env, cid, payload, "C")  # right by the key C: 2 points
    await take_with(env, cid, payload, "A")  # wrong: 0
    first, second = (a.id for a in await attempts_of(env.db))
    assert [a.score for a in await attempts_of(env.db)] == [2, 0]
    cards_before = [m for m in lead.chat() if "Demo paper hire" in (m.text or "") and "Cid" in (m.text or "")]
    assert len(cards_before) == 2
    qid = (await question_ids(env.db, "hire", "single"))[0]

    done = await save_key(env, admin, qid, "A")
    assert "2 scores changed" in done.text
    assert [a.score for a in await attempts_of(env.db)] == [0, 2]
    # the candidate hears of the fall as well as the rise (the notice goes out through the outbox job)
    await cid.wait_message(lambda m: "regraded" in (m.text or ""))
    told = [m.text for m in cid.chat() if "regraded" in (m.text or "")]
    assert any("2 → 0" in t for t in told) and any("0 → 2" in t for t in told), told
    # one audit row per changed attempt: the attempt, its old and new score, the key versions
    rows = await audit.recent(env.db, action="regrade", limit=10)
    assert sorted((e.target, e.target_user, e.detail["old"], e.detail["new"], e.detail["from_version"],
                   e.detail["to_version"], e.detail["question"]) for e in rows) == [
        (f"attempt:{first}", CID, 2, 0, 1, 2, qid), (f"attempt:{second}", CID, 0, 2, 1, 2, qid)]
    assert all(e.actor_id == ADMIN for e in rows)
    # the inviting lead gets the updated card for each changed attempt (through the outbox job too)
    def cards():
        return [m.text for m in lead.chat() if "regraded" in (m.text or "") and "Cid" in (m.text or "")]

    await env.api.wait_for(lambda: len(cards()) >= 2, what="the lead's updated cards")
    updated = cards()
    assert len(updated) == 2, updated
    assert any("Score: 0/" in t for t in updated) and any("Score: 2/" in t for t in updated), updated
    # and /invites shows the scores as they are now
    listed = await invite_list(env, lead)
    assert "Cid · 0, 2/15" in listed.text, listed.text  # both attempts, oldest first
