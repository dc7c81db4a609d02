"""Hiring invites: one link per candidate, for one paper, inside a window.

The link is Telegram's deep link `https://t.me/<bot>?start=inv_<token>`. The token has 128 random
bits and is stored only as its SHA-256; it is never logged. An invite moves through InviteStatus
by the named transitions below, which refuse illegal moves; `expired` is not stored but read from
the window (`effective`). Every creation, claim, revoke and resend is audited. Time is a parameter.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bank.errors import NotFound
from bank.paper_list import paper_summaries, pick_paper
from bank.store import one_row
from proctor import hiring, outbox
from proctor.audit import AuditAction, record_audit
from proctor.errors import ProctorError
from proctor.storage.db import Database
from proctor.transitions import IllegalTransition as IllegalTransition  # callers catch it here
from proctor.transitions import Machine

PREFIX = "inv_"
_PAYLOAD = re.compile(r"^inv_([A-Za-z0-9_-]{22})$")  # token_urlsafe(16): 22 characters, 128 bits
DEFAULT_WINDOW = 72 * 3600.0
MAX_WINDOW = 60 * 86400.0
MAX_EXTRA_MIN = 24 * 60
MAX_COUNT = 500
MAX_ATTEMPTS = 20


class InviteStatus(StrEnum):
    open = "open"  # made, nobody opened the link yet
    claimed = "claimed"  # the first user to open it owns it
    started = "started"  # an attempt is running
    finished = "finished"  # its attempt was handed in
    expired = "expired"  # the window closed before a start (read, never stored)
    revoked = "revoked"  # a lead withdrew it


class BadInvite(ProctorError):
    """An /invite request could not be understood (window, extra time, count)."""


class Refusal(StrEnum):
    """Why an invite's link cannot be used."""
    unknown = "unknown"  # no such invite
    foreign = "foreign"  # somebody else's
    used = "used"  # its attempts are used up, or one is running
    expired = "expired"
    revoked = "revoked"


class Refused(ProctorError):
    """The link cannot be used, for `reason`."""

    def __init__(self, reason: Refusal):
        self.reason = reason
        super().__init__(reason)


S = InviteStatus
MACHINE: Machine[InviteStatus] = Machine("an invite", {
    "claim": {S.open: S.claimed},
    "start": {S.claimed: S.started, S.finished: S.started},  # again only with attempts left
    "finish": {S.started: S.finished},
    "revoke": {S.open: S.revoked, S.claimed: S.revoked},
    "resend": {S.open: S.open, S.claimed: S.claimed},
})
_move = MACHINE.move


def claim(status: InviteStatus) -> InviteStatus:
    return _move("claim", status)


def start(status: InviteStatus) -> InviteStatus:
    return _move("start", status)


def finish(status: InviteStatus) -> InviteStatus:
    return _move("finish", status)


def revoke(status: InviteStatus) -> InviteStatus:
    return _move("revoke", status)


def resend(status: InviteStatus) -> InviteStatus:
    return _move("resend", status)


def effective(stored: InviteStatus, closes_at: float, now: float) -> InviteStatus:
    """What the invite is now: an open or claimed invite past its window has expired."""
    if stored in (S.open, S.claimed) and now >= closes_at:
        return S.expired
    return stored


# ---- tokens -----------------------------------------------------------------------------------

def new_token() -> str:
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def payload(token: str) -> str:
    """The `start` parameter: at most 64 characters of A-Z a-z 0-9 _ - (here 26)."""
    return PREFIX + token


def token_of(start_param: str) -> str | None:
    """The token in a `start` parameter, or None when it is not an invite's shape."""
    m = _PAYLOAD.match(start_param or "")
    return m.group(1) if m else None


def link(bot_username: str, token: str) -> str:
    return f"https://t.me/{bot_username}?start={payload(token)}"


class GuessLimiter:
    """Unknown tokens per user: after `limit` within `per` seconds, further tries are refused
    without looking (in memory: a restart forgives, the 128 bits still stand)."""

    def __init__(self, limit: int = 5, per: float = 600.0):
        self.limit, self.per = limit, per
        self._misses: dict[int, deque[float]] = {}

    def _recent(self, user_id: int, now: float) -> deque[float]:
        q = self._misses.setdefault(user_id, deque())
        while q and q[0] <= now - self.per:
            q.popleft()
        return q

    def allowed(self, user_id: int, now: float) -> bool:
        return len(self._recent(user_id, now)) < self.limit

    def missed(self, user_id: int, now: float) -> None:
        self._recent(user_id, now).append(now)


# ---- the request ------------------------------------------------------------------------------

_DURATION = re.compile(r"^(\d{1,4})([mhd])$")
_UNIT = {"m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """'90m', '48h', '3d' in seconds. Raises BadInvite."""
    m = _DURATION.match(text.strip().lower())
    if not m or int(m.group(1)) == 0:
        raise BadInvite(f"{text!r} is not a duration like 90m, 48h or 3d")
    return int(m.group(1)) * _UNIT[m.group(2)]


@dataclass(frozen=True, slots=True)
class Request:
    paper: str
    window: float = DEFAULT_WINDOW
    extra_min: int = 0
    username: str | None = None
    notify: bool = False
    attempts: int = 1


_ATTEMPTS = re.compile(r"^(\d{1,2})x$")


def parse_request(args: list[str]) -> Request:
    """`<paper words…> [48h] [+15m] [@username] [2x] [notify]`. Raises BadInvite."""
    words: list[str] = []
    window, extra, username, notify, attempts = None, 0, None, False, 1
    for a in args:
        if words and (m := _ATTEMPTS.match(a.lower())):
            attempts = int(m.group(1))
            if not 1 <= attempts <= MAX_ATTEMPTS:
                raise BadInvite(f"attempts are 1x to {MAX_ATTEMPTS}x")
        elif a.startswith("@") and len(a) > 1:
            username = a[1:]
        elif a.startswith("+"):
            extra = int(parse_duration(a[1:]) // 60)
        elif a.lower() == "notify":
            notify = True
        elif _DURATION.match(a.lower()) and words:
            window = parse_duration(a)
        else:
            words.append(a)
    if not words:
        raise BadInvite("which paper?")
    return Request(" ".join(words), check_window(window or DEFAULT_WINDOW), check_extra(extra), username, notify,
                   attempts)


def check_window(seconds: float) -> float:
    if not 0 < seconds <= MAX_WINDOW:
        raise BadInvite("the window is at most 60 days")
    return seconds


def check_extra(minutes: int) -> int:
    if not 0 <= minutes <= MAX_EXTRA_MIN:
        raise BadInvite("extra time is at most 24 hours")
    return minutes


# ---- stored invites ---------------------------------------------------------------------------

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
                   bool(r["notify_group"]), S(r["status"]), r["candidate_id"], r["attempt_id"])


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
    if not 1 <= count <= MAX_COUNT or not 1 <= attempts <= MAX_ATTEMPTS:
        raise BadInvite(f"count is 1 to {MAX_COUNT}, attempts 1 to {MAX_ATTEMPTS}")
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


async def open_link(db: Database, token: str, *, user_id: int, username: str | None, now: float) -> Invite:
    """The user opened the link: the first one claims it (audited). Returns the invite if it is the
    user's and still usable (claimed, or finished with attempts left, inside the window, or started).

    Raises Refused(unknown | foreign | used | expired | revoked).
    """

    def transaction(conn: sqlite3.Connection) -> tuple[int, int | None]:
        cur = conn.execute("SELECT * FROM invites WHERE token_hash=?", (hash_token(token),))
        row = cur.fetchone()
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
        return inv.id, _cap_in(conn, inv.paper_id)

    invite_id, cap = await db.run_write(transaction)
    inv = await get(db, invite_id)
    reason = unusable(inv, now, cap)
    if reason is not None and inv.status != S.started:
        raise Refused(reason)
    return inv


def _cap_in(conn: sqlite3.Connection, paper_id: int) -> int | None:
    """The attempts any invite to the paper allows: a hiring paper's own limit (an invite made
    before that rule keeps its record and gets no more); None for any other paper."""
    paper = hiring.hiring_paper_in(conn, paper_id)
    return None if paper is None else paper.cap


def unusable(inv: Invite, now: float, cap: int | None = None) -> Refusal | None:
    """Why a new attempt cannot start on this invite now (None: it can); `cap`: the paper's bound
    on any invite's attempts (a hiring paper's)."""
    status = inv.status_at(now)
    allowed = inv.attempts_allowed if cap is None else min(inv.attempts_allowed, cap)
    if status == S.revoked:
        return Refusal.revoked
    if status == S.expired:
        return Refusal.expired
    if status == S.started or inv.attempts_used >= allowed:
        return Refusal.used
    if now >= inv.closes_at:
        return Refusal.expired
    return None


def start_in(conn: sqlite3.Connection, invite_id: int, user_id: int, now: float) -> int:
    """Inside the attempt's own transaction: the invite's owner starts it now. Returns the extra
    minutes. Raises Refused (nothing is written then)."""
    inv = find_in(conn, invite_id)
    if inv is None:
        raise Refused(Refusal.unknown)
    if inv.candidate_id != user_id:
        raise Refused(Refusal.foreign)
    if (reason := unusable(inv, now, _cap_in(conn, inv.paper_id))) is not None:
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


async def revoke_invite(db: Database, invite_id: int, *, actor: int, now: float) -> Invite:
    """Withdraw an open or claimed invite (audited). Raises NotFound, IllegalTransition."""

    def transaction(conn: sqlite3.Connection) -> None:
        inv = find_in(conn, invite_id)
        if inv is None:
            raise NotFound(f"no invite {invite_id}")
        if inv.status_at(now) == S.expired:
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
        if inv.status_at(now) == S.expired:
            raise IllegalTransition("the invite has expired")
        resend(inv.status)
        conn.execute("UPDATE invites SET token_hash=? WHERE id=?", (hash_token(token), inv.id))
        record_audit(conn, at=now, actor=actor, chat_id=inv.team_chat_id, action=AuditAction.invite_resend,
                     target=f"invite:{inv.id}", target_user=inv.candidate_id)

    await db.run_write(transaction)
    return await get(db, invite_id), token


# ---- reading ----------------------------------------------------------------------------------

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
    rows = await db.fetchall(
        f"""SELECT i.*, p.code || ' ' || p.title AS paper, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS candidate,
                   a.score, a.max_score, a.started_at AS a_started, a.finished_at AS a_finished,
                   (SELECT COUNT(*) FROM answers x WHERE x.attempt_id = a.id AND x.final = 0) AS pending,
                   (SELECT json_group_array(e.score) FROM (SELECT score FROM attempts WHERE invite_id = i.id
                      AND id <> i.attempt_id AND score IS NOT NULL ORDER BY id) e) AS earlier
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


async def find_paper(db: Database, key: str) -> tuple[int, str]:
    """The paper an /invite names, as every command reads a paper (`bank.paper_list.pick_paper`: its
    code, slug, title or a unique part of it), among the papers with questions to ask (invite-only
    papers too, which /papers never lists). Returns (id, title). Raises NotFound, AmbiguousPaper."""
    paper = pick_paper([p for p in await paper_summaries(db, composed=True) if p.askable], key)
    return paper.id, paper.title

