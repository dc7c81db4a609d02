"""The database the release of 2026-12-05 left (tests/fixtures/release_2026_12_05.sql, schema 32: what
its people did is told in tests/fixtures/make_release_2026_12_05.py), upgraded by today's code.

tests/proctor/test_upgrade.py checks every old column of every row of it. Here each table keeps its
number of rows, what those rows mean reads back through today's domain as that release wrote it
(attempts with their answers and scores, daily quizzes, live rounds and their answers, invites, update
claims, the outbox, the audit log, rosters, verifications, integrity signals, disputes), and the bot
goes on from where that release stopped: the running exam, the running live round, the notice held for
a hand-in, the boards."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from bot.leads.render import pts
from proctor import hiring, outbox
from proctor.daily.states import DeliveryStatus
from proctor.exams import integrity
from proctor.exams import service as attempts
from proctor.exams.states import AttemptMode, AttemptStatus
from proctor.integrity.signals import Signal
from proctor.invites.states import InviteStatus
from proctor.live import answers as live_answers
from proctor.live import rounds
from proctor.live.plan import gap
from proctor.live.states import ItemStatus, RoundStatus
from proctor.outbox import Delivery, Kind
from proctor.storage.db import Database, migration_files
from proctor.teams import audit, roster
from proctor.teams.disputes import DisputeStatus
from proctor.teams.roster import Standing
from sandbox.fakeapi import FakeBotApi
from tests.bot.test_daily_support import close_open_quizzes
from tests.harness import TOKEN, BotEnv, at_place, attempt_message
from tests.live_support import bot_texts, run_job
from tests.proctor.test_ratings_events import replayed_as_held
from tests.proctor.test_upgrade import RENAMED_TABLES, load_release
from tests.reads import (
    OutboxRecord,
    answers_in,
    attempts_of,
    daily_answers,
    deliveries,
    dispute_status,
    invites_stored,
    outbox_due,
    outbox_record,
    rating_events,
    reviewer_of,
    unfinished_updates,
)

RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "release_2026_12_05.sql"
BOT = 123456  # the harness token's bot id
ADA, MAX, LEA, ANN, BOB, CAI, CID, DAN, EVE, FAY = 1, 2, 10, 1001, 1002, 1003, 1004, 1005, 1006, 1007
GROUP = -100123
DEMO, HIRE = 1, 2  # paper ids (codes P1, P2)

# Every table's rows as the release left them. A later migration that adds or removes rows of a table
# on purpose changes its number here, saying why.
ROWS = {
    "answers": 49, "attempt_items": 70, "attempt_signals": 9, "attempts": 10, "audit_log": 40,
    "authoring_sessions": 2, "chat_members": 5, "chats": 2, "composed_items": 3, "daily_answer_keys": 3,
    "daily_answers": 10, "daily_deliveries": 2, "daily_drafts": 1, "daily_items": 10, "daily_scores": 3,
    "daily_subscriptions": 2, "daily_topics": 10, "desk_tokens": 2, "digest_schedules": 1, "disputes": 3,
    "exam_topics": 29, "held_regrades": 3, "invites": 3, "item_stats_cache": 12, "item_stats_computed": 1,
    "key_versions": 3, "live_answers": 7, "live_items": 5, "live_rounds": 2, "outbox": 23, "papers": 4,
    "pending_uploads": 1, "processed_updates": 187, "question_checks": 24, "question_drafts": 1,
    "question_versions": 6, "questions": 24, "review_cards": 9, "sections": 15, "team_roster": 5,
    "team_verifications": 1, "users": 10, "written_answers": 6,
}
# The ratings (migration 039) are built at start-up from the release's answers (proctor/ratings_rebuild.py):
# every first answer that had counted (6 finished exams of 6 answers each, Ann's private quiz's 2 new
# questions, her reviewed written answer, 5 live answers; not Cid's invited exam, Bob's running one, the
# group's open quiz nor repeats), 6 people, 12 questions
RATED = {"rating_events": 44, "person_ratings": 6, "question_ratings": 12, "rating_builds": 1}


def row_counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                            "AND name NOT LIKE 'sqlite_%'")]
        return {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


@pytest.fixture
def release(tmp_path) -> Path:
    path = tmp_path / "proctor.db"
    load_release(RELEASE, path)
    return path


@pytest.fixture
async def upgraded(release):
    db = await Database.open(release)
    try:
        assert await db.user_version() == migration_files()[-1][0]
        yield db
    finally:
        await db.close()


def test_the_release_left_rows_in_every_table(release):
    assert row_counts(release) == ROWS


async def test_every_table_keeps_its_rows(release):
    db = await Database.open(release)
    await db.close()
    after = row_counts(release)
    kept = {old: after.get(RENAMED_TABLES.get(old, old)) for old in ROWS}
    assert kept == ROWS
    assert {t: after[t] for t in RATED} == dict.fromkeys(RATED, 0)  # built at start-up, not by a migration


async def test_the_exams_read_back_with_their_answers_and_scores(upgraded):
    db = upgraded
    assert [(a.user_id, a.paper_id, a.mode, a.status, a.score, a.max_score) for a in await attempts_of(db)] == [
        (ANN, DEMO, AttemptMode.exam, AttemptStatus.finished, 8.0, 15.0),
        (CAI, DEMO, AttemptMode.exam, AttemptStatus.finished, 6.0, 15.0),
        (BOB, DEMO, AttemptMode.exam, AttemptStatus.finished, 5.0, 15.0),
        (DAN, DEMO, AttemptMode.exam, AttemptStatus.finished, 4.0, 15.0),
        (EVE, DEMO, AttemptMode.exam, AttemptStatus.finished, 6.5, 15.0),
        (FAY, DEMO, AttemptMode.exam, AttemptStatus.finished, 5.0, 15.0),
        (BOB, DEMO, AttemptMode.practice, AttemptStatus.cancelled, 2.0, 15.0),
        (ANN, DEMO, AttemptMode.practice, AttemptStatus.running, None, 15.0),
        (CID, HIRE, AttemptMode.exam, AttemptStatus.finished, 2.0, 15.0),
        (BOB, DEMO, AttemptMode.exam, AttemptStatus.running, None, 15.0),
    ]
    # Ann's exam: her first answer wrong, three keys fixed after (questions 1 and 2 by disputes, 4 by
    # /editq), her written answer scored 4 of 5 by Lea
    ann = await answers_in(db, 1)
    assert [(a.response, a.score, a.verdict.value, a.final, a.key_version) for a in ann.values()] == [
        ("A", 0.0, "wrong", True, 2), ("C", 0.0, "wrong", True, 2), ("AB", 2.0, "correct", True, 1),
        (False, 0.0, "wrong", True, 2), ("图形处理器", 1.0, "correct", True, 1),
        ("低秩近似、量化低秩近似", 1.0, "correct", True, 1),
        ("梯度累积就是把几个小批次的梯度加起来，再统一更新一次参数。", 4.0, "partial", True, 1)]
    assert await reviewer_of(db, 1, 6) == LEA
    # Bob's written answer still waits for review; his running exam: a flag, two answers, a multi draft
    assert [(a.score, a.final) for a in (await answers_in(db, 3)).values()][6] == (1.0, False)
    sheet = await attempts.load_sheet(db, 10, positions="all")
    assert (sheet.attempt.current_pos, sheet.items[0].flagged, sheet.items[2].draft) == (2, True, "A")
    assert [(a.response, a.score, a.key_version) for a in sheet.answers.values()] == [("B", 2.0, 2), ("C", 2.0, 1)]


async def test_the_daily_quizzes_read_back_with_their_answers(upgraded):
    db = upgraded
    assert [(d.chat_id, d.day, d.status) for d in await deliveries(db)] == [
        (ANN, "2027-01-15", DeliveryStatus.open), (GROUP, "2027-01-16", DeliveryStatus.open)]
    # every answer right as given; each quiz's first question (#2, #1) had its key fixed after, by a dispute
    assert [(a.user_id, a.pos, a.score, a.verdict.value) for a in await daily_answers(db)] == [
        (ANN, 0, 0.0, "wrong"), (ANN, 1, 2.0, "correct"), (ANN, 2, 1.0, "correct"), (ANN, 3, 1.0, "correct"),
        (ANN, 4, 2.0, "correct"),
        (ANN, 0, 0.0, "wrong"), (ANN, 3, 2.0, "correct"), (ANN, 4, 2.0, "correct"),
        (BOB, 0, 0.0, "wrong"), (BOB, 3, 2.0, "correct")]


async def test_the_live_rounds_read_back_with_their_answers(upgraded):
    db = upgraded
    first, items = await rounds.load(db, 1)
    assert (first.status, first.podium_posted, [i.status for i in items]) == (
        RoundStatus.finished, True, [ItemStatus.closed] * 3)
    board = await live_answers.standings(db, 1, top=5)
    assert [(s.rank, s.user_id, s.points, s.right, s.answers) for s in board.top] == [
        (1, ANN, 3000, 3, 3), (2, BOB, 1750, 2, 3)]
    second, items = await rounds.load(db, 2)
    assert (second.status, [i.status for i in items]) == (RoundStatus.asking, [ItemStatus.open, ItemStatus.pending])
    assert items[0].poll_id is not None and items[0].closes_at is not None
    assert [(s.user_id, s.points) for s in (await live_answers.standings(db, 2, top=5)).top] == [(BOB, 900)]


async def test_invites_verifications_and_signals_read_back(upgraded):
    db = upgraded
    assert [(i.paper_id, i.team_chat_id, i.status, i.candidate_id, i.attempt_id, i.extra_min, i.for_username)
            for i in await invites_stored(db)] == [
        (HIRE, GROUP, InviteStatus.finished, CID, 9, 15, None), (HIRE, GROUP, InviteStatus.open, None, None, 0, None),
        (HIRE, GROUP, InviteStatus.revoked, None, None, 0, "dan")]
    assert [(v.chat_id, v.paper_id, v.verified_by) for v in await hiring.listing(db)] == [(GROUP, HIRE, ADA)]
    # Eve handed in Ann's written answer; Fay handed in at once, every right answer faster than reading
    assert await integrity.counts(db, range(1, 11)) == {
        1: {Signal.similar: 1}, 5: {Signal.similar: 1}, 6: {Signal.fast: 6, Signal.quick: 1}}


async def test_rosters_disputes_claims_outbox_and_audit_read_back(upgraded):
    db = upgraded
    # Eve left the group: leaving ends consent, so her row (kept as written) reads as invited again
    assert [(e.user_id, e.standing, e.left) for e in await roster.listing(db, GROUP)] == [
        (ANN, Standing.joined, False), (BOB, Standing.joined, False), (EVE, Standing.invited, True),
        (FAY, Standing.invited, False), (DAN, Standing.asked, False)]
    assert [await dispute_status(db, i) for i in (1, 2, 3)] == [
        DisputeStatus.upheld, DisputeStatus.open, DisputeStatus.upheld]
    assert await unfinished_updates(db, BOT) == [187]  # Cai's /mystats, cut off with its run
    # every card delivered, but three to Fay (she blocked the bot) and Bob's notice held for his hand-in
    assert await outbox.counts(db) == {Delivery.delivered: 19, Delivery.undeliverable: 3, Delivery.pending: 1}
    assert await outbox_record(db, Kind.key_fix_notice, "1:1007") == OutboxRecord(
        Delivery.undeliverable, 1, "Forbidden: Forbidden: bot was blocked by the user")
    assert await outbox_record(db, Kind.key_fix_notice, "3:1002") == OutboxRecord(Delivery.pending, 0, None)
    assert await outbox_due(db, 2e9) == []
    # the key fix held for Bob's running exam (attempt 10): his earlier exam, his practice, the sheet
    held = await db.fetchall("SELECT attempt_id, question_id, until_attempt FROM held_regrades ORDER BY attempt_id")
    assert [tuple(r) for r in held] == [(3, 2, 10), (7, 2, 10), (10, 2, 10)]  # no domain read: the table itself
    actions = Counter(str(e.action) for e in await audit.recent(db, limit=1000))
    assert actions == {
        "daily_on": 1, "digest": 1, "dispute_upheld": 2, "invite_claim": 1, "invite_create": 3, "invite_revoke": 1,
        "key_fix": 2, "paper_compose": 1, "paper_settings": 2, "question_edit": 1, "regrade": 14, "report": 1,
        "restore": 1, "retire": 2, "review": 1, "roster_accept": 2, "roster_consent": 1, "roster_invite": 2,
        "team_verify": 1}, actions


async def test_the_bot_goes_on_from_where_the_release_stopped(release, tmp_path):
    conn = sqlite3.connect(release)  # what the release stored, read before migrating
    try:
        started = conn.execute("SELECT started_at FROM attempts WHERE id=10").fetchone()[0]
        last_update = conn.execute("SELECT MAX(update_id) FROM processed_updates").fetchone()[0]
        daily = conn.execute("SELECT u.first_name, SUM(d.score) FROM daily_answers d JOIN users u ON u.id = d.user_id "
                             "WHERE d.chat_id=? GROUP BY d.user_id", (GROUP,)).fetchall()
    finally:
        conn.close()
    env = BotEnv(tmp_path, admins=(ADA, MAX), shuffle=False, start=started + 60)  # inside Bob's time limit
    assert env.db_path == release
    # the same bot, still up at Telegram: its update ids go on from where the release left them
    env.api = FakeBotApi(TOKEN, bot_username="proctor_bot", clock=env.clock.now, first_update_id=last_update + 1)
    await env.start()
    try:
        assert {t: n for t, n in row_counts(release).items() if t in RATED} == RATED
        assert [(e.user_id, e.question_id, e.correct) for e in await rating_events(env.db, BOB)][:2] == [
            (BOB, 1, 0.0), (BOB, 2, 1.0)]  # his "C" to question 2, right by the key then in force
        await replayed_as_held(env.db)
        group = env.api.group(GROUP, "Team")
        group.set_admins([LEA])
        group.add_members(ANN, BOB)
        ann, bob = env.api.user(ANN, "Ann", language_code="en"), env.api.user(BOB, "Bob", language_code="en")
        lea = env.api.user(LEA, "Lea", language_code="en")
        # the running live round goes on: its open poll closes with Bob's answer, the last one is asked
        await run_job(env, "live:2")
        await env.idle()
        env.clock.advance(gap(20))
        await run_job(env, "live:2")
        await env.idle()
        env.clock.advance(20)
        await run_job(env, "live:2")
        await env.idle()
        podium = bot_texts(env, GROUP)[-1]
        assert podium.startswith("🏁 Live round over · 1 player") and "Bob — 900" in podium, podium
        assert (await rounds.load(env.db, 2))[0].status == RoundStatus.finished
        # Bob hands in his running exam: the fixed key regrades what waited for it, his notices go out
        await bob.send("/resume")
        screen = await env.api.wait_for(lambda: attempt_message(bob.chat()), what="the exam screen")
        assert at_place(screen.text, 3, 7) and "· Multiple choice ·" in screen.text, screen.text
        await bob.press(screen, "Finish")
        confirm = await bob.wait_message(lambda m: "Yes, finish" in m.button_texts)
        await bob.press(confirm, "Yes, finish")
        result = await bob.wait_message(lambda m: "Score:" in (m.text or ""))
        assert "1✓ 2✗ 3½" in result.text, result.text  # his "C" to question 2, graded with the fixed key B
        upheld = await bob.wait_message(lambda m: "Your dispute #3" in (m.text or ""))  # held since the fix
        assert upheld.text.endswith("was upheld: its key is fixed."), upheld.text
        regraded = await bob.wait_message(lambda m: "regraded with its fixed key" in (m.text or ""))
        assert "2 of your scores changed" in regraded.text, regraded.text  # his earlier exam and practice
        await env.idle()
        assert await outbox_record(env.db, Kind.key_fix_notice, "3:1002") == OutboxRecord(Delivery.delivered, 1, None)
        assert [(a.response, a.score, a.key_version) for a in (await answers_in(env.db, 3)).values()][1] == \
            ("C", 0.0, 2)
        assert await env.db.scalar("SELECT COUNT(*) FROM held_regrades") == 0  # no domain read: the table itself
        # the held regrade reached the ratings too: his first answer to question 2 counts as wrong now
        assert [(e.question_id, e.correct) for e in await rating_events(env.db, BOB)][:2] == [(1, 0.0), (2, 0.0)]
        await replayed_as_held(env.db)
        # Ann's stats and the team's boards as the release's records add up
        await ann.send("/mystats")
        assert "best 8/15" in (await ann.wait_message()).text
        await ann.send("/leaderboard paper P1", chat=group)
        assert "1. Ann — 8/15" in (await ann.wait_message(chat=group)).text
        # the roster: Eve out of the group, Fay's invitation and Dan's request still waiting
        await lea.send("/team", chat=group)
        listing = (await lea.wait_message(chat=group)).text
        assert "Eve (@eve) — left the group" in listing and "Fay (@fay)" in listing and "Dan (@dan)" in listing, \
            listing
        # the group's daily board over all time as the release's answers add up, once the quiz it left
        # open has closed and posted its keys (until then the board holds it and says when it closes)
        await ann.send("/leaderboard all", chat=group)
        assert "⏳ The open quiz counts here once it closes" in (await ann.wait_message(chat=group)).text
        assert await close_open_quizzes(env)  # the group's (and any private one)
        await ann.send("/leaderboard all", chat=group)
        board = (await ann.wait_message(chat=group)).text
        assert daily and all(f"{name} — {pts(points, 'en')}" in board for name, points in daily), board
    finally:
        await env.close()


async def test_the_quick_median_reads_migration_034s_index_of_other_peoples_durations(release):
    conn = sqlite3.connect(release)  # what the release stored, read before migrating
    try:
        durations = sorted(d for (d,) in conn.execute(
            "SELECT finished_at - started_at FROM attempts WHERE paper_id=? AND user_id<>? AND status='finished' "
            "AND mode='exam'", (DEMO, BOB)))
    finally:
        conn.close()
    db = await Database.open(release)
    try:
        indexes = await db.fetchall("SELECT name FROM sqlite_schema WHERE type='index' AND tbl_name='attempts' "
                                    "AND name LIKE 'attempts_exam_durations%'")
        assert [r[0] for r in indexes] == ["attempts_exam_durations_by_user"]  # 032's index replaced
        columns = await db.fetchall("SELECT name FROM pragma_index_info('attempts_exam_durations_by_user')")
        assert [r[0] for r in columns] == ["paper_id", None, "user_id"]  # None: the duration, an expression
        # Bob's own earlier exam is not among the durations his running one will be compared with
        assert len(durations) == 5
        assert await db.run(lambda c: integrity.median_duration_in(c, DEMO, BOB)) == (5, durations[2])
    finally:
        await db.close()
