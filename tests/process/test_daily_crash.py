"""kill -9 inside a daily push's send (issue 10): Telegram took the question, the bot died before
writing its message id. After the restart the question is there at most twice, never missing, and
the buttons of both copies record the answer (once per member) instead of refusing the press."""

from __future__ import annotations

import asyncio
import re

import pytest

from proctor.daily import delivery
from sandbox.fakeapi import ApiError, FakeBotApi
from tests.bot.test_daily_support import GROUP as SUPPORT_GROUP
from tests.bot.test_daily_support import HEADER, make_env, questions, run_job, subscribe_group, ts
from tests.process_helpers import STARTUP, ProctorProcess, child_env, db_rows
from tests.reads import daily_answers, the_delivery

GROUP = -100777
_PICK = re.compile(r"^d:p:(\d+):(\d+):")



def _pick_item(params: dict) -> tuple[int, int] | None:
    """(delivery, pos) of a sendMessage carrying a daily single-choice or true/false keyboard."""
    markup = params.get("reply_markup") or {}
    for row in markup.get("inline_keyboard", []) if isinstance(markup, dict) else []:
        for button in row:
            if m := _PICK.match(button.get("callback_data") or ""):
                return int(m.group(1)), int(m.group(2))
    return None


def _copies(api: FakeBotApi, pos: int) -> list:
    return [m for m in api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith(HEADER)
            and any(_PICK.match(b.callback_data or "") and int(_PICK.match(b.callback_data).group(2)) == pos
                    for row in m.buttons for b in row)]


async def _run(tmp_path, api, db) -> ProctorProcess:
    return await ProctorProcess.start(["--db", str(db), "run"], env=child_env(tmp_path, api), cwd=tmp_path)


async def test_kill_9_between_telegram_and_the_record_repeats_at_most_one_question(tmp_path, api):
    db = tmp_path / "p.db"
    lead, member = api.user(1, "Lea", language_code="en"), api.user(2, "Mo", language_code="en")
    group = api.group(GROUP, "Team")
    group.set_admins([lead.id])
    hold = api.hold("sendMessage", chat_id=GROUP, when=lambda p: _pick_item(p) is not None)
    first = await _run(tmp_path, api, db)
    second = None
    try:
        await lead.send("/daily on 09:00 UTC", chat=group)
        await lead.wait_message(lambda m: m.text.startswith("✅ Daily quiz on"), chat=group, timeout=STARTUP)
        await lead.send("/daily now", chat=group)
        async with asyncio.timeout(STARTUP):
            await hold.reached.wait()  # the first question with buttons is in the chat, unanswered
        assert await first.kill() == -9  # Telegram has the question; the bot never heard its id
        hold.release()  # the answer goes to a dead process
        [(delivery_id, pos)] = [_pick_item(c.params) for c in api.calls if c.method == "sendMessage"
                                and c.params.get("chat_id") == GROUP and _pick_item(c.params)]
        [item] = db_rows(db, "SELECT message_id, send_attempts FROM daily_items WHERE delivery_id=? AND pos=?",
                         delivery_id, pos)
        assert (item["message_id"], item["send_attempts"]) == (None, 1)
        total = db_rows(db, "SELECT COUNT(*) AS n FROM daily_items WHERE delivery_id=?", delivery_id)[0]["n"]

        second = await _run(tmp_path, api, db)
        await api.wait_for(lambda: db_rows(db, "SELECT COUNT(*) AS n FROM daily_items WHERE delivery_id=? "
                                               "AND message_id IS NULL", delivery_id)[0]["n"] == 0,
                           timeout=STARTUP, what="the push resumed")
        await api.wait_idle(timeout=10)
        shown = [m for m in api.chat_view(GROUP) if m.from_bot and (m.text or "").startswith(HEADER)]
        assert len(shown) == total + 1  # every question, and the one in the window once more
        old, new = _copies(api, pos)
        assert old.message_id < new.message_id

        # both copies' buttons work: the first press of each member counts, on either copy
        button = old.buttons[0][0].callback_data
        first_toast = await (await member.press(old, callback_data=button)).wait()
        again = await (await member.press(new, callback_data=button)).wait()
        lead_toast = await (await lead.press(new, callback_data=button)).wait()
        assert "isn't valid" not in first_toast and "isn't valid" not in lead_toast
        assert again.startswith("You already answered this one"), again
        rows = db_rows(db, "SELECT user_id FROM daily_answers WHERE delivery_id=? AND pos=? ORDER BY user_id",
                       delivery_id, pos)
        assert [r["user_id"] for r in rows] == [1, 2]
        assert await second.stop() == 0
    finally:
        hold.release()
        await first.cleanup()
        if second is not None:
            await second.cleanup()



# --- in process: a send Telegram carried out but answered with a 502 (the same window, no crash) --


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


async def test_a_reply_to_the_unrecorded_copy_of_a_group_question_counts(env):
    lead, group = await subscribe_group(env)
    member = env.api.user(2, "Mo")
    fill = "↩️ Reply to this message"
    hold = env.api.hold("sendMessage", chat_id=SUPPORT_GROUP, when=lambda p: fill in (p.get("text") or ""),
                        error=ApiError.server_error(502))
    env.clock.set(ts(2027, 1, 16, 1, 0))
    await run_job(env, f"daily:{SUPPORT_GROUP}")
    assert hold.reached.is_set()  # in the chat, but the bot heard a 502: the push stopped there
    await run_job(env, f"daily-retry:{SUPPORT_GROUP}")
    await env.idle()
    shown = questions(env.api.chat_view(SUPPORT_GROUP))
    total = len(await delivery.items(env.db, (await the_delivery(env.db)).id))
    assert len(shown) == total + 1
    held = next(m for m in shown if fill in m.text)
    copies = [m for m in shown if m.text.splitlines()[0] == held.text.splitlines()[0]]
    assert len(copies) == 2 and copies[0] is held
    pos = int(held.text.splitlines()[0].split("·")[1].split("/")[0]) - 1

    await member.send("图形处理器", chat=group, reply_to=copies[0])  # the copy the bot never recorded
    await lead.send("图形处理器", chat=group, reply_to=copies[1])
    await env.idle()
    assert [a.user_id for a in await daily_answers(env.db) if a.pos == pos] == [1, 2]


async def test_in_a_private_chat_either_copy_takes_the_answer_and_shows_the_feedback(env):
    ann = env.api.user(5, "Ann", language_code="en")
    hold = env.api.hold("sendMessage", chat_id=ann.id, when=lambda p: _pick_item(p) is not None,
                        error=ApiError.server_error(502))
    await ann.send("/daily now")
    answered = 0
    while answered < 10:  # answer by typing until the first question with pick buttons comes
        await env.api.wait_for(lambda n=answered: hold.reached.is_set() or len(questions(ann.chat())) > n,
                               timeout=10, what="the next question")
        if hold.reached.is_set():
            break
        labels = questions(ann.chat())[-1].button_texts
        await ann.send("true" if "✔ True" in labels else "A" if labels else "x")
        answered += 1
    assert hold.reached.is_set()
    [(_delivery, pos)] = [_pick_item(c.params) for c in env.api.calls
                            if c.method == "sendMessage" and _pick_item(c.params)]
    await env.idle()
    await ann.send("/daily now")  # the question waiting has no recorded message: it is sent (again)
    await env.api.wait_for(lambda: len([m for m in questions(ann.chat())
                                        if m.text.startswith(f"📅 Daily quiz · {pos + 1}/")]) == 2,
                           timeout=10, what="the question sent again")
    old, new = [m for m in questions(ann.chat()) if m.text.startswith(f"📅 Daily quiz · {pos + 1}/")]
    button = old.buttons[0][0].callback_data
    toast = await (await ann.press(old, callback_data=button)).wait()
    assert "isn't valid" not in toast
    await env.idle()
    assert old.buttons == [] and new.buttons == []  # both copies show the feedback, no live buttons
    assert len([a for a in await daily_answers(env.db) if a.pos == pos]) == 1
