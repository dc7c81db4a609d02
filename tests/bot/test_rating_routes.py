"""The ratings' routes (docs/ratings.md): /mystats with the person's rating as a band and provisional or
not; /rating public|private; /leaderboard rating [topic] in a group naming only who chose it, settled
ratings ranked and provisional ones apart, everyone else told their own place privately; in English
and Chinese; the desk's team page with every member's rating, its Items page with each question's
measure beside its label, its Hiring page with a candidate's ability estimate; /practice with no
paper named at the person's level."""

from __future__ import annotations

import re

import pytest

from bank.kinds import Kind
from bot.invites import render as invite_render
from proctor.exams.invited import open_link
from proctor.exams.model import ADAPTIVE_TITLE, compute_result
from proctor.exams.service import running_attempt
from proctor.exams.visibility import Role, Viewer
from proctor.invite_cards import load_lead_card
from proctor.invites import store
from tests.desk_helpers import DeskClient, DeskEnv, table_rows
from tests.harness import attempt_message
from tests.papers_fixture import small_paper
from tests.rating_world import join, people, sit, sums
from tests.stored import shown_ref

TEAM, LEAD, ADMIN = -100, 99, 1
ANN, BOB, CAI, DAN, EVE = 11, 12, 13, 14, 15
BAND = re.compile(r"\d{3,4} \(very likely \d{3,4}–\d{3,4}\)")


@pytest.fixture
async def env(tmp_path):
    e = DeskEnv(tmp_path, admins=(ADMIN,), shuffle=False)
    ids = await e.seed(sums("long", 40), sums("short", 4, labels=("易", "中")), small_paper(),
                       sums("hire", 4, exam_only=True))
    e.papers = dict(zip(("long", "short", "demo", "hire"), ids, strict=True))
    await e.start()
    e.api.group(TEAM, "Alpha").set_admins([LEAD])
    yield e
    await e.close()


async def _team(env) -> None:
    """Ann, Bob and Dan answered the long paper (32, 20 and 30 right of 40), Cai four questions (three
    right): all four on Alpha's roster, Ann and Cai named on its board."""
    db, now = env.db, env.clock.now()
    for uid, name, lang in ((ANN, "Ann", "en"), (CAI, "Cai", "zh"), (LEAD, "Lea", "en")):  # Cai reads Chinese
        env.api.user(uid, name, language_code=lang)
    await people(db, (ANN, "Ann"), (BOB, "Bob"), (CAI, "Cai"), (DAN, "Dan"), (LEAD, "Lea"))
    for uid in (ANN, BOB, CAI, DAN):
        await join(db, uid, now - 10_000, TEAM)
    env.in_group(TEAM, (ANN, "Ann"), (BOB, "Bob"), (CAI, "Cai"), (DAN, "Dan"), (LEAD, "Lea"))
    for n, (uid, right) in enumerate(((ANN, 32), (BOB, 20), (DAN, 30))):
        await sit(db, uid, env.papers["long"], set(range(right)), now - 9000 + 1000 * n)
    await sit(db, CAI, env.papers["short"], {0, 1, 2}, now - 5000)
    await say(env.api.user(ANN, "Ann", language_code="en"), "/rating public")
    await say(env.api.user(CAI, "Cai", language_code="zh"), "/rating public")
    await say(env.api.user(LEAD, "Lea"), "/leaderboard rating", chat=TEAM)  # the lead is seen in the group


async def say(user, text, chat=None):
    await user.send(text, chat=chat)
    return await user.wait_message(chat=chat)


async def test_a_group_board_names_who_chose_it_and_each_other_member_hears_their_place(env):
    await _team(env)
    dan = env.api.user(DAN, "Dan", language_code="en")
    text = (await say(dan, "/leaderboard rating", chat=TEAM)).text
    lines = text.splitlines()
    assert lines[0] == "🎯 Ratings · Alpha"
    assert "Only members who chose /rating public are named." in lines[1]
    named = [ln for ln in lines if ln.startswith(("1.", "2.", "•"))]
    assert [ln.split(" — ")[0] for ln in named] == ["1. Ann", "• Cai"]  # Bob and Dan are rated, not named
    assert all(BAND.fullmatch(ln.split(" — ")[1]) for ln in named)
    assert "Provisional (too few answers to rank yet):" in lines
    assert lines[-1].startswith("2 more rated members are not listed")
    # Dan is not named: his own place comes privately (2nd of the three settled ratings)
    mine = await dan.wait_message(lambda m: "Your place" in (m.text or ""))
    assert re.fullmatch(r"• Alpha: 2 of 3 — " + BAND.pattern, mine.text.splitlines()[1])
    # a Chinese-speaking member in an English group hears the group's language; once its lead sets the
    # group to Chinese, the board is in Chinese, and so is a topic nobody answered
    eve = env.api.user(EVE, "Eve", language_code="zh")  # in the group, not on its roster
    assert (await say(eve, "/leaderboard rating", chat=TEAM)).text.startswith("🎯 Ratings · Alpha")
    await say(env.api.user(LEAD, "Lea"), "/lang zh", chat=TEAM)
    zh = (await say(eve, "/leaderboard rating", chat=TEAM)).text
    assert zh.startswith("🎯 等级分 · Alpha") and "暂定（作答还太少，暂不排名）：" in zh and "很可能在" in zh
    assert "没有主题为“geometry”" in (await say(eve, "/leaderboard rating geometry", chat=TEAM)).text
    # in private: the person's place on each team's board
    places = (await say(env.api.user(CAI, "Cai"), "/leaderboard rating")).text
    assert re.fullmatch(r"• Alpha：暂定，暂不排名 — \d+（很可能在 \d+–\d+ 之间）", places.splitlines()[1])
    places = (await say(env.api.user(BOB, "Bob"), "/leaderboard rating")).text
    assert re.fullmatch(r"• Alpha: 3 of 3 — " + BAND.pattern, places.splitlines()[1])


async def test_mystats_and_rating_public_or_private(env):
    await _team(env)
    ann, cai = env.api.user(ANN, "Ann", language_code="en"), env.api.user(CAI, "Cai", language_code="zh")
    mine = (await say(ann, "/mystats")).text.splitlines()
    assert re.fullmatch(r"🎯 Your rating: " + BAND.pattern + r", from 40 counted answers\.", mine[0])
    assert mine[1] == "Your groups' rating boards name you (/rating private to stop)."
    assert "Now: public." in (await say(ann, "/rating")).text
    assert (await say(ann, "/rating private")).text.startswith("✅ Your groups' rating boards no longer name you")
    assert "Now: private." in (await say(ann, "/rating")).text
    zh = (await say(cai, "/mystats")).text.splitlines()
    assert zh[0].startswith("🎯 你的等级分：") and zh[1] == "暂定：再答一些题就会稳定下来。"
    none = (await say(env.api.user(LEAD, "Lea", language_code="en"), "/mystats")).text
    assert none.startswith("🎯 No rating yet")


async def test_practice_with_no_paper_named_picks_questions_at_the_persons_level(env):
    ann = env.api.user(ANN, "Ann", language_code="en")
    await ann.send("/practice")
    assert (await ann.wait_message(lambda m: "Practice at your level" in (m.text or ""))).text.startswith("🎯")
    screen = await env.api.wait_for(lambda: attempt_message(ann.chat()))
    assert screen is not None
    running = await running_attempt(env.db, ANN)
    assert running is not None and running.title == ADAPTIVE_TITLE and running.paper_id is None
    kinds = {r[0] for r in await env.db.fetchall(
        "SELECT q.kind FROM attempt_items i JOIN questions q ON q.id = i.question_id WHERE i.attempt_id = ?",
        (running.id,))}
    papers = {r[0] for r in await env.db.fetchall(
        "SELECT q.paper_id FROM attempt_items i JOIN questions q ON q.id = i.question_id WHERE i.attempt_id = ?",
        (running.id,))}
    assert Kind.short not in kinds and env.papers["hire"] not in papers
    assert "in progress" in (await say(ann, "/practice")).text  # one attempt at a time
    bob = env.api.user(BOB, "Bob", language_code="en")
    assert "for exams only" in (await say(bob, "/practice hire")).text
    await bob.send("/practice demo")
    await env.api.wait_for(lambda: attempt_message(bob.chat()))
    assert (await running_attempt(env.db, BOB)).paper_id == env.papers["demo"]


async def test_the_desk_shows_ratings_measures_and_a_candidates_ability(env):
    await _team(env)
    db, now = env.db, env.clock.now()
    [(invite, token)] = await store.create(db, paper_id=env.papers["hire"], team=None, lead=ADMIN, now=now,
                                           window=3600, admin=True)
    await open_link(db, token, user_id=BOB, username=None, now=now)
    await sit(db, BOB, env.papers["hire"], {0}, now, invite_id=invite.id)
    lea, admin = DeskClient(env), DeskClient(env)
    try:
        await lea.login(LEAD)
        _, html, _ = await lea.get("/desk/team", team=str(TEAM))
        ranked = table_rows(html, "ratings")
        assert [(r[0], r[1], r[5]) for r in ranked] == [("1", "Ann", "✓"), ("2", "Dan", ""), ("3", "Bob", "")]
        assert all(int(r[2]) and re.fullmatch(r"\d+–\d+", r[3]) and r[4] == "40" for r in ranked)
        assert [(r[0], r[1], r[4]) for r in table_rows(html, "ratings-provisional")] == [("", "Cai", "4")]
        _, csv_text, _ = await lea.get("/desk/team.csv", team=str(TEAM), table="ratings")
        rows = csv_text.lstrip("\ufeff").splitlines()
        assert rows[0] == "rank,user_id,name,rating,very_likely_low,very_likely_high,answers,provisional,named_in_group"
        assert [r.split(",")[2] for r in rows[1:]] == ["Ann", "Dan", "Bob", "Cai"]
        _, html, _ = await lea.get("/desk/items", paper="long")
        items = table_rows(html, "items")
        assert all(re.fullmatch(r"\d+% at the median", r[5]) for r in items)
        assert [r[6] for r in items[:3]] == ["易", "中", "难"]
        await admin.login(ADMIN, "Adm")
        _, html, _ = await admin.get("/desk/hiring", team="all")
        [row] = table_rows(html, "candidates")
        assert BAND.fullmatch(row[5])
    finally:
        await lea.close()
        await admin.close()


async def test_bankstats_shows_each_questions_measure_and_flags_it_for_the_author(env):
    db, now = env.db, env.clock.now()
    [flag] = [r[0] for r in await db.fetchall("SELECT id FROM papers WHERE slug = 'short'")]
    qids = [r[0] for r in await db.fetchall("SELECT id FROM questions WHERE paper_id = ? ORDER BY number", (flag,))]
    for u in range(100, 120):  # twenty people: the first right for all (labelled easy), the second for none
        await people(db, (u, f"p{u}"))
        await sit(db, u, flag, {0, 2 + u % 2}, now - 100_000 + 1000 * (u - 100))
    admin = env.api.user(ADMIN, "Adm", language_code="en")
    overview = (await say(admin, "/bankstats")).text
    assert "📏 Questions their measure flags (answered right by about N% of people at the median rating):" in overview
    first, second = [re.escape(await shown_ref(db, q)) for q in qids[:2]]
    assert re.search(rf"{second} \(.*\): ≈\d%, label 中 — nearly nobody gets it right beyond guessing, its label "
                     "disagrees with its measure", overview)
    assert re.search(rf"{first} \(.*\): ≈9\d%, label 易 — nearly everyone gets it right", overview)
    lea = env.api.user(LEAD, "Lea", language_code="zh")
    await say(lea, "/bankstats short", chat=TEAM)  # a lead's: in their private chat, in their language
    paper = await lea.wait_message(lambda m: "实测" in (m.text or ""))
    assert re.search(r"实测：中位等级分的人约 \d+% 答对（20 个作答）；标注：中 ⚠ 除猜对外几乎无人答对、标注难度与实测不符",
                     paper.text)


async def test_the_leads_card_shows_the_estimate_beside_the_score_in_both_languages(env):
    db, now = env.db, env.clock.now()
    await people(db, (BOB, "Bob"))
    [(invite, token)] = await store.create(db, paper_id=env.papers["hire"], team=None, lead=ADMIN, now=now,
                                           window=3600, admin=True)
    await open_link(db, token, user_id=BOB, username=None, now=now)
    attempt = await sit(db, BOB, env.papers["hire"], {0, 1}, now, invite_id=invite.id)
    card = await load_lead_card(db, attempt, invite.id, Viewer(Role.admin, ADMIN))
    sheet, inv = card.sheet, card.invite
    result = compute_result(sheet.items, sheet.answers)
    en, _ = invite_render.result_card(inv, sheet.attempt, result, "Bob", "en", vis=card.vis, ability=card.ability)
    zh, _ = invite_render.result_card(inv, sheet.attempt, result, "Bob", "zh", vis=card.vis, ability=card.ability)
    score = en.splitlines().index("Score: 2/4 (50.0%)")
    assert re.fullmatch(r"Ability on this paper: " + BAND.pattern + ", read against the same question difficulties "
                        "for every candidate.", en.splitlines()[score + 1])
    assert re.search(r"本卷能力估计：\d+（很可能在 \d+–\d+ 之间），所有候选人按同一套题目难度计算。", zh)
