"""When an answer counts for ratings (proctor/ratings/events.py and each source's rated.py): an exam's
final answers at its hand-in and nothing while it runs, practice, private daily and live answers at
once, a group's daily answers at the close that posts its keys, a written answer at its review; a
person's first answer to a question only. The ratings held are always what replaying the events by
sequence number gives, across a key fix, a late review and /forgetme."""

from __future__ import annotations

from datetime import date

import pytest

from bank.kinds import MultiPolicy
from proctor.chats import ensure_chat
from proctor.daily import delivery as dstore
from proctor.exams import invited
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, FinishReason
from proctor.exams.visibility import Role, Viewer
from proctor.invites import store
from proctor.live import answers as live_answers
from proctor.live import rounds
from proctor.live.model import Drawn
from proctor.people.forget import forget_user
from proctor.people.users import ensure_user
from proctor.ratings.events import Source, fold_in
from proctor.ratings_rebuild import recompute
from proctor.teams import disputes, key_fix, review
from tests.answering import a_wrong_answer, answer, answer_daily, the_key, tick
from tests.papers_fixture import save_paper, small_paper
from tests.reads import held_ratings, question_ids, rating_events


@pytest.fixture
def db(engine_db):
    """Every test here runs on both engines."""
    return engine_db

T0 = 1_800_000_000.0
ANN, BOB, CAI, DAN, LEAD = 1, 2, 3, 4, 10
GROUP = -100


@pytest.fixture
async def paper(db) -> int:
    pid = await save_paper(db, small_paper(), T0)
    for uid, name in ((ANN, "Ann"), (BOB, "Bob"), (CAI, "Cai"), (DAN, "Dan"), (LEAD, "Lea")):
        await ensure_user(db, uid, name, None, T0)
    return pid


async def _sit(db, user: int, paper: int, mode: AttemptMode, now: float, wrong: frozenset[int] = frozenset(),
               hand_in: bool = True) -> int:
    """`user` answers every question of the paper (the key, but a wrong answer at the positions in
    `wrong`), one a second from `now`, and hands it in at `now + 100`; the attempt's id."""
    a = await attempts.start_attempt(db, user_id=user, chat_id=user, paper_id=paper, mode=mode, now=now,
                                     shuffle=False)
    sheet = await attempts.load_sheet(db, a.id, positions="all")
    for item in sheet.items:
        q = sheet.question(item)
        await answer(db, a.id, item.pos, a_wrong_answer(q) if item.pos in wrong else the_key(q), now + 1 + item.pos)
    if hand_in:
        await attempts.finish_attempt(db, a.id, now + 100, FinishReason.submitted)
    return a.id


async def replayed_as_held(db) -> None:
    """The ratings held are what replaying the record's events by sequence number gives."""
    folded = await db.run(fold_in)
    assert await held_ratings(db) == (folded.people, folded.questions)


async def test_an_exam_moves_nothing_while_it_runs_and_its_final_answers_count_at_the_hand_in(db, paper):
    qids = await question_ids(db, "demo")
    attempt = await _sit(db, ANN, paper, AttemptMode.exam, T0, wrong=frozenset({1}), hand_in=False)
    assert await rating_events(db) == [] and await held_ratings(db) == ({}, {})
    await attempts.finish_attempt(db, attempt, T0 + 100, FinishReason.submitted)
    # the written answer (the seventh) awaits review; the truncated question was never asked
    assert [(e.question_id, e.correct, e.at, e.source) for e in await rating_events(db)] == [
        (qids[0], 1.0, T0 + 100, Source.exam), (qids[1], 0.0, T0 + 100, Source.exam),
        *[(q, 1.0, T0 + 100, Source.exam) for q in qids[2:6]]]
    people, questions = await held_ratings(db)
    assert set(people) == {ANN} and people[ANN].answers == 6 and people[ANN].mean > 0
    assert questions[qids[1]].mean > questions[qids[0]].mean  # answered wrong: found harder
    # its review, late, counts it then, with its final score
    await review.set_final(db, attempt, 6, 4.0, viewer=Viewer(Role.admin, LEAD), scope=None, now=T0 + 5000)
    last = (await rating_events(db))[-1]
    assert (last.question_id, last.correct, last.at, last.source) == (qids[6], 0.8, T0 + 5000, Source.review)
    assert (await held_ratings(db))[0][ANN].answers == 7
    await replayed_as_held(db)


async def test_only_a_persons_first_answer_to_a_question_counts(db, paper):
    qids = await question_ids(db, "demo")
    practice = (await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=paper, mode=AttemptMode.practice,
                                             now=T0, shuffle=False)).id
    await answer(db, practice, 0, "A", T0 + 1)  # wrong: counts at once
    [first] = await rating_events(db)
    assert (first.question_id, first.correct, first.source) == (qids[0], 0.0, Source.practice)
    moved = (await held_ratings(db))[0][ANN]
    assert moved.answers == 1 and moved.mean < 0
    await answer(db, practice, 0, "C", T0 + 2)  # changed to the key: a repeat measures memory
    assert await rating_events(db) == [first] and (await held_ratings(db))[0][ANN] == moved
    await attempts.finish_attempt(db, practice, T0 + 3, FinishReason.submitted)
    await _sit(db, ANN, paper, AttemptMode.exam, T0 + 10)  # the same paper: every other question counts
    counted = await rating_events(db)
    assert [e.question_id for e in counted] == qids[:6] and counted[0] == first
    await _sit(db, ANN, paper, AttemptMode.exam, T0 + 1000)  # and again: nothing more
    assert await rating_events(db) == counted
    await replayed_as_held(db)


async def test_practice_ticks_never_submitted_count_at_the_hand_in_that_counts_them(db, paper):
    qids = await question_ids(db, "demo")
    practice = (await attempts.start_attempt(db, user_id=ANN, chat_id=ANN, paper_id=paper, mode=AttemptMode.practice,
                                             now=T0, shuffle=False)).id
    assert await tick(db, practice, 2, "AB", T0 + 1) == "AB"  # the multiple choice's key, never submitted
    assert await rating_events(db) == []
    await attempts.finish_attempt(db, practice, T0 + 10, FinishReason.submitted)
    assert [(e.question_id, e.correct, e.at, e.source) for e in await rating_events(db)] == [
        (qids[2], 1.0, T0 + 10, Source.practice)]
    done = await recompute(db, T0 + 20)  # what the hand-in counted is what the record says counts
    assert (done.added, done.regraded, done.events) == (0, 0, 1)


async def test_a_daily_answer_counts_at_once_in_private_and_at_the_close_that_posts_the_keys_in_a_group(db, paper):
    qids = await question_ids(db, "demo")
    await ensure_chat(db, ANN, "private", "", T0)
    await ensure_chat(db, GROUP, "supergroup", "Team", T0)
    mine, _ = await dstore.create_delivery(db, ANN, date(2027, 1, 15), [qids[0], qids[3]], ["ABCD", ""], T0 + 3600, T0)
    await answer_daily(db, mine.id, 0, ANN, None, T0 + 5)
    assert [(e.user_id, e.question_id, e.correct, e.source) for e in await rating_events(db)] == [
        (ANN, qids[0], 1.0, Source.daily)]
    ours, _ = await dstore.create_delivery(db, GROUP, date(2027, 1, 15), [qids[1], qids[3]], ["ABCD", ""],
                                           T0 + 3600, T0)
    await answer_daily(db, ours.id, 0, BOB, None, T0 + 10)
    await answer_daily(db, ours.id, 1, BOB, None, T0 + 11, right=False)
    await answer_daily(db, ours.id, 0, ANN, None, T0 + 12, right=False)
    assert len(await rating_events(db)) == 1 and BOB not in (await held_ratings(db))[0]  # the group's keys are not out
    assert await dstore.claim_close(db, ours.id)
    assert len(await rating_events(db)) == 1  # closed to answers, its keys not yet posted
    await dstore.mark_keys_posted(db, ours.id, T0 + 3700)
    assert [(e.user_id, e.question_id, e.correct, e.at, e.source) for e in (await rating_events(db))[1:]] == [
        (ANN, qids[1], 0.0, T0 + 3700, Source.group_daily), (BOB, qids[1], 1.0, T0 + 3700, Source.group_daily),
        (BOB, qids[3], 0.0, T0 + 3700, Source.group_daily)]
    await dstore.mark_keys_posted(db, ours.id, T0 + 3800)  # posted again after a restart: counted once
    assert len(await rating_events(db)) == 4
    await replayed_as_held(db)


async def test_a_live_answer_counts_at_once(db, paper):
    qid = (await question_ids(db, "demo"))[0]
    await ensure_chat(db, GROUP, "supergroup", "Team", T0)
    live = await rounds.start(db, GROUP, LEAD, [Drawn(qid, "ABCD", (2,), False, MultiPolicy.partial)], 20, "en",
                              "orig", T0)
    await rounds.begin(db, live.id)
    await rounds.sending(db, live.id, 0, T0)
    await rounds.opened(db, live.id, 0, "poll-1", 99, T0 + 10, 20)
    await live_answers.answer(db, "poll-1", BOB, [2], T0 + 13, in_group=True)  # Telegram: Bob is in the group
    await live_answers.answer(db, "poll-1", BOB, [1], T0 + 14)  # a second vote is no answer
    assert [(e.user_id, e.question_id, e.correct, e.at, e.source) for e in await rating_events(db)] == [
        (BOB, qid, 1.0, T0 + 13, Source.live)]
    await replayed_as_held(db)


async def test_replaying_the_record_gives_the_ratings_held_across_a_key_fix_and_a_late_review(db, paper):
    qids = await question_ids(db, "demo")
    await ensure_chat(db, DAN, "private", "", T0)
    ann = await _sit(db, ANN, paper, AttemptMode.exam, T0, wrong=frozenset({0}))  # "A" to the first: wrong
    bob = await _sit(db, BOB, paper, AttemptMode.exam, T0 + 200, wrong=frozenset({3}))
    await _sit(db, CAI, paper, AttemptMode.practice, T0 + 400, wrong=frozenset({0, 2}), hand_in=False)
    quiz, _ = await dstore.create_delivery(db, DAN, date(2027, 1, 15), [qids[0]], ["ABCD"], T0 + 3600, T0 + 500)
    await answer_daily(db, quiz.id, 0, DAN, "A", T0 + 510)
    await replayed_as_held(db)
    before = await held_ratings(db)
    # Ann disputes the first question's key; the lead upholds it and fixes it to A: every answer to it regraded
    dispute = await disputes.raise_dispute(db, question_id=qids[0], user_id=ANN, chat_id=ANN, reason="A is right",
                                           now=T0 + 600)
    await disputes.resolve(db, dispute, upheld=True, lead=LEAD, chat_id=None, now=T0 + 700)
    fix = await key_fix.fix_key(db, dispute, actor=LEAD, now=T0 + 800, chat_id=None, key="A")
    assert len(fix.changes) == 4
    first = {e.user_id: e.correct for e in await rating_events(db) if e.question_id == qids[0]}
    assert first == {ANN: 1.0, BOB: 0.0, CAI: 1.0, DAN: 1.0}
    after = await held_ratings(db)
    assert after[0][ANN].mean > before[0][ANN].mean and after[0][BOB].mean < before[0][BOB].mean
    await replayed_as_held(db)
    # a late review counts Bob's written answer now, on top of the refolded ratings; more answers follow
    await review.set_final(db, bob, 6, 5.0, viewer=Viewer(Role.admin, LEAD), scope=None, now=T0 + 900)
    await review.set_final(db, ann, 6, 1.0, viewer=Viewer(Role.admin, LEAD), scope=None, now=T0 + 950)
    await _sit(db, DAN, paper, AttemptMode.exam, T0 + 1000, wrong=frozenset({1, 4}))
    counted = await rating_events(db)
    assert [e.seq for e in counted] == sorted(e.seq for e in counted)
    assert [(e.user_id, e.source) for e in counted[-7:]] == [(BOB, Source.review), (ANN, Source.review),
                                                              *[(DAN, Source.exam)] * 5]  # his first: the daily's
    await replayed_as_held(db)
    # rebuilding from the record changes nothing
    done = await recompute(db, T0 + 2000)
    assert (done.added, done.regraded, done.events) == (0, 0, len(counted))
    await replayed_as_held(db)


async def test_forgetting_a_person_deletes_their_ratings_and_folds_the_rest_without_them(db, paper):
    await _sit(db, ANN, paper, AttemptMode.exam, T0, wrong=frozenset({0}))
    await _sit(db, BOB, paper, AttemptMode.exam, T0 + 200)
    before = await held_ratings(db)
    await forget_user(db, ANN)
    assert await rating_events(db, ANN) == [] and len(await rating_events(db)) == 6
    people, questions = await held_ratings(db)
    assert set(people) == {BOB} and people[BOB] != before[0][BOB]  # Bob's questions no longer met Ann first
    assert all(q.answers == 1 for q in questions.values())
    await replayed_as_held(db)


async def test_an_invited_attempt_counts_for_nobody(db, paper):
    """A hiring candidate's answers move no question: every candidate of a round meets the same difficulties."""
    [(invite, token)] = await store.create(db, paper_id=paper, team=None, lead=LEAD, now=T0, window=3600)
    await invited.open_link(db, token, user_id=CAI, username=None, now=T0)
    a = await attempts.start_attempt(db, user_id=CAI, chat_id=CAI, paper_id=paper, mode=AttemptMode.exam, now=T0,
                                     shuffle=False, invite_id=invite.id)
    await answer(db, a.id, 0, "C", T0 + 1)
    await attempts.finish_attempt(db, a.id, T0 + 100, FinishReason.submitted)
    assert await rating_events(db) == [] and await held_ratings(db) == ({}, {})
