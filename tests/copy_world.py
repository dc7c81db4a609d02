"""A record with real content for the copy's tests (tests/proctor/test_db_copy.py), made once per test
process and copied per test: the bundled bank imported with `proctor import`, exams sat on a bundled
paper (answers, their topics summary, ratings), a daily quiz in a group and one in private (their
scores and topics summaries), an invited sitting, a live round, a dispute, the ratings recomputed."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import io
import os
import shutil
import tempfile
from datetime import date
from pathlib import Path

from bank.kinds import MultiPolicy
from bot.cli import main
from proctor.chats import ensure_chat
from proctor.daily import delivery
from proctor.exams import invited
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.invites import store
from proctor.live import answers as live_answers
from proctor.live import rounds
from proctor.live.model import Drawn
from proctor.people.users import ensure_user
from proctor.ratings_rebuild import recompute
from proctor.storage.bootstrap import open_database
from proctor.storage.db import Database
from proctor.teams import disputes
from tests.answering import a_wrong_answer, answer, answer_daily, the_key
from tests.papers_fixture import save_paper, small_paper
from tests.reads import question_ids

SEEDS = Path(__file__).resolve().parents[1] / "bank" / "seeds"
T0 = 1_800_000_000.0
ANN, BOB, CAI, DAN, LEAD = 1, 2, 3, 4, 10
GROUP = -100
_made: Path | None = None


def record(folder: Path) -> Path:
    """A copy of the world's record in `folder` (record.db)."""
    global _made
    if _made is None:
        build = Path(tempfile.mkdtemp(prefix=f"copy-world-{os.getpid()}-"))
        atexit.register(shutil.rmtree, build, True)
        _build(build / "record.db")
        _made = build / "record.db"
    target = folder / "record.db"
    shutil.copyfile(_made, target)
    return target


def _build(path: Path) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):  # the import's notes
        assert main(["--db", str(path), "import", *map(str, sorted(SEEDS.glob("*.txt")))]) == 0
    asyncio.run(_history(path))


async def _history(path: Path) -> None:
    db = await open_database(path)
    try:
        for uid, name in ((ANN, "Ann"), (BOB, "Bob"), (CAI, "Cai"), (DAN, "Dan"), (LEAD, "Lea")):
            await ensure_user(db, uid, name, None, T0)
        bundled = int(await db.scalar("SELECT MIN(id) FROM papers"))
        ann = await _sit(db, ANN, bundled, T0, wrong={0, 3})
        await _sit(db, BOB, bundled, T0 + 500, wrong={1})
        await _sit(db, CAI, bundled, T0 + 900, wrong=set(), hand_in=False)
        await save_paper(db, small_paper(), T0)
        await _daily(db)
        await _invited(db)
        await _live(db)
        asked = int(await db.scalar("SELECT question_id FROM answers WHERE attempt_id = ? AND pos = 0", (ann,)))
        dispute = await disputes.raise_dispute(db, question_id=asked, user_id=ANN, chat_id=ANN, reason="my answer is right",
                                               now=T0 + 7000)
        await disputes.resolve(db, dispute, upheld=False, lead=LEAD, chat_id=None, now=T0 + 7100)
        await recompute(db, T0 + 8000)
    finally:
        await db.close()


async def _sit(db: Database, user: int, paper: int, now: float, *, wrong: set[int], hand_in: bool = True) -> int:
    a = await attempts.start_attempt(db, user_id=user, chat_id=user, paper_id=paper, mode=AttemptMode.exam, now=now,
                                     shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    for item in sheet.items[:12]:
        q = sheet.question(item)
        await answer(db, a.id, item.pos, a_wrong_answer(q) if item.pos in wrong else the_key(q), now + 1 + item.pos)
    if hand_in:
        await attempts.finish_attempt(db, a.id, now + 100, FinishReason.submitted)
    return a.id


async def _daily(db: Database) -> None:
    qids = await question_ids(db, "demo")
    await ensure_chat(db, GROUP, "supergroup", "Team", T0)
    await ensure_chat(db, ANN, "private", "", T0)
    ours, _ = await delivery.create_delivery(db, GROUP, date(2027, 1, 15), [qids[0], qids[3]], ["ABCD", ""],
                                             T0 + 3600, T0 + 1000)
    await answer_daily(db, ours.id, 0, ANN, None, T0 + 1010)
    await answer_daily(db, ours.id, 1, ANN, None, T0 + 1020, right=False)
    await answer_daily(db, ours.id, 0, BOB, None, T0 + 1030, right=False)
    assert await delivery.claim_close(db, ours.id)
    await delivery.mark_keys_posted(db, ours.id, T0 + 3700)
    mine, _ = await delivery.create_delivery(db, ANN, date(2027, 1, 16), [qids[1]], ["ABCD"], T0 + 90000, T0 + 86400)
    await answer_daily(db, mine.id, 0, ANN, None, T0 + 86410)


async def _invited(db: Database) -> None:
    """An invited sitting: the invite names its attempt and the attempt its invite (a circle of keys)."""
    paper = int(await db.scalar("SELECT id FROM papers WHERE slug = 'demo'"))
    [(invite, token)] = await store.create(db, paper_id=paper, team=None, lead=LEAD, now=T0 + 6000, window=3600)
    await invited.open_link(db, token, user_id=DAN, username=None, now=T0 + 6000)
    a = await attempts.start_attempt(db, user_id=DAN, chat_id=DAN, paper_id=paper, mode=AttemptMode.exam,
                                     now=T0 + 6010, shuffle=False, invite_id=invite.id)
    await answer(db, a.id, 0, "C", T0 + 6020)
    await attempts.finish_attempt(db, a.id, T0 + 6100, FinishReason.submitted)


async def _live(db: Database) -> None:
    qid = (await question_ids(db, "demo"))[0]
    live = await rounds.start(db, GROUP, LEAD, [Drawn(qid, "ABCD", (2,), False, MultiPolicy.partial)], 20, "en", "orig",
                              T0 + 5000)
    await rounds.begin(db, live.id)
    await rounds.sending(db, live.id, 0, T0 + 5000)
    await rounds.opened(db, live.id, 0, "poll-1", 99, T0 + 5010, 20)
    await live_answers.answer(db, "poll-1", BOB, [2], T0 + 5013, in_group=True)
    await live_answers.answer(db, "poll-1", CAI, [1], T0 + 5014, in_group=True)
    await rounds.close_item(db, live.id, 0, T0 + 5030)
    await rounds.finish(db, live.id, T0 + 5031)
