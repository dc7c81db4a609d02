"""Hiring papers and the teams verified for them: who may invite to a hiring paper and see its keys.

A hiring paper is exam-only or invite-only. Anyone can make a group and be its administrator, so a
hiring paper belongs to the configured admins (scope None) and to the teams a configured admin
verified for it (`proctor team verify`, the desk's Hiring page; both audited). Only those invite to
it (`check_in`); what anyone reads of it is the read rule's (proctor/exams/visibility.py, which asks
`verified_sql`); another team's lead is told which paper and who can verify (`NotVerified`). Every sitting's score says something about
the keys, so an invite to a hiring paper allows at most the paper's own attempt limit, one when the
paper sets none (`HiringPaper.cap`), whoever made it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from proctor.audit import AuditAction, record_audit
from proctor.errors import ProctorError
from proctor.storage.db import Database

VERIFY, UNVERIFY = AuditAction.team_verify, AuditAction.team_unverify  # audit actions


def hiring_sql(paper: str) -> str:
    """SQL that holds when the papers row `paper` (an alias) is a hiring paper."""
    return f"({paper}.exam_only = 1 OR {paper}.invite_only = 1)"


def verified_sql(team: str, paper: str) -> str:
    """SQL that holds when team `team` is verified for paper `paper` (SQL expressions: a column, a
    `?` bound once, or a named parameter): for that paper, or for every hiring paper."""
    return (f"EXISTS (SELECT 1 FROM team_verifications tv WHERE tv.chat_id = {team} "
            f"AND (tv.paper_id IS NULL OR tv.paper_id = {paper}))")


@dataclass(frozen=True, slots=True)
class HiringPaper:
    id: int
    slug: str
    title: str
    cap: int  # attempts per invite: the paper's own limit, one when it sets none
    code: str = ""  # "P4": what people see and type (bank/paper_list.py)


class NotVerified(ProctorError):
    """The team is not verified for this hiring paper (a configured admin can verify it)."""

    def __init__(self, paper: HiringPaper, chat_id: int):
        self.paper, self.chat_id = paper, chat_id
        super().__init__(f"team {chat_id} is not verified for the hiring paper {paper.code} {paper.title!r}: "
                         f"a configured admin can run `proctor team verify --papers {paper.code} {chat_id}`")


class TooManyAttempts(ProctorError):
    """More attempts per invite than the hiring paper allows."""

    def __init__(self, paper: HiringPaper):
        self.paper = paper
        super().__init__(f"{paper.title!r} is a hiring paper: at most {paper.cap} attempt(s) per invite "
                         f"(its own attempt limit: `proctor bank set {paper.code} --attempts N`)")


class BadTeam(ProctorError):
    """A team is a group: its chat id is negative."""


_PAPER = f"""SELECT p.id, p.slug, p.title, COALESCE(p.attempts_allowed, 1) AS cap, p.code FROM papers p
             WHERE p.id=? AND {hiring_sql('p')}"""
_VERIFIED = f"SELECT {verified_sql('?', '?')}"


def _paper(row: sqlite3.Row | None) -> HiringPaper | None:
    return None if row is None else HiringPaper(row["id"], row["slug"], row["title"], row["cap"], row["code"])


async def hiring_papers(db: Database) -> list[HiringPaper]:
    """Every hiring paper, by slug."""
    rows = await db.fetchall(f"""SELECT p.id, p.slug, p.title, COALESCE(p.attempts_allowed, 1) AS cap, p.code
                                 FROM papers p WHERE {hiring_sql('p')} ORDER BY p.slug""")
    return [HiringPaper(r["id"], r["slug"], r["title"], r["cap"], r["code"]) for r in rows]


def hiring_paper_in(conn: sqlite3.Connection, paper_id: int) -> HiringPaper | None:
    """`hiring_paper` inside the caller's transaction."""
    cur = conn.execute(_PAPER, (paper_id,))
    return _paper(cur.fetchone())


def check_in(conn: sqlite3.Connection, scope: int | None, paper_id: int) -> HiringPaper | None:
    """Inside the caller's write: the paper if it is a hiring paper (None otherwise), when team
    `scope` may use it (None: a configured admin). Raises NotVerified."""
    paper = hiring_paper_in(conn, paper_id)
    if paper is not None and scope is not None and not conn.execute(_VERIFIED, (scope, paper_id)).fetchone()[0]:
        raise NotVerified(paper, scope)
    return paper


# ---- the verifications ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Verification:
    chat_id: int
    team: str  # the group's title as the bot last saw it ('' before it saw the group)
    paper_id: int | None  # None: every hiring paper
    paper: str  # its slug ('' for every hiring paper)
    verified_by: int  # 0: the command line
    verified_at: float
    label: str = ""  # what people read: "P3 title" ('' for every hiring paper)
    code: str = ""  # "P3": what a command or a form names it by ('' for every hiring paper)


async def listing(db: Database, chat_id: int | None = None) -> list[Verification]:
    """Every verification (of one team when `chat_id` is given), by team, then paper."""
    where, params = ("WHERE v.chat_id=?", (chat_id,)) if chat_id is not None else ("", ())
    rows = await db.fetchall(
        f"""SELECT v.*, COALESCE(c.title, '') AS team, COALESCE(p.slug, '') AS slug,
                   COALESCE(p.code || ' ' || p.title, '') AS label, COALESCE(p.code, '') AS code
            FROM team_verifications v
            LEFT JOIN chats c ON c.id = v.chat_id LEFT JOIN papers p ON p.id = v.paper_id {where}
            ORDER BY v.chat_id, v.paper_id IS NOT NULL, p.slug""", params)
    return [Verification(r["chat_id"], r["team"], r["paper_id"], r["slug"], r["verified_by"], r["verified_at"],
                         r["label"], r["code"])
            for r in rows]


def _team(chat_id: int) -> int:
    if chat_id >= 0:
        raise BadTeam(f"{chat_id} is not a group: a team's chat id is negative (the desk's Hiring page lists them)")
    return chat_id


async def verify(db: Database, chat_id: int, paper_ids: list[int] | None, *, actor: int,
                 now: float) -> int:
    """Verify team `chat_id` for these papers (None: every hiring paper), audited as team_verify.
    Returns how many verifications are new (again is no change, and no audit entry). Raises BadTeam."""
    _team(chat_id)

    def transaction(conn: sqlite3.Connection) -> int:
        added = 0
        for paper_id in paper_ids if paper_ids is not None else [None]:
            cur = conn.execute(
                "INSERT INTO team_verifications (chat_id, paper_id, verified_by, verified_at) VALUES (?,?,?,?) "
                "ON CONFLICT DO NOTHING", (chat_id, paper_id, actor, now))
            added += cur.rowcount
        if added:
            record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=VERIFY, target=f"team:{chat_id}",
                         papers=paper_ids if paper_ids is not None else "all")
        return added

    return await db.run_write(transaction)


async def unverify(db: Database, chat_id: int, paper_ids: list[int] | None, *, actor: int,
                   now: float) -> int:
    """Undo team `chat_id`'s verification for these papers (None: all of it), audited as
    team_unverify. Returns how many verifications it removed (a team verified for every hiring
    paper keeps that one until it is undone whole). Raises BadTeam."""
    _team(chat_id)
    if paper_ids == []:
        return 0

    def transaction(conn: sqlite3.Connection) -> int:
        if paper_ids is None:
            cur = conn.execute("DELETE FROM team_verifications WHERE chat_id=?", (chat_id,))
        else:
            marks = ",".join("?" * len(paper_ids))
            cur = conn.execute(f"DELETE FROM team_verifications WHERE chat_id=? AND paper_id IN ({marks})",
                               (chat_id, *paper_ids))
        removed: int = cur.rowcount
        if removed:
            record_audit(conn, at=now, actor=actor, chat_id=chat_id, action=UNVERIFY, target=f"team:{chat_id}",
                         papers=paper_ids if paper_ids is not None else "all")
        return removed

    return await db.run_write(transaction)


@dataclass(frozen=True, slots=True)
class Unverified:
    """A team holding invites to a hiring paper it is not verified for (made before verification
    existed, or before an admin undid it): their results stay with the admins until they verify it."""

    chat_id: int
    team: str
    paper: str  # slug
    invites: int
    label: str = ""  # what people read: "P3 title"


async def unverified_invites(db: Database) -> list[Unverified]:
    """Teams with invites to hiring papers they are not verified for, by team and paper."""
    rows = await db.fetchall(
        f"""SELECT i.team_chat_id, COALESCE(c.title, '') AS team, p.slug, p.code || ' ' || p.title AS label,
                   COUNT(*) AS n FROM invites i
            JOIN papers p ON p.id = i.paper_id LEFT JOIN chats c ON c.id = i.team_chat_id
            WHERE i.team_chat_id IS NOT NULL AND {hiring_sql('p')} AND NOT {verified_sql('i.team_chat_id', 'i.paper_id')}
            GROUP BY i.team_chat_id, c.title, p.id ORDER BY i.team_chat_id, p.slug""")
    return [Unverified(r["team_chat_id"], r["team"], r["slug"], r["n"], r["label"]) for r in rows]
