"""An invite's link opened by a candidate: claimed by the first to open it, and usable only while the
invite and the paper's sittings allow another attempt (a hiring paper's /exam and invited sittings
share one count: proctor/exams/sittings.py), read in the claim's transaction as Start reads it."""

from __future__ import annotations

import sqlite3

from proctor.exams.sittings import sittings_in
from proctor.invites.attempts import claim_link_in, unusable
from proctor.invites.states import InviteStatus, Refused
from proctor.invites.store import Invite, get
from proctor.storage.db import Database


async def open_link(db: Database, token: str, *, user_id: int, username: str | None, now: float) -> Invite:
    """The user opened the link: the first one claims it (audited). Returns the invite if it is the
    user's and still usable (claimed, or finished with attempts left, inside the window, or started).

    Raises Refused(unknown | foreign | used | expired | revoked).
    """

    def transaction(conn: sqlite3.Connection) -> tuple[int, int | None]:
        inv = claim_link_in(conn, token, user_id=user_id, username=username, now=now)
        sat = sittings_in(conn, user_id, inv.paper_id)
        return inv.id, sat.left if sat.hiring else None

    invite_id, left = await db.run_write(transaction)
    inv = await get(db, invite_id)
    reason = unusable(inv, now, left)
    if reason is not None and inv.status != InviteStatus.started:
        raise Refused(reason)
    return inv
