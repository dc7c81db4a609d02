"""Team rosters: the members a group's leads may grade and see.

A roster entry is granted by a lead (`add`, or `accept` after the member's `request`), never by
writing in the group: anyone can create a group and be its administrator. `chat_members` (who
showed up, for the group's daily leaderboard) is a different thing and grants nothing.
Configured admins lead everyone and need no roster (scope None).
"""

from __future__ import annotations

from dataclasses import dataclass

from bank.errors import BankError
from proctor.storage.db import Database
from proctor.teams import audit

MEMBER, PENDING = "member", "pending"


class UnknownUser(BankError):
    """No user the bot has seen goes by that name or id."""


class AmbiguousUser(BankError):
    """More than one user the bot has seen went by that username."""


@dataclass(frozen=True)
class Entry:
    user_id: int
    name: str
    username: str | None
    status: str  # MEMBER | PENDING


def members_sql(user_col: str) -> str:
    """SQL: `user_col` is on the roster of the group bound to the next `?` parameter."""
    return (f"{user_col} IN (SELECT r.user_id FROM team_roster r "
            f"WHERE r.chat_id = ? AND r.status = '{MEMBER}')")


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
    row = await db.fetchone("SELECT first_name, username FROM users WHERE id=?", (user_id,))
    if row is None:
        return str(user_id)
    return row["first_name"] or (f"@{row['username']}" if row["username"] else str(user_id))


async def status(db: Database, chat_id: int, user_id: int) -> str | None:
    """MEMBER, PENDING, or None when the user is not on the group's roster."""
    found: str | None = await db.scalar("SELECT status FROM team_roster WHERE chat_id=? AND user_id=?",
                                        (chat_id, user_id))
    return found


async def request(db: Database, chat_id: int, user_id: int, *, now: float) -> str:
    """The user asks to join (/join). Returns 'pending' (new request), 'waiting' (already asked)
    or 'member' (already on the roster). The group's chat row must exist."""
    async with db.write() as conn:
        cur = await conn.execute("SELECT status FROM team_roster WHERE chat_id=? AND user_id=?", (chat_id, user_id))
        row = await cur.fetchone()
        if row is not None:
            return "member" if row[0] == MEMBER else "waiting"
        await conn.execute("INSERT INTO team_roster (chat_id, user_id, status, requested_at) VALUES (?,?,?,?)",
                           (chat_id, user_id, PENDING, now))
    return "pending"


async def add(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead puts the user on the roster (accepting a pending request too). False if they
    already were a member. Audited."""
    async with db.write() as conn:
        cur = await conn.execute(
            f"""INSERT INTO team_roster (chat_id, user_id, status, requested_at, decided_by, decided_at)
                VALUES (?,?, '{MEMBER}', ?,?,?)
                ON CONFLICT(chat_id, user_id) DO UPDATE SET status='{MEMBER}', decided_by=excluded.decided_by,
                    decided_at=excluded.decided_at WHERE status != '{MEMBER}'
                RETURNING user_id""", (chat_id, user_id, now, lead, now))
        if await cur.fetchone() is None:
            return False
        await audit.record(conn, at=now, actor=lead, chat_id=chat_id, action="roster_add",
                           target=f"user:{user_id}", target_user=user_id)
    return True


async def accept(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead accepts a pending request. False if there is none (decided already, or withdrawn)."""
    async with db.write() as conn:
        cur = await conn.execute(
            f"UPDATE team_roster SET status='{MEMBER}', decided_by=?, decided_at=? "
            f"WHERE chat_id=? AND user_id=? AND status='{PENDING}' RETURNING user_id",
            (lead, now, chat_id, user_id))
        if await cur.fetchone() is None:
            return False
        await audit.record(conn, at=now, actor=lead, chat_id=chat_id, action="roster_accept",
                           target=f"user:{user_id}", target_user=user_id)
    return True


async def reject(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead turns down a pending request. False if there is none."""
    return await _delete(db, chat_id, user_id, lead=lead, now=now, only=PENDING, action="roster_reject")


async def remove(db: Database, chat_id: int, user_id: int, *, lead: int, now: float) -> bool:
    """A lead takes the user off the roster (member or pending). False if they were not on it."""
    return await _delete(db, chat_id, user_id, lead=lead, now=now, only=None, action="roster_remove")


async def _delete(db: Database, chat_id: int, user_id: int, *, lead: int, now: float, only: str | None,
                  action: str) -> bool:
    where = "AND status=?" if only else ""
    params = (chat_id, user_id, only) if only else (chat_id, user_id)
    async with db.write() as conn:
        cur = await conn.execute(
            f"DELETE FROM team_roster WHERE chat_id=? AND user_id=? {where} RETURNING status", params)
        row = await cur.fetchone()
        if row is None:
            return False
        await audit.record(conn, at=now, actor=lead, chat_id=chat_id, action=action,
                           target=f"user:{user_id}", target_user=user_id, was=row[0])
    return True


async def listing(db: Database, chat_id: int) -> list[Entry]:
    """The group's roster: members, then pending requests, each by name."""
    rows = await db.fetchall(
        f"""SELECT r.user_id, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name, u.username, r.status
            FROM team_roster r JOIN users u ON u.id = r.user_id WHERE r.chat_id=?
            ORDER BY r.status = '{PENDING}', name COLLATE NOCASE, r.user_id""", (chat_id,))
    return [Entry(r["user_id"], r["name"], r["username"], r["status"]) for r in rows]


async def teams_of(db: Database, user_id: int) -> list[tuple[int, str, str]]:
    """The groups whose roster the user is on: (chat id, title, status)."""
    rows = await db.fetchall(
        "SELECT c.id, c.title, r.status FROM team_roster r JOIN chats c ON c.id = r.chat_id "
        "WHERE r.user_id=? ORDER BY c.title, c.id", (user_id,))
    return [(r[0], r[1], r[2]) for r in rows]
