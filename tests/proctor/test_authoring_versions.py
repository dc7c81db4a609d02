"""Migration 020 on a bank with a /keyfix made before it: every record kept, each version's key kept
readable, and an answer given before the fix still shows the key it was graded against."""

import shutil

from bank.paper_store import get_question
from proctor.exams import service as attempts
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files
from tests.harness import T0
from tests.old_rows import old_paper
from tests.papers_fixture import small_paper

ANN, LEAD = 30, 10


# SQLite only: the upgrade path of a SQLite file through migration 020
async def test_a_key_fixed_before_020_keeps_every_version(tmp_path):
    old_dir = tmp_path / "migrations"
    old_dir.mkdir()
    for version, path in migration_files():
        if version < 20:
            shutil.copy(path, old_dir / path.name)
    db = await Database.open(tmp_path / "p.db", migrations_dir=old_dir)
    try:
        await old_paper(db, small_paper(), T0)  # as the release before 020 wrote it
        qid = await db.scalar("SELECT id FROM questions WHERE kind='single' ORDER BY id LIMIT 1")

        def transaction(conn):  # the schema itself: rows as the code before migration 020 wrote them
            conn.execute("INSERT INTO users (id, first_name, created_at) VALUES (?, 'Ann', 0)", (ANN,))
            cur = conn.execute(
                "INSERT INTO attempts (user_id, chat_id, paper_id, mode, title, status, started_at, finished_at, "
                "score, max_score) VALUES (?,?,1,'exam','t','finished',0,60,0,2) RETURNING id", (ANN, ANN))
            aid = (cur.fetchone())[0]
            conn.execute("INSERT INTO attempt_items (attempt_id, pos, question_id, section, points) "
                         "VALUES (?,0,?,'s',2)", (aid, qid))
            conn.execute("INSERT INTO answers (attempt_id, pos, question_id, response, score, max_score, "
                         "verdict, answered_at) VALUES (?,0,?,'\"B\"',0,2,'wrong',60)", (aid, qid))
            cur = conn.execute("INSERT INTO disputes (user_id, question_id, chat_id, reason, created_at) "
                               "VALUES (?,?,?,?,?) RETURNING id", (ANN, qid, ANN, "B is right", T0))
            return aid, cur.fetchone()[0]

        aid, dispute_id = await db.run_write(transaction)
    finally:
        await db.close()
    # 019's /keyfix without a regrade: the row 018 stores (what the code of the time wrote)
    db = await Database.open(tmp_path / "p.db", migrations_dir=old_dir)
    try:

        def transaction(conn):
            conn.execute("UPDATE questions SET answer='\"B\"', key_version=2 WHERE id=?", (qid,))
            conn.execute("INSERT INTO key_versions (question_id, version, answer, previous, dispute_id, actor, "
                         "created_at) VALUES (?,2,'\"B\"','\"C\"',?,?,?)", (qid, dispute_id, LEAD, T0))

        await db.run_write(transaction)
    finally:
        await db.close()

    db = await Database.open(tmp_path / "p.db", migrations_dir=MIGRATIONS_DIR)
    try:
        assert await db.user_version() >= 20
        assert tuple(await db.fetchone("SELECT field, answer, previous FROM key_versions")) == ("key", '"B"', '"C"')
        versions = [tuple(r) for r in await db.fetchall(
            "SELECT version, answer FROM question_versions WHERE question_id=? ORDER BY version", (qid,))]
        assert versions == [(1, '"C"'), (2, '"B"')]
        sheet = await attempts.load_sheet(db, aid, positions="all")
        assert sheet.question(sheet.items[0]).answer == "C"  # the key Ann's answer was graded against
        assert sheet.answers[0].score == 0
        assert (await get_question(db, qid)).answer == "B"
    finally:
        await db.close()
