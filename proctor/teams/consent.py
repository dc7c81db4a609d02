"""What a roster lets a team's leads read of a member: the one rule every roster-scoped view asks.

A lead acting for a group sees a member's record (answers, attempts, disputes, scores) when the
member joined the group's roster with consent (proctor/teams/roster.py), has not left the group since,
and the record was made after they joined: what they did before they agreed is theirs.

Whether a member is still in the group is Telegram's to say (getChatMember). The chat side asks it
for the joined members whose last answer is older than CHECK_EVERY (`due_checks`) before a lead's
view and records the answers here (`record_checks`): SQLite holds the last answer, so a leaderboard
or a desk page costs no call while it is fresh, and a restart keeps it. An answer that they are out
ends their consent (`left_at`): nothing of theirs is shown from then on, and once back in the group
they are seen again only after they consent again, and only what they do from then on (a new
`joined_at`), so nothing done while away is ever shown.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from proctor.storage.db import Database
from proctor.teams.roster import MEMBER

CHECK_EVERY = 300.0  # seconds a getChatMember answer stands for (the admin list's cache: bot/roles.py)

_JOINED = f"r.status = '{MEMBER}' AND r.joined_at IS NOT NULL AND r.left_at IS NULL"


def seen_sql(user_col: str, at_col: str, teams: str = "?") -> str:
    """SQL: what `user_col` did at `at_col` is visible to the leads of the group(s) `teams` (a
    placeholder, or a comma-separated list of them): joined, not left since, and done after joining
    (`at_col` is when the work began: an attempt's start, a dispute's raising)."""
    return (f"EXISTS (SELECT 1 FROM team_roster r WHERE r.chat_id IN ({teams}) AND r.user_id = {user_col} "
            f"AND {_JOINED} AND {at_col} > r.joined_at)")


def member_ids_sql(teams: str = "?") -> str:
    """SQL: the user ids of the members the group(s) `teams` see (joined, not left since), whenever they joined."""
    return f"SELECT r.user_id FROM team_roster r WHERE r.chat_id IN ({teams}) AND {_JOINED}"


async def members(db: Database, chat_id: int) -> list[tuple[int, str]]:
    """(user id, name) of the members the group's leads see, by id."""
    rows = await db.fetchall(
        "SELECT u.id, COALESCE(NULLIF(u.first_name, ''), u.username, '') FROM users u "
        f"WHERE u.id IN ({member_ids_sql()}) ORDER BY u.id", (chat_id,))
    return [(r[0], r[1]) for r in rows]


async def seen_since(db: Database, chat_id: int, user_id: int) -> float | None:
    """From when the group's leads see the user's record; None: they see nothing of it."""
    since = await db.scalar(f"SELECT r.joined_at FROM team_roster r WHERE r.chat_id=? AND r.user_id=? AND {_JOINED}",
                            (chat_id, user_id))
    return None if since is None else float(since)


async def due_checks(db: Database, chat_id: int, now: float) -> list[int]:
    """The joined members whose presence in the group was last confirmed over CHECK_EVERY ago, or
    never: the ones to ask Telegram about before a lead's view (one who left is not asked again:
    their consent ended)."""
    rows = await db.fetchall(
        f"SELECT r.user_id FROM team_roster r WHERE r.chat_id=? AND {_JOINED} "
        "AND (r.checked_at IS NULL OR r.checked_at <= ?) ORDER BY r.user_id", (chat_id, now - CHECK_EVERY))
    return [r[0] for r in rows]


async def record_checks(db: Database, chat_id: int, found: Mapping[int, bool], now: float) -> None:
    """Telegram's answers: whether each member is in the group now. One who left drops off the
    group's views for good (left_at): leaving ends their consent, and an answer that they are back
    changes nothing until they consent again (proctor/teams/roster.py)."""
    if not found:
        return

    def transaction(conn: sqlite3.Connection) -> None:
        conn.executemany(
            "UPDATE team_roster SET checked_at=:now, "
            "left_at=CASE WHEN :inside THEN left_at ELSE COALESCE(left_at, :now) END "
            "WHERE chat_id=:chat AND user_id=:user",
            [{"now": now, "inside": inside, "chat": chat_id, "user": uid} for uid, inside in found.items()])

    await db.run_write(transaction)
