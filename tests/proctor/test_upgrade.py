"""An upgrade migrates a database written by an earlier release without losing a record.

tests/fixtures/release_0_1_0.sql is a database that release 0.1.0 (schema version 6) wrote through
the real bot (see tests/fixtures/make_release_fixture.py). It is migrated to the latest schema by
`Database.open`, then every row of every table must still be there with every old column's value,
and the bot must be able to work on it.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from bot.leads.render import pts
from proctor.exams import service as attempts
from proctor.storage.db import Database, migration_files
from sandbox.fakeapi import FakeBotApi
from tests.bot.test_daily_support import close_open_quizzes
from tests.harness import TOKEN, BotEnv, at_place, attempt_message
from tests.reads import answers_in

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RELEASES = {"0.1.0": (FIXTURES / "release_0_1_0.sql", 6),
            "2026-12-03": (FIXTURES / "release_2026_12_03.sql", 25),
            "2026-12-05": (FIXTURES / "release_2026_12_05.sql", 32)}

# A later migration that drops or renames a column or a table on purpose lists it here, with the reason.
DROPPED_COLUMNS: dict[str, set[str]] = {}  # table -> columns
RENAMED_TABLES: dict[str, str] = {}  # old name -> new name
RENAMED_COLUMNS: dict[str, dict[str, str]] = {}  # old table name -> {old column: new column}

BOB, ANN, GROUP = 1002, 1001, -100123


def load_release(dump: Path, path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.executescript(dump.read_text(encoding="utf-8"))
    finally:
        conn.close()


def tables(conn: sqlite3.Connection) -> dict[str, tuple[list[str], Counter]]:
    """Each table's column names and its rows (as a multiset of tuples in that column order)."""
    out = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"):
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]
        out[name] = cols, Counter(conn.execute(f'SELECT * FROM "{name}"'))
    return out


def rows_of(conn: sqlite3.Connection, table: str, cols: list[str]) -> Counter:
    quoted = ", ".join(f'"{c}"' for c in cols)
    return Counter(conn.execute(f'SELECT {quoted} FROM "{table}"'))


@pytest.fixture(params=sorted(RELEASES))
def release(request, tmp_path) -> tuple[Path, int]:
    dump, version = RELEASES[request.param]
    path = tmp_path / "proctor.db"
    load_release(dump, path)
    return path, version


async def test_upgrade_keeps_every_record_of_every_table(release):
    path, version = release
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == version
        before = tables(conn)
    finally:
        conn.close()
    empty = [t for t, (_, rows) in before.items() if not rows]
    assert not empty, f"the fixture should hold rows in every table: {empty}"

    db = await Database.open(path)
    try:
        assert await db.user_version() == migration_files()[-1][0]
    finally:
        await db.close()

    conn = sqlite3.connect(path)
    try:
        problems = []
        for table, (cols, old_rows) in sorted(before.items()):
            new_table = RENAMED_TABLES.get(table, table)
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (new_table,)).fetchone():
                problems.append(f"table {table} is gone")
                continue
            new_cols = {r[1] for r in conn.execute(f'PRAGMA table_info("{new_table}")')}
            kept = [c for c in cols if c not in DROPPED_COLUMNS.get(table, set())]
            renamed = [RENAMED_COLUMNS.get(table, {}).get(c, c) for c in kept]
            if gone := [c for c in renamed if c not in new_cols]:
                problems.append(f"{table}: columns gone {gone}")
                continue
            idx = [cols.index(c) for c in kept]
            old = Counter({tuple(row[i] for i in idx): n for row, n in old_rows.items()})
            missing = old - rows_of(conn, new_table, renamed)
            if missing:
                shown = list(missing.elements())[:3]
                problems.append(f"{table}: {sum(missing.values())} of {sum(old.values())} rows lost or changed, "
                                f"e.g. {dict(zip(kept, shown[0], strict=True))}" + (" ..." if len(shown) > 1 else ""))
        assert not problems, "\n".join(problems)
    finally:
        conn.close()


async def test_the_bot_works_on_an_upgraded_database(release, tmp_path):
    path, _ = release
    conn = sqlite3.connect(path)  # the schema itself: what the release stored, read before migrating
    try:
        started, pos = conn.execute(
            "SELECT started_at, current_pos FROM attempts WHERE user_id=? AND status='running'", (BOB,)).fetchone()
        last_update = conn.execute("SELECT MAX(update_id) FROM processed_updates").fetchone()[0]
        # Ann's finished exam as the release stored it (reviewed, and in later releases regraded)
        score, max_score = conn.execute(
            "SELECT score, max_score FROM attempts WHERE user_id=? AND status='finished' AND mode='exam'",
            (ANN,)).fetchone()
        ann_score = f"{score:g}/{max_score:g}"
        # the group's daily board as the release's answers add up (the board now reads a summary)
        daily = conn.execute("SELECT u.first_name, SUM(d.score) FROM daily_answers d JOIN users u ON u.id = d.user_id "
                             "WHERE d.chat_id=? GROUP BY d.user_id", (GROUP,)).fetchall()
    finally:
        conn.close()
    env = BotEnv(tmp_path, admins=(1,), shuffle=False, start=started + 60)  # inside Bob's time limit
    assert env.db_path == path
    # the same bot, still up at Telegram: its update ids go on from where the old release left them
    env.api = FakeBotApi(TOKEN, bot_username="proctor_bot", clock=env.clock.now, first_update_id=last_update + 1)
    await env.start()
    try:
        bob, ann = env.api.user(BOB, "Bob", language_code="en"), env.api.user(ANN, "Ann", language_code="en")
        # Bob's running exam resumes at the question he was on, with his draft, and takes an answer
        await bob.send("/resume")
        screen = await env.api.wait_for(lambda: attempt_message(bob.chat()), what="the exam screen")
        assert at_place(screen.text, pos + 1, 7) and "· Multiple choice ·" in screen.text, screen.text
        await bob.press(screen, "Submit")
        await env.api.wait_for(lambda: screen.edits, what="the answer is taken")
        await env.idle()
        running = await attempts.running_attempt(env.db, BOB)
        assert running is not None and (await answers_in(env.db, running.id))[pos].response == "A"
        # Ann's finished (and reviewed) exam shows in her stats and on the paper board she asks for (in
        # private: a group's board ranks its roster, which these releases had not)
        await ann.send("/mystats")
        stats = await ann.wait_message()
        assert "Demo paper demo" in stats.text and f"best {ann_score}" in stats.text, stats.text
        group = env.api.group(GROUP, "Team")
        await ann.send("/leaderboard paper demo")
        board = await ann.wait_message(lambda m: "best exam scores" in (m.text or ""))
        assert f"1. Ann — {ann_score}" in board.text, board.text
        # and the daily-quiz board over all time: every member's points as the old answers add up, once
        # the quiz the release left open has closed and posted its keys (until then it is held)
        if await close_open_quizzes(env):
            await ann.send("/leaderboard all", chat=group)
            assert "⏳" not in (await ann.wait_message(chat=group)).text
        await ann.send("/leaderboard all", chat=group)
        daily_board = await ann.wait_message(chat=group)
        assert daily and all(f"{name} — {pts(points, 'en')}" in daily_board.text for name, points in daily), \
            daily_board.text
    finally:
        await env.close()
