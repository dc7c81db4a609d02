"""The visibility matrix's seeded history, made once per test process as people make it (the real bot
over the fake Bot API, with the production steps for the answers), then copied per test.

What it leaves (tests/visibility_world.py names the people and groups):
- the stranger sat all three papers (the invite-only one invited by the verified team, with a note to
  its group), each written answer carrying the stranger's canary; the roster member sat them too,
  with a near-identical written answer (the "similar answer" evidence) and disputed the fill-in and the
  first single choice of each paper (the dispute canary);
- the verified lead scored the member's invited written answer (a review notice); a configured admin
  upheld and fixed the key of the stranger's dispute on the exam-only paper's second single choice (key
  fix notices); the stranger's written answers await review;
- the verified and the revoked team are verified for every hiring paper; each candidate is in the
  middle of an exam on their paper (the invite-only one through the revoked team's invite);
- both teams' groups get the daily quiz (one quiz each, answered and closed).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

from bank.kinds import Kind
from bot import outbox
from proctor import hiring
from proctor.exams import service as attempts
from proctor.exams.states import FinishReason
from proctor.exams.visibility import Role, Viewer
from proctor.storage.db import Database
from proctor.teams import disputes, key_fix, review, roster
from proctor.teams.curation import update_settings
from sandbox.fakeapi import FakeBotApi
from tests.answering import answer
from tests.bot.test_daily_support import fast
from tests.desk_helpers import DeskEnv
from tests.harness import T0, TOKEN
from tests.reads import attempts_of, paper_id, question_ids
from tests.visibility_world import (
    ANSWER_TEXT,
    CANDIDATES,
    DECOY,
    GROUPS,
    PEOPLE,
    REVOKED,
    SELF_MADE,
    SLUGS,
    VERIFIED,
    Canary,
    PaperKind,
    Who,
    canary_paper,
    decoy_paper,
    word,
)

FIRST_UPDATE = 1_000_000  # the copy's Telegram sends update ids above the seeded run's (its claims hold those)
LINK = re.compile(r"https://t\.me/proctor_bot\?start=(inv_[A-Za-z0-9_-]+)")
_made: Path | None = None


def make_world(env: DeskEnv) -> None:
    """The people and groups at the fake Telegram (its state is not in the database)."""
    for p in PEOPLE.values():
        env.api.user(p.user_id, p.name, username=p.username)
    for g in GROUPS:
        group = env.api.group(g.chat_id, g.title)
        group.set_admins([PEOPLE[g.lead].user_id])
        group.add_members(*(PEOPLE[w].user_id for w in (g.lead, *g.members)))


def user(env: DeskEnv, who: Who):
    return env.api.user(PEOPLE[who].user_id)


def new_env(folder: Path, *, after_seed: bool = False) -> DeskEnv:
    """The bot serving the desk, its configured admin the world's. `after_seed`: on the seeded copy,
    whose claims hold the seeded run's update ids: Telegram's next ids are larger."""
    env = DeskEnv(folder, admins=(PEOPLE[Who.admin].user_id,))
    if after_seed:
        env.api = FakeBotApi(TOKEN, bot_username="proctor_bot", clock=env.clock.now, first_update_id=FIRST_UPDATE)
    return env


async def seeded(folder: Path) -> Path:
    """A copy of the seeded database in `folder` (the file a DeskEnv there opens)."""
    global _made
    if _made is None:
        build = Path(tempfile.mkdtemp(prefix=f"visibility-{os.getpid()}-"))
        atexit.register(shutil.rmtree, build, True)
        await _seed(build)
        _made = build / "proctor.db"
    target = folder / "proctor.db"
    shutil.copyfile(_made, target)
    return target


async def _say(env: DeskEnv, who: Who, text: str, chat: int | None = None) -> None:
    await user(env, who).send(text, chat=chat)
    await env.idle()


async def _sit(env: DeskEnv, who: Who, kind: PaperKind, payload: str | None = None) -> int:
    """Start a sitting as a person does (/exam <paper> and Start, or the invite's link and Start);
    returns the attempt's id."""
    person = user(env, who)
    await person.send(f"/exam {SLUGS[kind]}" if payload is None else f"/start {payload}")
    card = await person.wait_message(lambda m: "▶️ Start" in m.button_texts)
    await person.press(card, "▶️ Start")
    await env.idle()
    running = await attempts.running_attempt(env.db, PEOPLE[who].user_id)
    assert running is not None and running.paper_id == await paper_id(env.db, SLUGS[kind]), running
    return running.id


async def _answer_all(env: DeskEnv, attempt_id: int, written: str) -> None:
    """A choice right and a choice wrong, the fill-in wrong, the written answer `written`."""
    sheet = await attempts.load_sheet(env.db, attempt_id, positions="all")
    for item in sheet.items:
        q = sheet.question(item)
        response: object = {Kind.single: "A" if q.number == 1 else "B", Kind.fill: "no idea"}.get(q.kind, written)
        await answer(env.db, attempt_id, item.pos, response, env.clock.now())


async def _invite(env: DeskEnv, lead: Who, chat: int, kind: PaperKind, extra: str = "") -> str:
    """/invite in the team's group; the payload of the link the lead got privately."""
    person = user(env, lead)
    before = len(person.chat())
    await person.send(f"/invite {SLUGS[kind]} 48h {extra}".strip(), chat=chat)
    card = await env.api.wait_for(lambda: next((m for m in person.chat()[before:] if m.photo is not None), None),
                                  what="the invite's link card")
    found = LINK.search(card.caption or "")
    assert found, card.caption
    return found.group(1)


async def _hand_in(env: DeskEnv, attempt_id: int) -> None:
    assert await attempts.finish_attempt(env.db, attempt_id, env.clock.now(), FinishReason.submitted)
    outbox.kick(env.app)
    await env.idle()


async def _seed(folder: Path) -> None:
    env = new_env(folder)
    await env.seed(*(canary_paper(k) for k in PaperKind), decoy_paper())
    db = await Database.open(env.db_path)  # a paper's file does not make it invite-only: a lead's setting does
    try:
        await update_settings(db, SLUGS[PaperKind.invite_only], actor=0, now=T0, invite_only=True)
    finally:
        await db.close()
    await env.start()
    fast(env)
    try:
        await _history(env)
    finally:
        await env.close()


async def _history(env: DeskEnv) -> None:
    make_world(env)
    db, now = env.db, env.clock.now
    admin = PEOPLE[Who.admin].user_id
    for p in PEOPLE.values():
        await user(env, p.who).send("/start")
    await env.idle()
    # the groups learn their members; the rosters: the member asks to join, each lead accepts
    for g in GROUPS:
        for who in (g.lead, *g.members):
            await user(env, who).send("/team", chat=g.chat_id)
        await env.idle()
        for who in g.roster:
            assert await roster.request(db, g.chat_id, PEOPLE[who].user_id, in_group=True, now=now()) \
                == roster.Outcome.asked
            assert await roster.accept(db, g.chat_id, PEOPLE[who].user_id, lead=PEOPLE[g.lead].user_id,
                                       in_group=True, now=now()) == roster.Outcome.joined
    for chat in (VERIFIED, REVOKED):
        await hiring.verify(db, chat, None, actor=admin, now=now())
    env.clock.advance(60)
    # the sittings: the stranger first, then the member with a near-identical written answer
    for who, written in ((Who.stranger, f"{word(Canary.others_answers, PaperKind.practice)} {ANSWER_TEXT}"),
                         (Who.member, ANSWER_TEXT)):
        for kind in PaperKind:
            text = written.replace(word(Canary.others_answers, PaperKind.practice),
                                   word(Canary.others_answers, kind))
            payload = await _invite(env, Who.lead_verified, VERIFIED, kind, "notify") \
                if kind is PaperKind.invite_only else None
            attempt = await _sit(env, who, kind, payload)
            env.clock.advance(120)
            await _answer_all(env, attempt, text)
            env.clock.advance(120)
            await _hand_in(env, attempt)
    mia, sam = PEOPLE[Who.member].user_id, PEOPLE[Who.stranger].user_id
    for kind in PaperKind:
        fill = (await question_ids(db, SLUGS[kind], Kind.fill))[0]
        single = (await question_ids(db, SLUGS[kind], Kind.single))[0]
        for qid in (fill, single):
            await _say(env, Who.member, f"/dispute {qid} {word(Canary.dispute, kind)} the key looks wrong")
    # the verified lead scores the member's invited written answer: a review notice
    invite_paper = await paper_id(db, SLUGS[PaperKind.invite_only])
    [invited] = [a for a in await attempts_of(db, mia) if a.paper_id == invite_paper]
    sheet = await attempts.load_sheet(db, invited.id, positions="all")
    [written] = [i.pos for i in sheet.items if sheet.question(i).kind == Kind.short]
    await review.set_final(db, invited.id, written, 3, viewer=Viewer(Role.lead, PEOPLE[Who.lead_verified].user_id),
                           scope=VERIFIED,
                           now=now())
    # a configured admin upholds the stranger's dispute of the exam-only paper's second choice and fixes its
    # key: key fix notices
    second = (await question_ids(db, SLUGS[PaperKind.exam_only], Kind.single))[1]
    dispute = await disputes.raise_dispute(db, question_id=second, user_id=sam, chat_id=sam, reason="wrong key",
                                           now=now())
    await disputes.resolve(db, dispute, upheld=True, lead=admin, chat_id=None, now=now())
    await key_fix.fix_key(db, dispute, actor=admin, now=now(), chat_id=None, key="B")
    outbox.kick(env.app)
    await env.idle()
    # the daily quiz in both teams' groups: pushed, answered by the member, closed
    for chat, lead in ((VERIFIED, Who.lead_verified), (SELF_MADE, Who.lead_unverified)):
        await _say(env, lead, "/daily on 09:00 UTC", chat=chat)
        await _say(env, lead, "/daily now", chat=chat)
    # the candidates start their exams last: nothing above is sealed for them
    for kind, who in CANDIDATES.items():
        # the invite-only candidate was invited by the team whose verification is revoked mid-run
        payload = await _invite(env, Who.lead_revoked, REVOKED, kind, "notify") \
            if kind is PaperKind.invite_only else None
        attempt = await _sit(env, who, kind, payload)
        sheet = await attempts.load_sheet(env.db, attempt)
        await answer(env.db, attempt, sheet.items[0].pos, "A", now())
    assert await paper_id(db, DECOY)
    await env.idle()
