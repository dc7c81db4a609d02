"""Reviewing subjective answers: a lead sets the final score; the attempt's score follows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass

from bank.errors import NotFound
from bank.grading.result import Verdict
from bank.grading.subjective import term_coverage
from bank.store import one_row
from proctor import hiring, outbox
from proctor.audit import AuditAction
from proctor.errors import ProctorError
from proctor.exams.rated import reviewed_in
from proctor.exams.scoring import ATTEMPT_TOTAL
from proctor.exams.states import AttemptStatus
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.consent import seen_sql


class AlreadyReviewed(ProctorError):
    """The answer already has a final score."""


class BadScore(ProctorError):
    """The score is outside 0..max for the answer."""


class SelfReview(ProctorError):
    """Nobody scores their own answers, configured admins included."""


class OutOfScope(ProctorError):
    """The candidate is not on the roster of the team the lead acts for (or the paper is exam-only)."""


@dataclass(frozen=True, slots=True)
class Pending:
    attempt_id: int
    pos: int
    user_id: int
    name: str
    title: str  # the attempt's title (the paper)
    question_id: int
    stem: str
    response: str
    reference: str
    score: float  # provisional
    max_score: float
    remaining: int  # pending answers in scope, this one included
    code: str | None = None  # the paper's code (P3), None once the paper is gone
    terms_found: tuple[str, ...] = ()  # the stored key terms the provisional score found in the answer
    terms_missing: tuple[str, ...] = ()  # ... and those it did not


@dataclass(frozen=True, slots=True)
class Outcome:
    user_id: int
    attempt_id: int
    title: str
    question_id: int
    score: float
    max_score: float
    attempt_score: float
    attempt_max: float | None
    all_final: bool  # no answer of the attempt awaits review any more
    # where the candidate saw it: Q{pos + 1} of paper `code` (None in notices queued before they were stored)
    pos: int | None = None
    code: str | None = None


def _text(raw: str) -> str:
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _scope_sql(scope: int | None, reviewer: int) -> tuple[str, list[object]]:
    """What a reviewer may see: never their own answers; for a group's leads, only the members on
    its roster (proctor/teams/consent.py: joined with consent, in the group, attempts since), and never on exam-only (hiring)
    papers: anyone can make a group and be its administrator, so those stay with the configured
    admins (scope None) and the teams they verified for the paper."""
    own = "AND t.user_id != ?"
    if scope is None:
        return own, [reviewer]
    # ... except the team's own invited candidates, who are on no roster: on a hiring paper only
    # once a configured admin verified the team for it (proctor.hiring)
    return (f"{own} AND (({seen_sql('t.user_id', 't.started_at')} "
            "AND NOT EXISTS (SELECT 1 FROM papers hp WHERE hp.id = t.paper_id AND hp.exam_only = 1)) "
            "OR (t.invite_id IN (SELECT v.id FROM invites v WHERE v.team_chat_id = ?) "
            f"AND {hiring.open_sql('?', 't.paper_id')}))",
            [reviewer, scope, scope, scope])


async def next_pending(db: Database, scope: int | None, *, reviewer: int, skip: int = 0,
                       hide: str = "[]", attempt_id: int | None = None) -> Pending | None:
    """The oldest answer awaiting review (after skipping `skip`) that `reviewer` may score: of the
    members on group `scope`'s roster (None: everyone), never the reviewer's own, and none of the
    questions in `hide` (a JSON list of ids: the reviewer's sealed keys)."""
    where, params = _scope_sql(scope, reviewer)
    where += " AND x.question_id NOT IN (SELECT value FROM json_each(?))"
    params = [*params, hide]
    if attempt_id is not None:  # one attempt's answers only (an invite's result card)
        where += " AND x.attempt_id = ?"
        params.append(attempt_id)
    pending = (f"answers x JOIN attempts t ON t.id = x.attempt_id WHERE x.final = 0 "
               f"AND t.status = '{AttemptStatus.finished}' {where}")
    remaining = await db.scalar(f"SELECT COUNT(*) FROM {pending}", params)
    if not remaining:
        return None
    row = await db.fetchone(
        f"""SELECT p.*, q.stem, q.answer, q.key_terms, COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name
            FROM (SELECT x.attempt_id, x.pos, x.question_id, x.response, x.score, x.max_score,
                         x.answered_at, t.user_id, t.title,
                         (SELECT pp.code FROM papers pp WHERE pp.id = t.paper_id) AS code FROM {pending}) p
            JOIN questions q ON q.id = p.question_id JOIN users u ON u.id = p.user_id
            ORDER BY p.answered_at, p.attempt_id, p.pos LIMIT 1 OFFSET ?""", [*params, skip % remaining])
    if row is None:  # reviewed by someone else since the count
        return None
    response = _text(row["response"])
    found, missing = term_coverage(json.loads(row["key_terms"] or "[]"), response)
    return Pending(attempt_id=row["attempt_id"], pos=row["pos"], user_id=row["user_id"], name=row["name"],
                   title=row["title"], question_id=row["question_id"], stem=row["stem"],
                   response=response, reference=_text(row["answer"]),
                   score=row["score"], max_score=row["max_score"], remaining=remaining, code=row["code"],
                   terms_found=tuple(found), terms_missing=tuple(missing))


def verdict_for(score: float, max_score: float) -> Verdict:
    if score >= max_score:
        return Verdict.correct
    return Verdict.wrong if score <= 0 else Verdict.partial


async def set_final(db: Database, attempt_id: int, pos: int, score: float, *, reviewer: int,
                    scope: int | None, now: float) -> Outcome:
    """Make the score of one pending answer final and recompute the attempt's score.

    Checked here, in the same transaction, whatever the caller checked before: the reviewer is not
    the candidate, and the candidate is in the reviewer's scope (on group `scope`'s roster now).

    Raises NotFound, SelfReview, OutOfScope, AlreadyReviewed, BadScore.
    """
    where, params = _scope_sql(scope, reviewer)

    def transaction(conn: sqlite3.Connection) -> Outcome:
        cur = conn.execute(
            "SELECT x.final, x.max_score, x.score, x.question_id, t.user_id, t.title, "
            "(SELECT pp.code FROM papers pp WHERE pp.id = t.paper_id) AS code, "
            f"EXISTS (SELECT 1 FROM attempts t WHERE t.id = x.attempt_id {where}) AS allowed FROM answers x "
            "JOIN attempts t ON t.id = x.attempt_id WHERE x.attempt_id=? AND x.pos=?",
            (*params, attempt_id, pos))
        row = cur.fetchone()
        if row is None:
            raise NotFound(f"no answer {attempt_id}/{pos}")
        if row["user_id"] == reviewer:
            raise SelfReview(f"user {reviewer} may not score their own answer {attempt_id}/{pos}")
        if not row["allowed"]:
            raise OutOfScope(f"answer {attempt_id}/{pos} is not in scope {scope} for {reviewer}")
        if row["final"]:
            raise AlreadyReviewed(f"answer {attempt_id}/{pos} is already final")
        if not 0 <= score <= row["max_score"]:
            raise BadScore(f"{score} is outside 0..{row['max_score']}")
        conn.execute(
            "UPDATE answers SET score=?, verdict=?, final=1, reviewed_by=?, reviewed_at=? "
            "WHERE attempt_id=? AND pos=?",
            (score, verdict_for(score, row["max_score"]), reviewer, now, attempt_id, pos))
        reviewed_in(conn, attempt_id, pos)  # it counts for ratings now, with its final score
        cur = conn.execute(
            f"UPDATE attempts SET score={ATTEMPT_TOTAL} WHERE id=? RETURNING score, max_score",
            (attempt_id, attempt_id))
        total = one_row(cur.fetchone())  # RETURNING: the attempt read above
        cur = conn.execute("SELECT COUNT(*) FROM answers WHERE attempt_id=? AND final=0", (attempt_id,))
        left = one_row(cur.fetchone())[0]
        audit.record(conn, at=now, actor=reviewer, chat_id=scope, action=AuditAction.review,
                     target=f"answer:{attempt_id}/{pos}", target_user=row["user_id"],
                     provisional=row["score"], final=score)
        done = Outcome(user_id=row["user_id"], attempt_id=attempt_id, title=row["title"],
                       question_id=row["question_id"], score=score, max_score=row["max_score"],
                       attempt_score=total["score"], attempt_max=total["max_score"], all_final=left == 0,
                       pos=pos, code=row["code"])
        # the candidate is told through the outbox: a failed send is retried, never lost
        outbox.enqueue_in(conn, kind=outbox.Kind.review_notice, ref=f"{attempt_id}/{pos}", chat_id=done.user_id,
                          user_id=done.user_id, now=now, payload=asdict(done))
        return done

    return await db.run_write(transaction)




def score_steps(max_score: float) -> list[float]:
    """The buttons offered for a final score: half points up to 5, whole points up to 20,
    otherwise about twenty evenly spread whole numbers; always 0 and the maximum."""
    if max_score <= 5:
        n = int(max_score * 2)
        steps = [i / 2 for i in range(n + 1)]
    elif max_score <= 20:
        steps = [float(i) for i in range(int(max_score) + 1)]
    else:
        stride = max(1, round(max_score / 20))
        steps = [float(i) for i in range(0, int(max_score) + 1, stride)]
    if steps[-1] != max_score:
        steps.append(float(max_score))
    return steps


async def withheld_papers(db: Database, scope: int | None) -> list[str]:
    """Titles of the hiring papers whose answers, from the invites of team `scope`, await review but
    are withheld from its leads (the team is not verified for them): the queue says so in one line."""
    if scope is None:
        return []
    rows = await db.fetchall(
        f"""SELECT DISTINCT p.title FROM invites v JOIN attempts t ON t.invite_id = v.id
            JOIN papers p ON p.id = t.paper_id
            WHERE v.team_chat_id = ? AND t.status = '{AttemptStatus.finished}'
              AND EXISTS (SELECT 1 FROM answers x WHERE x.attempt_id = t.id AND x.final = 0)
              AND NOT {hiring.open_sql('?', 't.paper_id')} ORDER BY p.title""", (scope, scope))
    return [r[0] for r in rows]
