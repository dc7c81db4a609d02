"""What a team's views show of a hiring paper, through the fake Bot API (issue 36, D6, D7, D9): an
unverified team's /report has no per-section scores of it; /bankstats names no section, doubt or
statistic of it (by paper id: a practice paper of the same title keeps its own), answers in the lead's
private chat and offers no button a lead may not press; the uphold prompt with the key goes to the
admin's private chat; the digest, a group post, names no section of it; /leaderboard paper in a group
shows no invited candidate."""

from __future__ import annotations

import csv
import io

import pytest

from bank.paper_list import paper_summary
from proctor import hiring
from proctor.storage.db import Database
from proctor.teams.curation import update_settings
from tests.bank.test_quarantine import doubtful_paper
from tests.bot.test_invites import finish, make_invite, take
from tests.harness import T0, BotEnv, attempt_message, pick_paper
from tests.papers_fixture import save_paper, small_paper
from tests.proctor.test_leads_data import Crafted
from tests.reads import paper_id, question_ids
from tests.stored import shown_ref

ADMIN, LEAD, ANN, BOB, CID = 1, 10, 7, 8, 50
ALPHA = -100
SENT_PRIVATELY = "📬 Sent to you in a private chat."
SHARED = "Shared title"  # a hiring paper and a practice paper both carry it
HIRING_SUBJECT = "招聘科目"  # the hiring paper's subject: the topic of its questions


@pytest.fixture
async def env(tmp_path, db_location):
    e = BotEnv(tmp_path, location=db_location, admins=(ADMIN,))
    await e.seed(small_paper().model_copy(update={"subject": "梯度累积"}),
                 small_paper("hire", exam_only=True).model_copy(update={"subject": HIRING_SUBJECT}))
    await e.start()
    e.api.group(ALPHA, "Alpha").set_admins([LEAD])
    c = Crafted(e.db)
    await c.group(ALPHA, "Alpha", members=(LEAD, ANN, BOB))
    await c.roster(ALPHA, ANN, BOB)
    e.in_group(ALPHA, (ANN, "Ann"), (BOB, "Bob"))  # what getChatMember answers for them
    yield e
    await e.close()


async def privately(env, user, command: str, chat: int = ALPHA):
    """A command in the group whose answer goes to the user's private chat: that answer."""
    before = len(user.chat())
    await user.send(command, chat=chat)
    assert (await user.wait_message(chat=chat)).text == SENT_PRIVATELY
    return await env.api.wait_for(lambda: next((m for m in user.chat()[before:] if m.from_bot and
                                                (m.text or m.document)), None), what="the private answer")


async def _report(env, lead) -> list[str]:
    doc = await privately(env, lead, "/report all")
    return next(csv.reader(io.StringIO(doc.document.data.decode("utf-8-sig"))))


async def _sit(env, user, title: str) -> None:
    """/exam → the paper → its own rules card's Start → answer the first question → hand in."""
    await user.send("/exam")
    await pick_paper(user, title)
    rules = await user.wait_message(lambda m: "▶️ Start" in m.button_texts and title in (m.text or ""))
    await user.press(rules, "▶️ Start")
    screen = await env.api.wait_for(lambda: (m := attempt_message(user.chat())) and m.message_id > rules.message_id
                                    and m, what="attempt message")
    await user.press(screen, "A")
    await env.idle()
    await finish(env, user)
    await user.wait_message(lambda m: "Score:" in (m.text or "") and title in (m.text or ""))


async def test_an_unverified_teams_report_has_no_sections_of_a_hiring_paper(env):
    lead, ann = env.api.user(LEAD, "Lea"), env.api.user(ANN, "Ann")
    await _sit(env, ann, "Demo paper hire")  # a roster member sits the exam-only paper through /exam
    await _sit(env, ann, "Demo paper demo")
    header = await _report(env, lead)
    hire, demo = [f"{(await paper_summary(env.db, await paper_id(env.db, s))).code} Demo paper {s}"
                  for s in ("hire", "demo")]  # a paper's column: its code and title
    assert hire in header  # its total
    assert not [h for h in header if h.startswith(f"{hire} · ")], header  # no section of it
    assert f"{demo} · 单项选择题" in header  # a practice paper's sections as before
    await hiring.verify(env.db, ALPHA, [await paper_id(env.db, "hire")], actor=ADMIN, now=env.clock.now())
    assert f"{hire} · 单项选择题" in await _report(env, lead)  # verified: the sections too


async def test_bankstats_filters_by_paper_id_answers_privately_and_offers_a_lead_no_button(tmp_path):
    env = BotEnv(tmp_path, admins=(ADMIN,))
    await env.seed()
    db = await Database.open(env.db_path)
    await save_paper(db, doubtful_paper(), T0)
    await save_paper(db, doubtful_paper().model_copy(update={"slug": "open", "title": "Open paper"}), T0)
    await update_settings(db, "held", actor=0, now=T0, exam_only=True)
    # one title for both, as a bank from before titles were unique may hold: a filter by title hides both
    await db.run_write(lambda conn: conn.execute("UPDATE papers SET title=?", (SHARED,)))
    await db.close()
    await env.start()
    try:
        env.api.group(ALPHA, "Alpha").set_admins([LEAD])
        c = Crafted(env.db)
        await c.group(ALPHA, "Alpha", members=(LEAD, ANN))
        await c.roster(ALPHA, ANN)
        env.in_group(ALPHA, (ANN, "Ann"))
        held, opened = [await question_ids(env.db, slug, "multi") for slug in ("held", "open")]
        for slug, qids in (("held", held), ("open", opened)):  # Ann sat both and disputes a question of each
            await c.exam(ANN, await paper_id(env.db, slug), [(qids[0], 0, 2, 1)], T0 - 600, T0 - 60)
        ann, lead = env.api.user(ANN, "Ann"), env.api.user(LEAD, "Lea")
        refs = {qid: await shown_ref(env.db, qid) for qid in (held[0], opened[0])}
        for qid, reason in ((held[0], "hiring doubt"), (opened[0], "practice doubt")):
            await ann.send(f"/dispute {qid} {reason}")
            await ann.wait_message(lambda m, qid=qid: refs[qid] in (m.text or ""))
        stats = await privately(env, lead, "/bankstats")
        assert "practice doubt" in stats.text and f"{refs[opened[0]]} ({SHARED}" in stats.text  # held: its doubt
        assert "hiring doubt" not in stats.text and refs[held[0]] not in stats.text
        assert stats.buttons == []  # retire, uphold, confirm: a configured admin's
        assert not any("hiring doubt" in (m.text or "") for m in env.api.chat_view(ALPHA))
        code = (await paper_summary(env.db, await paper_id(env.db, "held"))).code
        await lead.send(f"/bankstats {code}", chat=ALPHA)
        assert (await lead.wait_message(chat=ALPHA)).text.startswith(f"🔒 “{SHARED}” is a hiring paper")
        # the admin upholds the hiring paper's dispute from a group: the key goes to their private chat only
        admin = env.api.user(ADMIN, "Boss")
        everything = await privately(env, admin, "/bankstats")
        assert "hiring doubt" in everything.text
        await (await admin.press(everything, "Uphold #1")).wait()  # the hiring paper's dispute, raised first
        prompt = await admin.wait_message(lambda m: "/keyfix" in (m.text or ""))
        assert "(now: A · " in prompt.text and ", in the letters the disputer saw)" in prompt.text
        assert prompt.chat_id == ADMIN
        assert not any("(now:" in (m.text or "") for m in env.api.chat_view(ALPHA))
    finally:
        await env.close()


async def test_the_digest_names_no_topic_of_a_hiring_paper(env):
    c = Crafted(env.db)
    lead = env.api.user(LEAD, "Lea")
    for slug in ("hire", "demo"):  # Ann's weak exams on both papers this week
        qids = await question_ids(env.db, slug, "single")
        for _ in range(2):
            await c.exam(ANN, await paper_id(env.db, slug), [(q, 0, 2, 1) for q in qids], T0 - 3600, T0 - 600)
    await lead.send("/digest now", chat=ALPHA)
    digest = await lead.wait_message(lambda m: "Weakest topics" in (m.text or ""), chat=ALPHA)
    assert "• 梯度累积: 0% over 4 answers" in digest.text  # the practice paper's subject: its questions' topic
    assert HIRING_SUBJECT not in digest.text and "Demo paper hire" not in digest.text


async def test_a_paper_board_in_the_inviting_group_shows_no_invited_candidate(env):
    lead, cid, bob = env.api.user(LEAD, "Lea"), env.api.user(CID, "Cid"), env.api.user(BOB, "Bob")
    payload, _ = await make_invite(env, lead, "demo")  # a practice paper: any team may invite to it
    await take(env, cid, payload)
    await finish(env, cid)
    await bob.send("/leaderboard paper demo", chat=ALPHA)
    board = await bob.wait_message(lambda m: "best exam scores" in (m.text or ""), chat=ALPHA)
    assert "Cid" not in board.text
