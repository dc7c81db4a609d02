"""Ideas that had drifted into two copies now have one home; each test shows the two old paths now agree."""

from __future__ import annotations

from datetime import date

from bank.paper_store import load_paper
from proctor.teams import audit
from proctor.teams.curation import set_exam_only, update_settings
from tests.papers_fixture import save_paper, small_paper
from tests.postgres_fixtures import sqlite_only
from tests.reads import question_ids


async def test_exam_only_is_written_and_audited_by_one_writer(db):
    """Before: /bankstats and the desk logged `exam_only` on paper:<id>, `proctor bank set` logged
    `paper_settings` on paper:<slug>."""
    pid = await save_paper(db, small_paper("demo"), 0.0)
    await set_exam_only(db, pid, True, lead=7, chat_id=None, now=1.0)
    await update_settings(db, "demo", actor=0, now=2.0, exam_only=False)
    entries = [(e.action, e.target) for e in reversed(await audit.recent(db))]
    assert entries == [("paper_settings", f"paper:{pid}")] * 2
    assert not (await load_paper(db, pid)).settings.exam_only


async def test_one_multiple_choice_policy_lookup_for_exams_and_the_daily_quiz(db):
    """Before: the exam's lookup returned a MultiPolicy, the daily quiz's a str."""
    from bank.kinds import MultiPolicy
    from bank.paper_settings import read_multi_policy

    async def multi_policy(**key):  # as the exam's and the daily quiz's steps read it, in their transaction
        return await db.run(lambda conn: read_multi_policy(conn, **key))

    pid = await save_paper(db, small_paper("demo"), 0.0)
    await update_settings(db, "demo", actor=0, now=1.0, multi_policy="weighted")
    qid = (await question_ids(db, "demo"))[0]
    by_question = await multi_policy(question_id=qid)  # the daily quiz's
    assert type(by_question) is MultiPolicy and by_question is MultiPolicy.weighted
    assert await multi_policy(paper_id=pid) is MultiPolicy.weighted  # the exam's
    assert await multi_policy(paper_id=None) is MultiPolicy.partial  # a mock paper
    assert await multi_policy(question_id=10**9) is MultiPolicy.partial


@sqlite_only  # SQLite only: it counts statements through the sqlite3 connection's trace callback
async def test_one_streak_reader_reads_a_whole_top_in_two_queries(db):
    """Before: the push's top-10 read two queries per user; the leaderboards had a batched copy."""
    from proctor.chats import ensure_chat
    from proctor.daily.delivery import create_delivery
    from proctor.daily.streaks import streak, streaks

    await save_paper(db, small_paper("demo"), 0.0)
    qid = (await question_ids(db, "demo"))[0]
    await ensure_chat(db, -5, "group", "T", 0)
    for day in (13, 14, 15):  # three quizzes nobody answered
        await create_delivery(db, -5, date(2027, 1, day), [qid], [""], 0, 0)
    seen: list[str] = []
    await db.conn.set_trace_callback(seen.append)
    try:
        runs = await streaks(db, -5, list(range(1, 11)), "2027-01-15")
    finally:
        await db.conn.set_trace_callback(None)
    assert runs == {uid: 0 for uid in range(1, 11)}
    assert len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 2
    assert await streak(db, -5, 3, "2027-01-15") == 0


async def test_one_zone_rule_for_the_push_and_the_leaderboards(tmp_path):
    """Before: the push read chats.timezone strictly (a stale zone name stopped it) while the
    leaderboards fell back to the configured zone; both now ask proctor.chats.chat_zone."""
    from bot.daily import push
    from proctor.chats import chat_zone
    from tests.harness import BotEnv

    env = BotEnv(tmp_path, timezone="Asia/Shanghai")
    await env.start()
    try:
        from proctor.chats import ensure_chat, set_timezone

        await ensure_chat(env.db, -7, "group", "T", 0)
        await ensure_chat(env.db, -8, "group", "U", 0)

        def transaction(conn):  # a zone name the tz database no longer knows, and a good one
            set_timezone(conn, -7, "Mars/Base", 0)
            set_timezone(conn, -8, "Europe/Berlin", 0)

        await env.db.run_write(transaction)
        for chat, expected in ((-7, "Asia/Shanghai"), (-8, "Europe/Berlin")):
            schedule, _ = await push.schedule_for(env.app, chat)
            assert str(schedule.tz) == str(await chat_zone(env.db, chat, "Asia/Shanghai")) == expected
    finally:
        await env.close()
