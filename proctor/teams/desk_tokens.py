"""One-time secrets of the lead's desk, kept as SHA-256 digests (never the secret itself).

A login link is issued for a user and redeemed once before it expires; a Telegram initData is
spent once (a replay is refused until it would be stale anyway). Both survive a restart.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3

from proctor.storage.db import Database

LINK_SECONDS = 600


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def issue_link(db: Database, user_id: int, now: float, ttl: float = LINK_SECONDS) -> str:
    """A new one-time login secret for `user_id`, valid `ttl` seconds; only its digest is stored."""
    token = secrets.token_urlsafe(32)

    def transaction(conn: sqlite3.Connection) -> str:
        conn.execute("DELETE FROM desk_tokens WHERE expires_at <= ?", (now,))
        conn.execute(
            "INSERT INTO desk_tokens (digest, kind, user_id, created_at, expires_at) VALUES (?, 'link', ?, ?, ?)",
            (digest(token), user_id, now, now + ttl))
        return token

    return await db.run_write(transaction)


async def redeem_link(db: Database, token: str, now: float) -> int | None:
    """The user the link was issued for, marking it used; None if unknown, used or expired."""
    row = await db.run_write(lambda conn: conn.execute(
        "UPDATE desk_tokens SET used_at=? WHERE digest=? AND kind='link' AND used_at IS NULL "
        "AND expires_at > ? RETURNING user_id", (now, digest(token), now)).fetchone())
    return None if row is None else int(row[0])


async def spend_once(db: Database, secret: str, user_id: int, now: float, expires_at: float) -> bool:
    """Record a signed login (initData) as used; False if it was used before (a replay)."""

    def transaction(conn: sqlite3.Connection) -> bool:
        conn.execute("DELETE FROM desk_tokens WHERE expires_at <= ?", (now,))
        cur = conn.execute(
            "INSERT INTO desk_tokens (digest, kind, user_id, created_at, expires_at, used_at) "
            "VALUES (?, 'init', ?, ?, ?, ?) ON CONFLICT DO NOTHING", (digest(secret), user_id, now, max(expires_at, now + 1), now))
        return cur.rowcount == 1

    return await db.run_write(transaction)
