"""Team rosters: the members a group's leads may grade and see, and how one gets on a roster.

Joining takes both sides: the member asks (`request`, /join) and a lead accepts (`accept`), or a lead
invites (`invite`, /team add) and the member consents (`consent`, a button in their private chat),
and either way the member is in the group (getChatMember, asked by the caller: `in_group`). Writing
in the group grants nothing: `chat_members` (who showed up, for the daily leaderboard) is a different
thing, and anyone can create a group and be its administrator. What a roster lets its leads read is
`proctor/teams/consent.py`. Configured admins lead everyone and need no roster (scope None).

A row's standing is stored as `status` ('pending': asked; 'member': a lead agreed), `joined_at` (NULL
until the member agreed too) and `left_at` (Telegram said they were out of the group:
proctor/teams/consent.py); `Standing` decodes them once, in SQL (STANDING_SQL). Leaving the group ends
the member's consent: they stand invited again, and back in the group they join again by consenting
(/join, or the Join button), from a new `joined_at`, so nothing they did while away, or before, is
shown. A member takes themselves off a roster with /team leave (`leave`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from proctor.audit import AuditAction
from proctor.errors import ProctorError
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.transitions import Machine

MEMBER, PENDING = "member", "pending"  # the stored `status`: a lead agreed, or not yet


class Standing(StrEnum):
    asked = "asked"  # the member asked (/join); a lead has not accepted yet
    invited = "invited"  # a lead asked; the member has not consented (also: added before consent was asked,
    # or left the group since consenting: leaving ends consent)
    joined = "joined"  # both agreed: the leads see what the member does from `joined_at` on


MACHINE: Machine[Standing] = Machine("a roster entry", {
    "accept": {Standing.asked: Standing.joined},  # a lead accepts the member's request
    "consent": {Standing.invited: Standing.joined},  # the member accepts a lead's invitation
})


def accept_move(standing: Standing) -> Standing:
    return MACHINE.move("accept", standing)


def consent_move(standing: Standing) -> Standing:
    return MACHINE.move("consent", standing)


STANDING_SQL = (f"CASE WHEN r.status = '{PENDING}' THEN '{Standing.asked}' "
                f"WHEN r.joined_at IS NULL OR r.left_at IS NOT NULL THEN '{Standing.invited}' "
                f"ELSE '{Standing.joined}' END")


class Outcome(StrEnum):
    asked = "asked"  # a new request waits for a lead
    waiting = "waiting"  # the request was already waiting
    invited = "invited"  # the member's consent is asked (again: an earlier invitation's buttons go stale)
    joined = "joined"  # both have agreed now
    already = "already"  # they had joined already
    not_in_group = "not_in_group"  # refused: only the group's members join its roster
    declined = "declined"  # the member turned the invitation down
    nothing = "nothing"  # no request or invitation to decide (decided already, withdrawn, stale)


class UnknownUser(ProctorError):
    """No user the bot has seen goes by that name or id."""


class AmbiguousUser(ProctorError):
    """More than one user the bot has seen went by that username."""


@dataclass(frozen=True, slots=True)
class Entry:
    user_id: int
    name: str
    username: str | None
    standing: Standing
    left: bool  # Telegram said they left the group: their consent ended, the leads see nothing of theirs


def invitation_stamp(invited_at: float) -> int:
    """What a consent button carries of its invitation: a newer invitation makes older buttons stale."""
    return int(invited_at)


async def find_user(db: Database, who: str) -> int:
    """A user the bot has seen, by `@username` (any case) or numeric id.

    Raises UnknownUser, AmbiguousUser.
    """
    who = who.strip()
    if who.isdigit():
        if await db.scalar("SELECT 1 FROM users WHERE id=?", (int(who),)) is None:
            raise UnknownUser(who)
        return int(who)
    name = who.removeprefix("@")
    rows = await db.fetchall("SELECT id FROM users WHERE username = ? COLLATE NOCASE", (name,))
    if not rows:
        raise UnknownUser(who)
    if len(rows) > 1:
        raise AmbiguousUser(who)
    user_id: int = rows[0][0]
    return user_id


async def display_name(db: Database, user_id: int) -> str:
    """The user's first name, else @username, else the id."""
    return await db.run(lambda conn: display_name_in(conn, user_id))


def display_name_in(conn: sqlite3.Connection, user_id: int) -> str:
    """`display_name` on the database thread."""
    row = conn.execute("SELECT first_name, username FROM users WHERE id=?", (user_id,)).fetchone()
    if row is None:
        return str(user_id)
    return row["first_name"] or (f"@{row['username']}" if row["username"] else str(user_id))


async def standing(db: Database, chat_id: int, user_id: int) -> Standing | None:
    """The user's standing on the group's roster; None when they are not on it."""
    found = await db.scalar(f"SELECT {STANDING_SQL} FROM team_roster r WHERE r.chat_id=? AND r.user_id=?",
                            (chat_id, user_id))
    return None if found is None else Standing(found)


async def invitation(db: Database, chat_id: int, user_id: int) -> int | None:
    """The stamp of the invitation waiting for the user's consent; None if none waits."""
    found = await db.scalar(
        f"SELECT r.requested_at FROM team_roster r WHERE r.chat_id=? AND r.user_id=? "
        f"AND {STANDING_SQL} = '{Standing.invited}'", (chat_id, user_id))
    return None if found is None else invitation_stamp(found)


# joining (again, after leaving the group): from now on, in the group, as getChatMember said just now
_JOIN = "joined_at=:now, checked_at=:now, left_at=NULL"


async def request(db: Database, chat_id: int, user_id: int, *, in_group: bool, now: float) -> Outcome:
    """The user asks to join (/join): asked, waiting, already, or, when a lead had invited them (or
    they had joined and left the group since), joined (this is their consent; not_in_group if they
    are not in it). The chat row must exist."""

    def transaction(conn: sqlite3.Connection) -> Outcome:
        cur = conn.execute(f"SELECT {STANDING_SQL} FROM team_roster r WHERE r.chat_id=? AND r.user_id=?",
                           (chat_id, user_id))
        row = cur.fetchone()
        if row is None:
            conn.execute("INSERT INTO team_roster (chat_id, user_id, status, requested_at) VALUES (?,?,?,?)",
                         (chat_id, user_id, PENDING, now))
            return Outcome.asked
        match Standing(row[0]):
            case Standing.asked:
                return Outcome.waiting
            case Standing.joined:
                return Outcome.already
            case Standing.invited:
                return _consent_in(conn, chat_id, user_id, None, in_group=in_group, now=now)

    return await db.run_write(transaction)


async def invite(db: Database, chat_id: int, user_id: int, *, lead: int, in_group: bool, now: float) -> Outcome:
    """A lead asks the user onto the roster (/team add): invited (their consent is asked; again if
    it was), joined (they had asked: this accepts it), already, or not_in_group. Audited."""

    def transaction(conn: sqlite3.Connection) -> Outcome:
        cur = conn.execute(f"SELECT {STANDING_SQL} FROM team_roster r WHERE r.chat_id=? AND r.user_id=?",
                           (chat_id, user_id))
        row = cur.fetchone()
        current = None if row is None else Standing(row[0])
        if current is Standing.joined:
            return Outcome.already
        if not in_group:
            return Outcome.not_in_group
        if current is Standing.asked:
            return _accept_in(conn, chat_id, user_id, lead=lead, now=now)
        conn.execute(
            f"""INSERT INTO team_roster (chat_id, user_id, status, requested_at, decided_by, decided_at)
                VALUES (?,?, '{MEMBER}', ?,?,?)
                ON CONFLICT(chat_id, user_id) DO UPDATE SET requested_at=excluded.requested_at,
                    decided_by=excluded.decided_by, decided_at=excluded.decided_at""",
            (chat_id, user_id, now, lead, now))
        audit.record(conn, at=now, actor=lead, chat_id=chat_id, action=AuditAction.roster_invite,
                     target=f"user:{user_id}", target_user=user_id)
        return Outcome.invited

    return await db.run_write(transaction)


async def accept(db: Database, chat_id: int, user_id: int, *, lead: int, in_group: bool, now: float) -> Outcome:
    """A lead accepts the user's request: joined, nothing (no request waits), or not_in_group. Audited."""

    def transaction(conn: sqlite3.Connection) -> Outcome:
        cur = conn.execute(f"SELECT {STANDING_SQL} FROM team_roster r WHERE r.chat_id=? AND r.user_id=?",
                           (chat_id, user_id))
        row = cur.fetchone()
        if row is None or Standing(row[0]) is not Standing.asked:
            return Outcome.nothing
        if not in_group:
            return Outcome.not_in_group
        return _accept_in(conn, chat_id, user_id, lead=lead, now=now)

    return await db.run_write(transaction)


def _accept_in(conn: sqlite3.Connection, chat_id: int, user_id: int, *, lead: int, now: float) -> Outcome:
    accept_move(Standing.asked)
    conn.execute(
        f"UPDATE team_roster SET status='{MEMBER}', decided_by=:lead, decided_at=:now, {_JOIN} "
        "WHERE chat_id=:chat AND user_id=:user", {"lead": lead, "now": now, "chat": chat_id, "user": user_id})
    audit.record(conn, at=now, actor=lead, chat_id=chat_id, action=AuditAction.roster_accept,
                 target=f"user:{user_id}", target_user=user_id)
    return Outcome.joined


async def consent(db: Database, chat_id: int, user_id: int, stamp: int, *, in_group: bool, now: float) -> Outcome:
    """The user accepts the invitation whose buttons carry `stamp`: joined, already, nothing (no
    such invitation waits: withdrawn, declined, or a newer one was sent), or not_in_group.
    Recorded (and audited, the member as the actor) before anybody is told."""

    def transaction(conn: sqlite3.Connection) -> Outcome:
        return _consent_in(conn, chat_id, user_id, stamp, in_group=in_group, now=now)

    return await db.run_write(transaction)


def _consent_in(conn: sqlite3.Connection, chat_id: int, user_id: int, stamp: int | None, *, in_group: bool,
                now: float) -> Outcome:
    cur = conn.execute(
        f"SELECT {STANDING_SQL}, r.requested_at FROM team_roster r WHERE r.chat_id=? AND r.user_id=?",
        (chat_id, user_id))
    row = cur.fetchone()
    if row is None:
        return Outcome.nothing
    current = Standing(row[0])
    if current is Standing.joined:
        return Outcome.already
    if current is not Standing.invited or (stamp is not None and invitation_stamp(row[1]) != stamp):
        return Outcome.nothing
    if not in_group:
        return Outcome.not_in_group
    consent_move(current)
    conn.execute(f"UPDATE team_roster SET {_JOIN} WHERE chat_id=:chat AND user_id=:user",
                 {"now": now, "chat": chat_id, "user": user_id})
    audit.record(conn, at=now, actor=user_id, chat_id=chat_id, action=AuditAction.roster_consent,
                 target=f"user:{user_id}", target_user=user_id)
    return Outcome.joined


async def decline(db: Database, chat_id: int, user_id: int, stamp: int, *, now: float) -> Outcome:
    """The user turns down the invitation whose buttons carry `stamp`: declined, or nothing."""

    def transaction(conn: sqlite3.Connection) -> Outcome:
        cur = conn.execute(
            f"DELETE FROM team_roster AS r WHERE r.chat_id=? AND r.user_id=? AND {STANDING_SQL} = '{Standing.invited}' "
            "AND CAST(r.requested_at AS INTEGER) = ? RETURNING user_id", (chat_id, user_id, stamp))
        if cur.fetchone() is None:
            return Outcome.nothing
        audit.record(conn, at=now, actor=user_id, chat_id=chat_id, action=AuditAction.roster_decline,
                     target=f"user:{user_id}", target_user=user_id)
        return Outcome.declined

    return await db.run_write(transaction)


async def reject(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead turns down a pending request. False if there is none."""
    return await _delete(db, chat_id, user_id, actor=lead, now=now, only=PENDING, action=AuditAction.roster_reject)


async def remove(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead takes the user off the roster (whatever their standing). False if they were not on it."""
    return await _delete(db, chat_id, user_id, actor=lead, now=now, only=None, action=AuditAction.roster_remove)


async def leave(db: Database, chat_id: int, user_id: int, *, now: float) -> bool:
    """The user takes themselves off the group's roster (/team leave), whatever their standing: from
    now on its leads see nothing of theirs. Audited, the member as the actor. False if they were not on it."""
    return await _delete(db, chat_id, user_id, actor=user_id, now=now, only=None, action=AuditAction.roster_leave)


async def _delete(db: Database, chat_id: int, user_id: int, *, actor: int, now: float, only: str | None,
                  action: AuditAction) -> bool:
    where = "AND status=?" if only else ""
    params = (chat_id, user_id, only) if only else (chat_id, user_id)

    def transaction(conn: sqlite3.Connection) -> bool:
        cur = conn.execute(
            f"DELETE FROM team_roster WHERE chat_id=? AND user_id=? {where} RETURNING status", params)
        row = cur.fetchone()
        if row is None:
            return False
        audit.record(conn, at=now, actor=actor, chat_id=chat_id, action=action,
                     target=f"user:{user_id}", target_user=user_id, was=row[0])
        return True

    return await db.run_write(transaction)


async def listing(db: Database, chat_id: int) -> list[Entry]:
    """The group's roster: joined members, then those invited, then those who asked, each by name."""
    rows = await db.fetchall(
        f"""SELECT r.user_id, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name, u.username,
                   {STANDING_SQL} AS standing, r.left_at IS NOT NULL AS left_group
            FROM team_roster r JOIN users u ON u.id = r.user_id WHERE r.chat_id=?
            ORDER BY r.status = '{PENDING}', r.joined_at IS NULL, lower(COALESCE(NULLIF(u.first_name, ''), u.username, '')),
                     r.user_id""", (chat_id,))
    return [Entry(r["user_id"], r["name"], r["username"], Standing(r["standing"]), bool(r["left_group"]))
            for r in rows]


async def teams_of(db: Database, user_id: int) -> list[tuple[int, str, Standing]]:
    """The groups whose roster the user is on: (chat id, title, standing)."""
    rows = await db.fetchall(
        f"SELECT c.id, c.title, {STANDING_SQL} FROM team_roster r JOIN chats c ON c.id = r.chat_id "
        "WHERE r.user_id=? ORDER BY c.title, c.id", (user_id,))
    return [(r[0], r[1], Standing(r[2])) for r in rows]
