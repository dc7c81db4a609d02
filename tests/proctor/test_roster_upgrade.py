"""Migration 026 on rosters written by the release before it: every member is kept; one a lead added
without their consent is marked (an invitation waiting for them) and their leads see nothing of
theirs until they accept; one who asked (/join) joined when a lead decided."""

from __future__ import annotations

import shutil
import sqlite3

from proctor.audit import record_audit
from proctor.exams.visibility import Role, Viewer, lens
from proctor.storage.db import MIGRATIONS_DIR, Database, migration_files
from proctor.teams import review, roster
from proctor.teams.consent import seen_since
from proctor.teams.roster import Outcome, Standing
from tests.proctor.test_leads_data import OldCrafted

ALPHA, LEAD = -100, 9
# SQLite only: the upgrade path of a SQLite file
LEA = Viewer(Role.lead, LEAD)  # the group's lead, as the read rule knows them
STRANGER, ASKED, ASKED_THEN_ADDED, PENDING, SAME_INSTANT = 1, 2, 3, 4, 5

# The statements proctor/teams/roster.py wrote them with up to migration 025 (commit d748677),
# copied here on purpose: the rows must look exactly as that release left them.
OLD_REQUEST = "INSERT INTO team_roster (chat_id, user_id, status, requested_at) VALUES (?,?,?,?)"
OLD_ADD = """INSERT INTO team_roster (chat_id, user_id, status, requested_at, decided_by, decided_at)
             VALUES (?,?, 'member', ?,?,?)
             ON CONFLICT(chat_id, user_id) DO UPDATE SET status='member', decided_by=excluded.decided_by,
                 decided_at=excluded.decided_at WHERE status != 'member'
             RETURNING user_id"""
OLD_ACCEPT = ("UPDATE team_roster SET status='member', decided_by=?, decided_at=? "
              "WHERE chat_id=? AND user_id=? AND status='pending' RETURNING user_id")


async def old_request(db: Database, user_id: int, now: float) -> None:

    def transaction(conn):
        conn.execute(OLD_REQUEST, (ALPHA, user_id, "pending", now))

    await db.run_write(transaction)


async def old_add(db: Database, user_id: int, now: float) -> None:

    def transaction(conn):
        cur = conn.execute(OLD_ADD, (ALPHA, user_id, now, LEAD, now))
        assert cur.fetchone() is not None
        record_audit(conn, at=now, actor=LEAD, chat_id=ALPHA, action="roster_add",
                     target=f"user:{user_id}", target_user=user_id)

    await db.run_write(transaction)


async def old_accept(db: Database, user_id: int, now: float) -> None:

    def transaction(conn):
        cur = conn.execute(OLD_ACCEPT, (LEAD, now, ALPHA, user_id))
        assert cur.fetchone() is not None
        record_audit(conn, at=now, actor=LEAD, chat_id=ALPHA, action="roster_accept",
                     target=f"user:{user_id}", target_user=user_id)

    await db.run_write(transaction)


def roster_rows(path) -> set[tuple]:
    conn = sqlite3.connect(path)
    try:
        return set(conn.execute("SELECT chat_id, user_id, status, requested_at, decided_by, decided_at "
                                "FROM team_roster"))
    finally:
        conn.close()


async def test_an_upgrade_keeps_every_member_and_marks_those_added_without_consent(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    for version, path in migration_files():
        if version <= 25:
            shutil.copy(path, old / path.name)
    path = tmp_path / "p.db"
    db = await Database.open(path, migrations_dir=old)
    try:
        assert await db.user_version() == 25
        c = OldCrafted(db)
        everyone = (STRANGER, ASKED, ASKED_THEN_ADDED, PENDING, SAME_INSTANT)
        await c.group(ALPHA, "Alpha", members=everyone)
        await old_add(db, STRANGER, 100)  # /team add of someone who never asked
        await old_request(db, ASKED, 100)  # /join, then the lead's Accept
        await old_accept(db, ASKED, 200)
        await old_request(db, ASKED_THEN_ADDED, 100)  # /join, then the lead's /team add
        await old_add(db, ASKED_THEN_ADDED, 300)
        await old_request(db, PENDING, 100)  # /join, undecided
        await old_request(db, SAME_INSTANT, 400)  # /join accepted within the same clock reading
        await old_accept(db, SAME_INSTANT, 400)
        pid, qs = await c.paper(sections=(("short", 1),), points=(5.0,))
        exams = {uid: await c.exam(uid, pid, [(qs[0][0], 2, 5, 0)], 500, 560) for uid in everyone}
        # today's release showed the lead the answers of every 'member' row: the stranger's among them
        assert await db.scalar("SELECT COUNT(*) FROM team_roster WHERE status='member'") == 4
    finally:
        await db.close()
    before = roster_rows(path)
    assert len(before) == 5

    db = await Database.open(path, migrations_dir=MIGRATIONS_DIR)
    try:
        assert await db.user_version() >= 26
        assert roster_rows(path) == before  # every row, every old value
        standings = {uid: await roster.standing(db, ALPHA, uid) for uid in everyone}
        assert standings == {STRANGER: Standing.invited, ASKED: Standing.joined, ASKED_THEN_ADDED: Standing.joined,
                             PENDING: Standing.asked, SAME_INSTANT: Standing.joined}
        assert [await seen_since(db, ALPHA, uid) for uid in everyone] == [None, 200, 300, None, 400]
        # the lead sees the answers of those who agreed, never the stranger's
        seen = set()
        for skip in range(5):
            pending = await review.next_pending(db, await lens(db, LEA, ALPHA), now=1, skip=skip)
            seen.add(pending.user_id)
            assert pending.remaining == 3
        assert seen == {ASKED, ASKED_THEN_ADDED, SAME_INSTANT}
        assert await review.next_pending(db, await lens(db, LEA, ALPHA), now=1, attempt_id=exams[STRANGER]) is None
        assert await review.next_pending(db, await lens(db, Viewer(Role.admin, LEAD), None), now=1, attempt_id=exams[STRANGER]) is not None
        # the stranger accepts (/join in the group): from then on, not before
        assert await roster.request(db, ALPHA, STRANGER, in_group=True, now=1000) is Outcome.joined
        assert await review.next_pending(db, await lens(db, LEA, ALPHA), now=1, attempt_id=exams[STRANGER]) is None
        assert await seen_since(db, ALPHA, STRANGER) == 1000
    finally:
        await db.close()
