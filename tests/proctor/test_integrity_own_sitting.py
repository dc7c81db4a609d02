"""A candidate is compared with other people, never with their own sittings of the paper: a written
answer is not "similar" to their own earlier one, and the `quick` signal's median counts other people's
finished exams only (migration 034's index, read without a row of the table)."""

import statistics

from bank.store import Engine
from proctor.exams import integrity
from proctor.exams.visibility import OPERATOR, lens
from proctor.integrity.signals import Signal
from proctor.people.users import ensure_user
from tests.papers_fixture import save_paper, small_paper
from tests.postgres_fixtures import sqlite_only
from tests.proctor.test_integrity_signals import COPIED, OWN, T0, WRITTEN, _paper, sit_exam


async def test_a_second_sitting_with_the_same_answer_is_not_a_signal_a_copy_by_another_is(db):
    pid = await _paper(db)
    first = await sit_exam(db, pid, 7, short=WRITTEN, start=T0, step=60)
    second = await sit_exam(db, pid, 7, short=WRITTEN, start=T0 + 3600, step=60)
    assert await integrity.counts(db, [first, second]) == {}
    cy = await sit_exam(db, pid, 9, short=COPIED, start=T0 + 7200, step=60)
    assert (await integrity.counts(db, [cy]))[cy] == {Signal.similar: 2}  # like both of Ann's sittings
    assert {e.other_user_id for e in (await integrity.evidence(db, [cy], await lens(db, OPERATOR, None)))[cy]} == {7}


async def test_the_quick_median_counts_other_peoples_sittings_never_the_candidates_own(db):
    pid = await save_paper(db, small_paper(), T0)
    for uid in (9, *range(20, 25)):
        await ensure_user(db, uid, f"u{uid}", None, 0)
    others = [800, 900, 1000, 1100, 1200]  # five other people: the median is 1000 s
    for i, seconds in enumerate(others):
        await sit_exam(db, pid, 20 + i, short=OWN, start=T0, step=60, end=T0 + seconds)
    start = T0 + 10_000
    for _ in range(7):  # Cy sits the paper again and again in 100 s: his own sittings would make it the median
        await sit_exam(db, pid, 9, short=OWN, start=start, step=10, end=start + 100)
        start += 1_000
    last = await sit_exam(db, pid, 9, short=OWN, start=start, step=10, end=start + 100)
    assert (await integrity.counts(db, [last]))[last].get(Signal.quick) == 1
    [found] = [e for e in (await integrity.evidence(db, [last], await lens(db, OPERATOR, None)))[last] if e.code == Signal.quick]
    assert (found.value, found.bound) == (100.0, statistics.median(others))


def _table_reads(conn, sql: str, params: tuple) -> list[str]:
    """The opcodes of `sql`'s program that read a column or the rowid of the table `attempts` itself."""
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE type='table' AND name='attempts'").fetchone()[0]
    program = conn.execute(f"EXPLAIN {sql}", params).fetchall()
    tables = {r[2] for r in program if r[1] == "OpenRead" and r[3] == root}  # the cursors on the table
    return [r[1] for r in program if r[1] in ("Column", "Rowid", "SeekRowid") and r[2] in tables]


@sqlite_only  # SQLite only: it reads SQLite's own query plan (sqlite_schema root pages)
async def test_the_median_reads_the_durations_index_alone(db):
    def plan(conn):
        durations = integrity._DURATIONS[Engine.sqlite]  # SQLite's program (EXPLAIN): its index hint
        count = f"SELECT COUNT(*) {durations}"
        pick = f"SELECT finished_at - started_at {durations} ORDER BY finished_at - started_at LIMIT 2"
        return _table_reads(conn, count, (1, 9)), _table_reads(conn, pick, (1, 9))

    assert await db.run(plan) == ([], [])
