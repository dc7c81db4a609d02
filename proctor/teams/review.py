"""Reviewing subjective answers: a lead sets the final score; the attempt's score follows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass

from bank.errors import NotFound
from bank.grading.result import Verdict
from bank.grading.subjective import term_coverage
from bank.option_order import SeenOption
from bank.question_ref import QuestionRef
from bank.store import Engine, engine_of, ids_in, one_row
from proctor import outbox
from proctor.audit import AuditAction
from proctor.errors import ProctorError
from proctor.exams.rated import reviewed_in
from proctor.exams.scoring import ATTEMPT_TOTAL
from proctor.exams.states import AttemptStatus
from proctor.exams.visibility import Fact, Lens, Viewer, lens_in, record_key_read_in
from proctor.storage.db import Database
from proctor.teams import audit
from proctor.teams.candidate import seen_answer
from proctor.teams.consent import seen_sql


class AlreadyReviewed(ProctorError):
    """The answer already has a final score."""


class BadScore(ProctorError):
    """The score is outside 0..max for the answer."""


class SelfReview(ProctorError):
    """Nobody scores their own answers, configured admins included."""


class OutOfScope(ProctorError):
    """The answer is not one the reviewer may see: the candidate is not on the roster of the team they
    act for, or the read rule withholds the paper's answers from them."""


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
    ref: QuestionRef = QuestionRef("", 0)  # the question's reference (P3 · Q43: its home paper's)
    seen: tuple[SeenOption, ...] = ()  # a choice answer (its key unreadable): the options as the candidate saw them


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
    # the question's reference (its home paper's code and n; None in notices queued before they were stored)
    ref_code: str | None = None
    ref_n: int | None = None

    @property
    def ref(self) -> QuestionRef | None:
        return None if self.ref_code is None or self.ref_n is None else \
            QuestionRef(self.ref_code, self.ref_n, self.question_id)


def _text(raw: str) -> str:
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _scope_sql(lens: Lens, engine: Engine) -> tuple[str, dict[str, object]]:
    """What a reviewer may see (the lens: its viewer, for team `lens.scope`): never their own answers;
    only papers whose answers and reference answers the read rule shows them, and none of the questions
    sealed for them; for a group's leads, only the members on its roster (proctor/teams/consent.py:
    joined with consent, in the group, attempts since) and the team's own invited candidates, who are on
    no roster."""
    reviewer, scope = lens.viewer.user_id, lens.scope
    shown = (f"AND x.question_id NOT IN ({ids_in(engine, ':sealed')}) "
             f"AND (t.paper_id IN ({ids_in(engine, ':answers')}) "
             f"AND t.paper_id IN ({ids_in(engine, ':references')}) "
             "OR t.paper_id IS NULL AND :mock) AND t.user_id != :reviewer")
    params: dict[str, object] = {
        "sealed": lens.sealed_json(), "answers": lens.papers_showing(Fact.others_answers),
        "references": lens.papers_showing(Fact.reference), "reviewer": reviewer, "scope": scope,
        "mock": lens.mock.shows(Fact.others_answers) and lens.mock.shows(Fact.reference)}
    if scope is None:
        return shown, params
    return (f"{shown} AND ({seen_sql('t.user_id', 't.started_at', ':scope')} "
            "OR t.invite_id IN (SELECT v.id FROM invites v WHERE v.team_chat_id = :scope))", params)


async def next_pending(db: Database, lens: Lens, *, now: float, skip: int = 0,
                       attempt_id: int | None = None) -> Pending | None:
    """The oldest answer awaiting review (after skipping `skip`) that the lens's viewer may score: of
    the members on group `lens.scope`'s roster and its invited candidates (None: everyone), never the
    viewer's own, on papers the read rule lets them read. Its reference answer is a key: on a hiring
    paper, the read is audited in the same transaction."""
    where, params = _scope_sql(lens, db.engine)
    if attempt_id is not None:  # one attempt's answers only (an invite's result card)
        where += " AND x.attempt_id = :attempt"
        params["attempt"] = attempt_id
    pending = (f"answers x JOIN attempts t ON t.id = x.attempt_id WHERE x.final = 0 "
               f"AND t.status = '{AttemptStatus.finished}' {where}")

    def read(conn: sqlite3.Connection) -> Pending | None:
        remaining = conn.execute(f"SELECT COUNT(*) FROM {pending}", params).fetchone()[0]
        if not remaining:
            return None
        row = conn.execute(
            f"""SELECT p.*, q.stem, q.answer, q.key_terms, q.kind, q.options, i.option_order, c.letter_refs,
                       COALESCE(NULLIF(u.first_name, ''), u.username, '') AS name,
                       q.seq, (SELECT hp.code FROM papers hp WHERE hp.id = q.paper_id) AS home_code
                FROM (SELECT x.attempt_id, x.pos, x.question_id, x.response, x.score, x.max_score,
                             x.answered_at, t.user_id, t.title, t.paper_id,
                             (SELECT pp.code FROM papers pp WHERE pp.id = t.paper_id) AS code FROM {pending}) p
                JOIN questions q ON q.id = p.question_id JOIN users u ON u.id = p.user_id
                JOIN attempt_items i ON i.attempt_id = p.attempt_id AND i.pos = p.pos
                LEFT JOIN question_checks c ON c.question_id = p.question_id
                ORDER BY p.answered_at, p.attempt_id, p.pos LIMIT 1 OFFSET :skip""",
            {**params, "skip": skip % remaining}).fetchone()
        if row is None:  # reviewed by someone else since the count
            return None
        record_key_read_in(conn, lens.viewer, lens.scope, lens.of(row["paper_id"]), [row["question_id"]], now=now)
        response = _text(row["response"])
        found, missing = term_coverage(json.loads(row["key_terms"] or "[]"), response)
        return Pending(attempt_id=row["attempt_id"], pos=row["pos"], user_id=row["user_id"], name=row["name"],
                       title=row["title"], question_id=row["question_id"], stem=row["stem"],
                       response=response, reference=_text(row["answer"]),
                       score=row["score"], max_score=row["max_score"], remaining=remaining, code=row["code"],
                       terms_found=tuple(found), terms_missing=tuple(missing),
                       ref=QuestionRef(row["home_code"], row["seq"], row["question_id"]),
                       seen=seen_answer(row))

    return await db.run_write(read)


def verdict_for(score: float, max_score: float) -> Verdict:
    if score >= max_score:
        return Verdict.correct
    return Verdict.wrong if score <= 0 else Verdict.partial


async def set_final(db: Database, attempt_id: int, pos: int, score: float, *, viewer: Viewer,
                    scope: int | None, now: float) -> Outcome:
    """Make the score of one pending answer final and recompute the attempt's score; `viewer` is the
    reviewer (a lead, or a configured admin) acting for team `scope`.

    Checked here, in the same transaction, whatever the caller checked before: the reviewer is not
    the candidate, and the answer is one `next_pending` could show them now (the read rule, the
    roster of group `scope`).

    Raises NotFound, SelfReview, OutOfScope, AlreadyReviewed, BadScore.
    """
    if viewer.user_id is None:
        raise ValueError("a review is a person's: the viewer names the reviewer")
    reviewer: int = viewer.user_id

    def transaction(conn: sqlite3.Connection) -> Outcome:
        where, params = _scope_sql(lens_in(conn, viewer, scope), engine_of(conn))
        cur = conn.execute(
            "SELECT x.final, x.max_score, x.score, x.question_id, t.user_id, t.title, "
            "(SELECT pp.code FROM papers pp WHERE pp.id = t.paper_id) AS code, q.seq, "
            "(SELECT hp.code FROM papers hp WHERE hp.id = q.paper_id) AS home_code, "
            f"EXISTS (SELECT 1 FROM attempts t WHERE t.id = x.attempt_id {where}) AS allowed FROM answers x "
            "JOIN attempts t ON t.id = x.attempt_id JOIN questions q ON q.id = x.question_id "
            "WHERE x.attempt_id=:attempt AND x.pos=:pos",
            {**params, "attempt": attempt_id, "pos": pos})
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
                       pos=pos, code=row["code"], ref_code=row["home_code"], ref_n=row["seq"])
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


async def withheld_papers(db: Database, lens: Lens) -> list[str]:
    """Titles of the hiring papers whose answers, from the invites of team `lens.scope`, await review
    but are withheld from the lens's viewer (the team is not verified for them): the queue says so in
    one line."""
    if lens.scope is None:
        return []
    rows = await db.fetchall(
        f"""SELECT DISTINCT p.title FROM invites v JOIN attempts t ON t.invite_id = v.id
            JOIN papers p ON p.id = t.paper_id
            WHERE v.team_chat_id = ? AND t.status = '{AttemptStatus.finished}'
              AND EXISTS (SELECT 1 FROM answers x WHERE x.attempt_id = t.id AND x.final = 0)
              AND p.id NOT IN ({ids_in(db.engine)}) ORDER BY p.title""",
        (lens.scope, lens.papers_showing(Fact.others_answers)))
    return [r[0] for r in rows]
