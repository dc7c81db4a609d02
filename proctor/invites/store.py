"""Stored invites: made by a lead (one audited transaction for a batch), read, revoked or resent
with a fresh link."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bank.errors import NotFound
from bank.store import one_row
from proctor import hiring
from proctor.audit import AuditAction, record_audit
from proctor.invites.links import hash_token, new_token
from proctor.invites.request import check_attempts, check_count, check_extra, check_window
from proctor.invites.states import InviteStatus, effective, resend, revoke
from proctor.storage.db import Database
from proctor.transitions import IllegalTransition


@dataclass(frozen=True, slots=True)
class Invite:
    id: int
    paper_id: int
    team_chat_id: int | None
    created_by: int
    created_at: float
    closes_at: float
    extra_min: int
    for_username: str | None
    attempts_allowed: int
    attempts_used: int
    notify_group: bool
    status: InviteStatus  # as stored: see `status_at`
    candidate_id: int | None
    attempt_id: int | None

    def status_at(self, now: float) -> InviteStatus:
        return effective(self.status, self.closes_at, now)

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> Invite:
        return cls(r["id"], r["paper_id"], r["team_chat_id"], r["created_by"], r["created_at"], r["closes_at"],
                   r["extra_min"], r["for_username"], r["attempts_allowed"], r["attempts_used"],
                   bool(r["notify_group"]), InviteStatus(r["status"]), r["candidate_id"], r["attempt_id"])


async def get(db: Database, invite_id: int) -> Invite:
    """Raises NotFound."""
    inv = await db.run(lambda conn: find_in(conn, invite_id))
    if inv is None:
        raise NotFound(f"no invite {invite_id}")
    return inv


def find_in(conn: sqlite3.Connection, invite_id: int) -> Invite | None:
    """The invite on the database thread; None if there is none."""
    row = conn.execute("SELECT * FROM invites WHERE id=?", (invite_id,)).fetchone()
    return None if row is None else Invite.from_row(row)


async def create(db: Database, *, paper_id: int, team: int | None, lead: int, now: float, window: float,
                 extra_min: int = 0, username: str | None = None, notify: bool = False,
                 attempts: int = 1, count: int = 1, admin: bool = False) -> list[tuple[Invite, str]]:
    """Make `count` invites in one audited transaction; returns each with its token (shown once).

    A hiring paper takes invites from configured admins (`admin`, or no `team`) and from the teams
    verified for it, and at most its own attempts per invite (proctor.hiring).
    Raises BadInvite, hiring.NotVerified, hiring.TooManyAttempts."""
    check_window(window)
    check_extra(extra_min)
    check_count(count)
    check_attempts(attempts)
    made: list[tuple[int, str]] = []

    def transaction(conn: sqlite3.Connection) -> None:
        paper = hiring.check_in(conn, None if admin else team, paper_id)
        if paper is not None and attempts > paper.cap:
            raise hiring.TooManyAttempts(paper)
        for _ in range(count):
            token = new_token()
            cur = conn.execute(
                """INSERT INTO invites (token_hash, paper_id, team_chat_id, created_by, created_at, closes_at,
                       extra_min, for_username, attempts_allowed, notify_group) VALUES (?,?,?,?,?,?,?,?,?,?)
                   RETURNING id""",
                (hash_token(token), paper_id, team, lead, now, now + window, extra_min, username, attempts,
                 int(notify and team is not None)))
            invite_id = one_row(cur.fetchone())[0]
            record_audit(conn, at=now, actor=lead, chat_id=team, action=AuditAction.invite_create,
                         target=f"invite:{invite_id}", paper=paper_id, closes_at=now + window,
                         extra_min=extra_min, username=username)
            made.append((invite_id, token))

    await db.run_write(transaction)
    return [(await get(db, i), token) for i, token in made]


async def revoke_invite(db: Database, invite_id: int, *, actor: int, now: float) -> Invite:
    """Withdraw an open or claimed invite (audited). Raises NotFound, IllegalTransition."""

    def transaction(conn: sqlite3.Connection) -> None:
        inv = find_in(conn, invite_id)
        if inv is None:
            raise NotFound(f"no invite {invite_id}")
        if inv.status_at(now) == InviteStatus.expired:
            raise IllegalTransition("the invite has expired")
        conn.execute("UPDATE invites SET status=?, revoked_at=?, revoked_by=? WHERE id=?",
                     (revoke(inv.status), now, actor, inv.id))
        record_audit(conn, at=now, actor=actor, chat_id=inv.team_chat_id, action=AuditAction.invite_revoke,
                     target=f"invite:{inv.id}", target_user=inv.candidate_id)

    await db.run_write(transaction)
    return await get(db, invite_id)


async def resend_invite(db: Database, invite_id: int, *, actor: int, now: float) -> tuple[Invite, str]:
    """A fresh link for an open or claimed invite; the old link stops working (audited).
    Raises NotFound, IllegalTransition."""
    token = new_token()

    def transaction(conn: sqlite3.Connection) -> None:
        inv = find_in(conn, invite_id)
        if inv is None:
            raise NotFound(f"no invite {invite_id}")
        if inv.status_at(now) == InviteStatus.expired:
            raise IllegalTransition("the invite has expired")
        resend(inv.status)
        conn.execute("UPDATE invites SET token_hash=? WHERE id=?", (hash_token(token), inv.id))
        record_audit(conn, at=now, actor=actor, chat_id=inv.team_chat_id, action=AuditAction.invite_resend,
                     target=f"invite:{inv.id}", target_user=inv.candidate_id)

    await db.run_write(transaction)
    return await get(db, invite_id), token
