"""An invite in a candidate's hands: the link opened (the first user claims it), then each attempt on it
started and attached inside the attempt's own transaction, handed in (the lead's card queued) and
regraded."""

from __future__ import annotations

import sqlite3
from typing import Any

from proctor import outbox
from proctor.audit import AuditAction, record_audit
from proctor.invites.links import hash_token
from proctor.invites.states import InviteStatus as S
from proctor.invites.states import Refusal, Refused, claim, finish, start
from proctor.invites.store import Invite, find_in


def claim_link_in(conn: sqlite3.Connection, token: str, *, user_id: int, username: str | None, now: float) -> Invite:
    """Inside the transaction of an opened link (proctor.exams.invited.open_link): the first user to open
    it claims it (audited); the invite as it was read. Raises Refused(unknown | foreign | revoked |
    expired)."""
    row = conn.execute("SELECT * FROM invites WHERE token_hash=?", (hash_token(token),)).fetchone()
    if row is None:
        raise Refused(Refusal.unknown)
    inv = Invite.from_row(row)
    # someone else's (also once its claimant is forgotten: a claimed invite is never re-claimed)
    if inv.candidate_id != user_id and (inv.candidate_id is not None or inv.status not in (S.open, S.revoked)):
        raise Refused(Refusal.foreign)
    if inv.status == S.revoked:
        raise Refused(Refusal.revoked)
    if inv.status == S.open:
        wanted = (inv.for_username or "").lower()
        if wanted and wanted != (username or "").lower():
            raise Refused(Refusal.foreign)
        if inv.status_at(now) == S.expired:
            raise Refused(Refusal.expired)
        conn.execute("UPDATE invites SET status=?, candidate_id=?, claimed_at=? WHERE id=? AND status=?",
                     (claim(inv.status), user_id, now, inv.id, S.open))
        record_audit(conn, at=now, actor=user_id, chat_id=inv.team_chat_id, action=AuditAction.invite_claim,
                     target=f"invite:{inv.id}", target_user=user_id)
    return inv


def unusable(inv: Invite, now: float, left: int | None = None) -> Refusal | None:
    """Why a new attempt cannot start on this invite now (None: it can); `left`: the sittings a
    hiring paper still allows the candidate (None: any other paper, bound by the invite alone)."""
    status = inv.status_at(now)
    if status == S.revoked:
        return Refusal.revoked
    if status == S.expired:
        return Refusal.expired
    if status == S.started or inv.attempts_used >= inv.attempts_allowed or (left is not None and left <= 0):
        return Refusal.used
    if now >= inv.closes_at:
        return Refusal.expired
    return None


def start_in(conn: sqlite3.Connection, invite_id: int, user_id: int, now: float, *, left: int | None) -> int:
    """Inside the attempt's own transaction: the invite's owner starts it now. `left`: the sittings a
    hiring paper still allows the candidate, /exam and invited alike (the attempt's transaction counts
    them: proctor.exams.sittings.sittings_in, as proctor.exams.invited.open_link does); None for any other paper. Returns the extra minutes.
    Raises Refused (nothing is written then)."""
    inv = find_in(conn, invite_id)
    if inv is None:
        raise Refused(Refusal.unknown)
    if inv.candidate_id != user_id:
        raise Refused(Refusal.foreign)
    if (reason := unusable(inv, now, left)) is not None:
        raise Refused(reason)
    conn.execute(
        "UPDATE invites SET status=?, started_at=?, attempts_used=attempts_used+1 WHERE id=? AND status=?",
        (start(inv.status), now, inv.id, inv.status))
    return inv.extra_min


def attach_in(conn: sqlite3.Connection, invite_id: int, attempt_id: int) -> None:
    conn.execute("UPDATE invites SET attempt_id=? WHERE id=?", (attempt_id, invite_id))


def finish_in(conn: sqlite3.Connection, invite_id: int, attempt_id: int, now: float) -> None:
    """Inside the attempt's closing transaction (on the database thread): the invite is finished
    and the lead's card (and the team note, if asked for) is queued in the outbox."""
    inv = find_in(conn, invite_id)
    if inv is None:
        return
    if inv.status == S.started:
        conn.execute("UPDATE invites SET status=?, finished_at=? WHERE id=?", (finish(inv.status), now, inv.id))
    if inv.created_by:
        outbox.enqueue_in(conn, kind=outbox.Kind.lead_card, ref=str(attempt_id), chat_id=inv.created_by,
                          now=now, payload={"invite": inv.id})
    if inv.notify_group and inv.team_chat_id is not None:
        outbox.enqueue_in(conn, kind=outbox.Kind.team_note, ref=str(attempt_id), chat_id=inv.team_chat_id,
                          now=now, payload={"invite": inv.id})


def regraded_in(conn: sqlite3.Connection, invite_id: int, attempt_id: int, *, question_id: int,
                version: int, old: float | None, new: float, now: float) -> None:
    """Inside a regrade's transaction (a key fix, or one held for a hand-in): the lead who invited gets
    the hiring attempt's card again, its score now and what it was (one card per attempt and key version)."""
    row = conn.execute("SELECT created_by FROM invites WHERE id=?", (invite_id,)).fetchone()
    if row is not None and row[0]:
        outbox.enqueue_in(conn, **_regraded_card(row[0], invite_id, attempt_id, question_id, version, old, new, now))


def _regraded_card(lead: int, invite_id: int, attempt_id: int, question_id: int, version: int, old: float | None,
                   new: float, now: float) -> dict[str, Any]:
    return {"kind": outbox.Kind.lead_card, "ref": f"{attempt_id}:q{question_id}v{version}", "chat_id": lead,
            "now": now,
            "payload": {"invite": invite_id, "attempt": attempt_id, "question": question_id, "old": old, "new": new}}
