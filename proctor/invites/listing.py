"""The invites a lead lists (/invites, `proctor invite list`) and the invite of an attempt."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bank.store import json_list
from proctor.invites.states import InviteStatus
from proctor.invites.store import Invite
from proctor.storage.db import Database


@dataclass(frozen=True, slots=True)
class Row:
    invite: Invite
    status: InviteStatus  # effective now
    paper: str
    candidate: str  # '' before a claim
    score: float | None
    max_score: float | None
    started_at: float | None
    finished_at: float | None
    pending_review: int
    earlier: tuple[float, ...] = ()  # the scores of the invite's earlier handed-in attempts, oldest first


async def listing(db: Database, scope: int | None, now: float, *, limit: int | None = 20) -> list[Row]:
    """The team's invites, newest first (every team's when `scope` is None)."""
    where, params = ("WHERE i.team_chat_id=?", [scope]) if scope is not None else ("", [])
    lim = "LIMIT ?" if limit else ""
    earlier = json_list(db.engine, "e.score", "FROM (SELECT score FROM attempts WHERE invite_id = i.id "
                        "AND id <> i.attempt_id AND score IS NOT NULL ORDER BY id) e")
    rows = await db.fetchall(
        f"""SELECT i.*, p.code || ' ' || p.title AS paper, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS candidate,
                   a.score, a.max_score, a.started_at AS a_started, a.finished_at AS a_finished,
                   (SELECT COUNT(*) FROM answers x WHERE x.attempt_id = a.id AND x.final = 0) AS pending,
                   {earlier} AS earlier
            FROM invites i JOIN papers p ON p.id = i.paper_id LEFT JOIN users u ON u.id = i.candidate_id
            LEFT JOIN attempts a ON a.id = i.attempt_id {where}
            ORDER BY i.created_at DESC, i.id DESC {lim}""", [*params, *([limit] if limit else [])])
    out = []
    for r in rows:
        inv = Invite.from_row(r)
        out.append(Row(inv, inv.status_at(now), r["paper"], r["candidate"] or "", r["score"], r["max_score"],
                       r["a_started"], r["a_finished"], r["pending"] or 0, tuple(json.loads(r["earlier"] or "[]"))))
    return out


async def of_attempt(db: Database, attempt_id: int) -> Invite | None:
    row = await db.fetchone("SELECT i.* FROM invites i JOIN attempts a ON a.invite_id = i.id WHERE a.id=?",
                            (attempt_id,))
    return None if row is None else Invite.from_row(row)
