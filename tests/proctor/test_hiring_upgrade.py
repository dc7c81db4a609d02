"""Migration 027 (teams verified for hiring papers) on a database written by today's release: every
invite is kept as it was, and the invites an unverified team made before verification existed still
work for their candidates, within the paper's own attempts, with their results kept for the admins.

The database is the release's own (tests/fixtures/release_2026_12_03.sql: papers, users, the team
"Team" and its two invites, written by the real bot at schema 25); the invites added here are written
with that release's statements. Today's writers (save_paper, ensure_user) write later schemas' columns,
so they run only after the upgrade."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bank.kinds import Kind
from proctor import hiring
from proctor.exams import service as attempts
from proctor.exams.invited import open_link
from proctor.exams.visibility import Role, Viewer, lens
from proctor.invites import store
from proctor.invites.links import hash_token, new_token
from proctor.invites.states import Refused
from proctor.people.users import ensure_user
from proctor.storage.db import Database, migration_files
from proctor.teams import review as reviews
from tests.answering import answer

T0 = 1_800_100_000.0  # after the release fixture's last write
# SQLite only: the upgrade path of a SQLite file
RELEASE = Path(__file__).resolve().parents[1] / "fixtures" / "release_2026_12_03.sql"
ALPHA, LEAD, DAN = -100123, 10, 1005  # the fixture's team "Team", its administrator Lea, and Dan
CID = 50  # a candidate the release never saw
TODAY = 25  # the schema of today's release


async def _invite_as_today(db: Database, *, paper_id: int, team: int | None, lead: int, attempts_allowed: int,
                           status: str = "open", candidate: int | None = None) -> tuple[int, str]:
    """An invite written as today's proctor.invites.store.create writes it (its INSERT and audit row),
    then claimed or revoked as today's open_link and revoke_invite write it."""
    token = new_token()

    def transaction(conn):
        cur = conn.execute(
            """INSERT INTO invites (token_hash, paper_id, team_chat_id, created_by, created_at, closes_at,
                   extra_min, for_username, attempts_allowed, notify_group) VALUES (?,?,?,?,?,?,?,?,?,?)
               RETURNING id""",
            (hash_token(token), paper_id, team, lead, T0, T0 + 72 * 3600, 15, None, attempts_allowed, 0))
        (invite_id,) = cur.fetchone()
        conn.execute("INSERT INTO audit_log (at, actor_id, chat_id, action, target, target_user, detail) "
                     "VALUES (?,?,?,?,?,?,?)", (T0, lead, team, "invite_create", f"invite:{invite_id}", None,
                                                "{}"))
        if status == "claimed":
            conn.execute("UPDATE invites SET status='claimed', candidate_id=?, claimed_at=? WHERE id=?",
                         (candidate, T0 + 1, invite_id))
        elif status == "revoked":
            conn.execute("UPDATE invites SET status='revoked', revoked_at=?, revoked_by=? WHERE id=?",
                         (T0 + 2, lead, invite_id))
        return invite_id, token

    return await db.run_write(transaction)


@pytest.fixture
async def today(tmp_path):
    """The release's database (schema 25), as its bot left it."""
    path = tmp_path / "p.db"
    conn = sqlite3.connect(path)
    try:
        conn.executescript(RELEASE.read_text(encoding="utf-8"))
    finally:
        conn.close()
    old = tmp_path / "migrations-025"  # the release's migrations: opening applies nothing
    old.mkdir()
    for version, migration in migration_files():
        if version <= TODAY:
            shutil.copy(migration, old / migration.name)
    db = await Database.open(path, migrations_dir=old)
    assert await db.user_version() == TODAY
    return db


async def test_an_upgrade_keeps_every_invite_and_old_invites_still_work_within_the_papers_attempts(today):
    db = today
    try:
        hire = await db.scalar("SELECT id FROM papers WHERE slug='hire' AND invite_only=1")  # the release's
        demo = await db.scalar("SELECT id FROM papers WHERE slug='demo'")
        held = await db.scalar("SELECT COUNT(*) FROM invites WHERE team_chat_id=? AND paper_id=?", (ALPHA, hire))
        # a self-made group's lead invited to the hiring paper with twenty attempts (today: accepted)
        _, twenty = await _invite_as_today(db, paper_id=hire, team=ALPHA, lead=LEAD, attempts_allowed=20)
        await _invite_as_today(db, paper_id=hire, team=ALPHA, lead=LEAD, attempts_allowed=1, status="claimed",
                               candidate=DAN)
        await _invite_as_today(db, paper_id=hire, team=None, lead=1, attempts_allowed=3, status="revoked")
        await _invite_as_today(db, paper_id=demo, team=ALPHA, lead=LEAD, attempts_allowed=2)
        before = [tuple(r) for r in await db.fetchall("SELECT * FROM invites ORDER BY id")]
        audit_before = await db.scalar("SELECT COUNT(*) FROM audit_log")

        assert await db.migrate() == [v for v, _ in migration_files() if v > TODAY]
        after = [tuple(r) for r in await db.fetchall("SELECT * FROM invites ORDER BY id")]
        assert after == before and len(after) == held + 4
        assert await db.scalar("SELECT COUNT(*) FROM audit_log") == audit_before
        assert await db.scalar("PRAGMA integrity_check") == "ok"
        # nobody is verified by the upgrade; the admin sees who holds invites they cannot read
        assert await hiring.listing(db) == []
        assert [(u.chat_id, u.paper, u.invites) for u in await hiring.unverified_invites(db)] == \
            [(ALPHA, "hire", held + 2)]
        await ensure_user(db, CID, "Cid2", None, T0)

        # the candidate's link still opens and starts, once: the paper sets no limit, so one sitting
        inv = await open_link(db, twenty, user_id=CID, username=None, now=T0 + 10)
        a = await attempts.start_attempt(db, user_id=CID, chat_id=CID, paper_id=hire, mode="exam", now=T0 + 20,
                                         shuffle=False, invite_id=inv.id)
        assert a.deadline == T0 + 20 + 75 * 60  # the invite's extra time is kept
        sheet = await attempts.load_sheet(db, a.id, positions="all")
        written = next(i for i in sheet.items if sheet.question(i).kind == Kind.short)
        await answer(db, a.id, written.pos, "梯度累加后再更新", T0 + 30)
        await attempts.finish_attempt(db, a.id, T0 + 60, "submitted")
        with pytest.raises(Refused) as refused:
            await open_link(db, twenty, user_id=CID, username=None, now=T0 + 100)
        assert refused.value.reason == "used"
        assert (await store.get(db, inv.id)).attempts_allowed == 20  # the record itself is kept
        # its written answers wait for a configured admin, not for the group's lead
        assert await reviews.next_pending(db, await lens(db, Viewer(Role.lead, LEAD), ALPHA), now=1) is None
        assert await reviews.withheld_papers(db, await lens(db, Viewer(Role.lead, LEAD), ALPHA)) == ["Demo paper hire"]
        assert (await reviews.next_pending(db, await lens(db, Viewer(Role.admin, 1), None), now=1)) is not None
        # verified after the upgrade, the team reviews them
        assert await hiring.verify(db, ALPHA, [hire], actor=1, now=T0 + 200) == 1
        assert (await reviews.next_pending(db, await lens(db, Viewer(Role.lead, LEAD), ALPHA), now=1)) is not None
        assert await hiring.unverified_invites(db) == []
    finally:
        await db.close()
