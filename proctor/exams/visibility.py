"""The read rule: what a viewer may read of a paper, in one function every route asks.

A paper holds nine kinds of fact (`Fact`). Who reads them (`Viewer`: the command line, a configured
admin, a team's lead, a person about their own attempt, or everyone who reads a group's message) and
for which team (`scope`) decide a `Visibility`: the facts of one paper this viewer may read now. The
table is `facts_for`, pure. A hiring paper (exam-only or invite-only, proctor/hiring.py) shows its
facts to the configured admins and to the leads of the teams verified for it, and to nobody else:
never to a group, and to its own candidate only what the paper's review option shows (`score` unless
the paper says otherwise).

Then the seal (proctor/exams/seal.py), per person: the key, reference answer, explanation and doubts
of a question sealed for X (X is sitting an exam on it) are in nothing X can read, a configured admin's
or a lead's read included; a group post holds them for every known member of the group. Only the
command line is never sealed (it has no person).

Nothing caches a `Visibility`: each update, desk request or send asks again, so a team whose
verification is undone reads nothing more of the paper at its next request. A lead's or an admin's
read of a hiring paper's keys is written to the audit log (`record_key_read_in`) by the reader that
returns them, in its transaction.

`Lens` is the same decision for every paper at once (listings, files), with the paper ids that show a
fact as one SQL parameter, so a listing's query filters by the rule and not by a copy of it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from bank.kinds import ReviewOption, review_option
from bank.store import Engine, engine_of, json_rows
from proctor.audit import AuditAction, record_audit
from proctor.exams import seal
from proctor.hiring import hiring_sql, verified_sql
from proctor.storage.db import Database


class Fact(StrEnum):
    """What a paper holds that somebody may or may not read."""
    question = "question"  # the questions: stems and options
    key = "key"  # the keys
    reference = "reference"  # a written question's reference answer
    explanation = "explanation"  # the explanations
    section = "section"  # the sections' names and the scores by section
    result = "result"  # per-question results: right, wrong, points
    doubt = "doubt"  # a held question's doubt (it names the key)
    item_stats = "item_stats"  # statistics of each question
    others_answers = "others_answers"  # what other people answered


EVERY: frozenset[Fact] = frozenset(Fact)
NONE: frozenset[Fact] = frozenset()
SEALED = frozenset({Fact.key, Fact.reference, Fact.explanation, Fact.doubt, Fact.result})  # what a seal withholds
# (per-question results too: right or wrong on an earlier sitting tells the key of the one running)


class Role(StrEnum):
    """Who reads; the caller has checked that the viewer is one (admins: PROCTOR_ADMINS; leads: the
    group's administrators)."""
    operator = "operator"  # the command line: the machine's owner
    admin = "admin"  # a configured admin (PROCTOR_ADMINS)
    lead = "lead"  # a group's administrator acting for that group (the scope)
    person = "person"  # anyone, about their own attempt or quiz, in their private chat
    audience = "audience"  # everyone who reads a message in a group (the scope)


@dataclass(frozen=True, slots=True)
class Viewer:
    role: Role
    user_id: int | None = None  # whose seal applies; None: the command line, a group's audience


OPERATOR = Viewer(Role.operator)
AUDIENCE = Viewer(Role.audience)


@dataclass(frozen=True, slots=True)
class Visibility:
    """The facts of one paper a viewer may read now (paper None: a random mock paper's attempt)."""

    paper_id: int | None
    facts: frozenset[Fact]
    sealed: frozenset[int] = frozenset()  # question ids whose SEALED facts this viewer may not read
    audited: bool = False  # a read of the keys is written to the audit log (record_key_read_in)
    paper_sealed: bool = False  # some question of this paper is sealed for the viewer

    def shows(self, fact: Fact, question_id: int | None = None) -> bool:
        """Whether the viewer may read this fact of this question. Without a question (the paper's
        keys as a whole), a SEALED fact is withheld while any question of the paper is sealed."""
        if fact not in self.facts:
            return False
        if fact not in SEALED:
            return True
        return not self.paper_sealed if question_id is None else question_id not in self.sealed


# ---- the table ----------------------------------------------------------------------------------

_GROUP_POST = frozenset({Fact.question, Fact.key, Fact.explanation, Fact.section})  # a daily close, a live poll, a digest

# role -> (practice paper, hiring paper the scope is verified for, hiring paper it is not verified for)
_TABLE: dict[Role, tuple[frozenset[Fact], frozenset[Fact], frozenset[Fact]]] = {
    Role.operator: (EVERY, EVERY, EVERY),
    Role.admin: (EVERY, EVERY, EVERY),
    Role.lead: (EVERY, EVERY, NONE),  # rows of other people still only by roster consent
    Role.audience: (_GROUP_POST, NONE, NONE),  # a hiring paper is never posted in a group
}

# a person about their own attempt: what the paper's review option shows (hiring papers: `score` by default)
_OWN: dict[ReviewOption, frozenset[Fact]] = {
    ReviewOption.none: frozenset({Fact.question}),
    ReviewOption.score: frozenset({Fact.question}),
    ReviewOption.sections: frozenset({Fact.question, Fact.section}),
    ReviewOption.full: frozenset({Fact.question, Fact.section, Fact.key, Fact.reference, Fact.explanation,
                                  Fact.result}),
}

_AUDITED = frozenset({Role.admin, Role.lead})  # whose reads of a hiring paper's keys are written down


def facts_for(role: Role, *, hiring: bool, verified: bool, review: ReviewOption) -> frozenset[Fact]:
    """The facts of a paper `role` may read, before any seal: `hiring` (exam-only or invite-only),
    `verified` (the scope's team is verified for it; leads only), `review` (the paper's review option,
    its default resolved; a person's own attempt only)."""
    if role == Role.person:
        return _OWN[review]
    practice, open_, closed = _TABLE[role]
    return practice if not hiring else open_ if verified else closed


def _visibility(role: Role, paper_id: int | None, *, hiring: bool, verified: bool, review: str | None,
                sealed: seal.Seal) -> Visibility:
    facts = facts_for(role, hiring=hiring, verified=verified, review=review_option(hiring, review))
    return Visibility(paper_id, facts, sealed.questions, audited=hiring and role in _AUDITED and Fact.key in facts,
                      paper_sealed=sealed.touches_paper(paper_id))


def _mock(role: Role, sealed: seal.Seal) -> Visibility:
    """An attempt on a random mock paper (no paper): practice papers' questions, sealed per question."""
    return _visibility(role, None, hiring=False, verified=False, review=None, sealed=sealed)


# ---- reading it ---------------------------------------------------------------------------------

_NO_SEAL = "SELECT CAST(NULL AS BIGINT) AS id, CAST(NULL AS BIGINT) AS paper_id WHERE 1 = 0"

# the paper's settings, the scope's verification for it and the viewer's seal, in one statement
_ONE = {engine: f"""SELECT p.id IS NOT NULL AS found, CASE WHEN {hiring_sql('p')} THEN 1 ELSE 0 END AS hiring,
                          p.review AS review, {verified_sql(':scope', ':paper')} AS verified,
                          {json_rows(engine, ["s.id", "s.paper_id"], "FROM ({seal}) s")} AS sealed
                   FROM (SELECT CAST(:paper AS BIGINT) AS id) x LEFT JOIN papers p ON p.id = x.id"""
        for engine in Engine}

_EVERY_PAPER = f"""SELECT p.id, {hiring_sql('p')} AS hiring, p.review AS review,
                          {verified_sql(':scope', 'p.id')} AS verified FROM papers p"""


def _group(viewer: Viewer, scope: int | None) -> int | None:
    if viewer.role == Role.audience and scope is None:
        raise ValueError("an audience reads a group's messages: its scope is the group's chat id")
    return scope


def _seal_sql(viewer: Viewer) -> str:
    if viewer.role == Role.audience:
        return seal.SEALED_FOR_GROUP
    if viewer.role == Role.operator or viewer.user_id is None:
        return _NO_SEAL
    return seal.SEALED_FOR_USER


def _seal_in(conn: sqlite3.Connection, viewer: Viewer, scope: int | None) -> seal.Seal:
    if viewer.role == Role.audience:
        return seal.sealed_for_group_in(conn, scope) if scope is not None else seal.NOTHING
    if viewer.role == Role.operator or viewer.user_id is None:
        return seal.NOTHING
    return seal.sealed_in(conn, viewer.user_id)


def visibility_in(conn: sqlite3.Connection, viewer: Viewer, scope: int | None, paper_id: int | None) -> Visibility:
    """What `viewer`, for team `scope` (a group's chat id; None: every team, or a private chat), may
    read of paper `paper_id` now (None: a random mock paper), on the database thread. A paper that
    does not exist shows nothing."""
    chat = _group(viewer, scope)
    row = conn.execute(_ONE[engine_of(conn)].format(seal=_seal_sql(viewer)),
                       {"paper": paper_id, "scope": scope, "user": viewer.user_id, "chat": chat}).fetchone()
    pairs = json.loads(row["sealed"])
    sealed = seal.Seal(frozenset(q for q, _ in pairs), frozenset(p for _, p in pairs))
    if paper_id is None:
        return _mock(viewer.role, sealed)
    if not row["found"]:
        return Visibility(paper_id, NONE, sealed.questions)
    return _visibility(viewer.role, paper_id, hiring=bool(row["hiring"]), verified=bool(row["verified"]),
                       review=row["review"], sealed=sealed)


async def visibility(db: Database, viewer: Viewer, scope: int | None, paper_id: int | None) -> Visibility:
    """`visibility_in` in one read."""
    return await db.run(lambda conn: visibility_in(conn, viewer, scope, paper_id))


@dataclass(frozen=True, slots=True)
class Lens:
    """The rule for every paper at once, for one viewer and scope: for listings and files."""

    viewer: Viewer
    scope: int | None
    papers: Mapping[int, Visibility]  # every paper by id
    mock: Visibility  # an attempt on a random mock paper (no paper)
    sealed: frozenset[int]  # the viewer's seal

    def of(self, paper_id: int | None) -> Visibility:
        """The paper's Visibility (a paper unknown to the lens shows nothing)."""
        if paper_id is None:
            return self.mock
        found = self.papers.get(paper_id)
        return found if found is not None else Visibility(paper_id, NONE, self.sealed)

    def papers_showing(self, fact: Fact) -> str:
        """The ids of the papers that show `fact`, as one SQL parameter:
        `p.id IN ({bank.store.ids_in(engine)})`. A SEALED fact is per question too (`sealed_json`);
        an attempt on no paper (a random mock) follows `mock`."""
        return json.dumps(sorted(pid for pid, v in self.papers.items() if fact in v.facts))

    def sealed_json(self) -> str:
        """The sealed question ids as one SQL parameter: `q.id NOT IN ({bank.store.ids_in(engine)})`."""
        return json.dumps(sorted(self.sealed))


def lens_in(conn: sqlite3.Connection, viewer: Viewer, scope: int | None) -> Lens:
    """The Lens of `viewer` for team `scope` (as `visibility_in`), on the database thread."""
    sealed = _seal_in(conn, viewer, _group(viewer, scope))
    papers = {r["id"]: _visibility(viewer.role, r["id"], hiring=bool(r["hiring"]), verified=bool(r["verified"]),
                                   review=r["review"], sealed=sealed)
              for r in conn.execute(_EVERY_PAPER, {"scope": scope})}
    return Lens(viewer, scope, papers, _mock(viewer.role, sealed), sealed.questions)


async def lens(db: Database, viewer: Viewer, scope: int | None) -> Lens:
    """`lens_in` in one read."""
    return await db.run(lambda conn: lens_in(conn, viewer, scope))


# ---- the audit of key reads ---------------------------------------------------------------------

def record_key_read_in(conn: sqlite3.Connection, viewer: Viewer, scope: int | None, vis: Visibility,
                       question_ids: Iterable[int], *, now: float) -> bool:
    """Inside the guarded reader's transaction (`Database.run_write`), when it returns keys, reference
    answers or explanations of these questions under `vis`: writes `key_read` (who, for which team,
    which paper and questions) if `vis` is audited. Returns whether it wrote an entry."""
    ids = sorted(set(question_ids))
    if not vis.audited or not ids:
        return False
    record_audit(conn, at=now, actor=viewer.user_id or 0, chat_id=scope, action=AuditAction.key_read,
                 target=f"paper:{vis.paper_id}", questions=ids)
    return True
