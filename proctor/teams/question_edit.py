"""Editing a question (/editq, `proctor bank edit`; /keyfix is the key edit of an upheld dispute).

Every edit is a new version of the question (`questions.key_version`, logged in `key_versions`,
its text kept in `question_versions`), so an answer stays graded against the version its sheet
showed. A key edit may regrade every past answer to the new key; the candidates whose score changes
are told through the outbox, and leaderboards and reports follow, since they read the stored scores.
One transaction: the new version, the regraded answers and totals, the audit entries (one for the
edit, one per attempt whose score changed) and the notices: each candidate hears of every change, up
or down, and the lead who invited a hiring attempt gets its updated card.

Nobody changes a key that changes their own score (`OwnScore`: refused, nothing written). A candidate
whose running exam seals the question hears nothing until they hand in (proctor/exams/held.py).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bank.errors import NotFound
from bank.formats.sheet import parse_key
from bank.grading import grade
from bank.kinds import CHOICE, SUBJECTIVE, Kind, MultiPolicy
from bank.models import Question
from bank.option_order import LETTERS
from bank.paper_settings import policy_of
from bank.paper_store import get_question
from bank.question_checks import refresh_paper
from bank.question_rows import question_from_row
from bank.question_versions import keep_version_in
from proctor import outbox
from proctor.audit import AuditAction
from proctor.daily.answers import daily_score
from proctor.errors import ProctorError
from proctor.exams import held
from proctor.exams.scoring import ATTEMPT_TOTAL, item_score
from proctor.exams.seal import sealed_anywhere, sealing_in
from proctor.exams.states import AttemptStatus
from proctor.exams.visibility import Fact, Viewer, record_key_read_in, visibility_in
from proctor.invites import attempts as invite_attempts
from proctor.ratings import events as ratings
from proctor.storage.db import Database
from proctor.teams import audit

MAX_TEXT = 3000  # a stem, an option or an explanation: room left in a 4096-unit message


class BadKey(ProctorError):
    """The new key doesn't fit the question (a letter it hasn't, a blank too many, ...)."""


class BadEdit(ProctorError):
    """The edit doesn't fit the question (an empty text, an option it hasn't, a text too long)."""


class Sealed(ProctorError):
    """The question is on a running exam: it can't change under a candidate's eyes."""


class Changed(ProctorError):
    """The question was edited by someone else since the preview."""


class OwnScore(ProctorError):
    """The key change would change the editor's own score: another admin must make it."""


class EditField(StrEnum):
    """What an edit changes."""
    key = "key"
    stem = "stem"
    option = "option"
    explanation = "explanation"


@dataclass(frozen=True, slots=True)
class Edit:
    """What to change; `option` 0-based for an option."""

    field: EditField
    value: str
    option: int = 0

    @property
    def name(self) -> str:
        """The audit entry's name of the field: "stem", "option:2", ..."""
        return f"option:{self.option}" if self.field is EditField.option else self.field.value


@dataclass(frozen=True, slots=True)
class Change:
    """An answer whose score a regrade changed."""

    user_id: int
    old: float
    new: float
    max_score: float
    attempt_id: int | None = None  # None: a daily-quiz answer
    from_version: int = 1  # the key version it was graded against before
    total_old: float | None = None  # the attempt's score before and after (None: not handed in)
    total_new: float | None = None
    title: str = ""  # the attempt's paper
    invite_id: int | None = None  # a hiring attempt's invite


@dataclass(frozen=True)
class Edited:
    question_id: int
    version: int
    field: str
    changes: list[Change] = dataclasses.field(default_factory=list)  # answers whose score changed
    answers: int = 0  # answers regraded (changed or not)
    sealing: dict[int, int] = dataclasses.field(default_factory=dict)  # user -> running attempt that seals it
    held: int = 0  # those candidates' exam answers, regraded at their hand-in


def new_key(q: Question, key: str | None, alternative: str | None = None) -> object:
    """The question's key after the fix, in its stored shape. Raises BadKey.

    A key is written as /newquestion and a spreadsheet's 答案 cell write it (bank.formats.sheet.parse_key):
    letters, true/false, blanks separated by |, accepted forms of one blank by ;, numbers; an alternative
    answer names one more accepted form per blank, blanks separated by |, empty to keep a blank."""
    if alternative is not None:
        if q.kind != Kind.fill or not isinstance(q.answer, list):
            raise BadKey("only fill-in blanks take alternative answers")
        parts = [p.strip() for p in alternative.split("|")] if len(q.answer) > 1 else [alternative.strip()]
        if len(parts) != len(q.answer) or not any(parts):
            raise BadKey(f"give one alternative per blank ({len(q.answer)}), empty to keep a blank")
        return [list(alts) + ([p] if p and p not in alts else []) for alts, p in zip(q.answer, parts, strict=True)]
    text = (key or "").strip()
    if not text:
        raise BadKey("no key given")
    if q.kind == Kind.matching:
        raise BadKey(f"a {q.kind.value} question's key is edited in its file, then imported again")
    if q.kind in SUBJECTIVE:
        return text  # written questions: the reference answer (their scores are a reviewer's)
    try:
        answer = parse_key(q, text)
    except ValueError as e:
        raise BadKey(str(e)) from None
    if q.kind in CHOICE and not set(str(answer)) <= set(LETTERS[:len(q.options)]):
        raise BadKey(f"a key of letters among {LETTERS[:len(q.options)]}")
    if q.kind == Kind.fill and isinstance(q.answer, list) and isinstance(answer, list) and len(answer) != len(q.answer):
        raise BadKey(f"one answer per blank ({len(q.answer)})")
    return answer


def edited(q: Question, edit: Edit) -> Question:
    """`q` with the edit applied (the version it would become). Raises BadKey, BadEdit."""
    if edit.field is EditField.key:
        return q.model_copy(update={"answer": new_key(q, edit.value)})
    text = edit.value.strip()
    if len(text) > MAX_TEXT:
        raise BadEdit(f"at most {MAX_TEXT} characters")
    if edit.field is EditField.explanation:
        return q.model_copy(update={"explanation": text})
    if not text:
        raise BadEdit("the text is empty")
    match edit.field:
        case EditField.stem:
            return q.model_copy(update={"stem": text})
        case EditField.option:
            if not 0 <= edit.option < len(q.options):
                raise BadEdit(f"the question has options {LETTERS[0]}–{LETTERS[max(len(q.options) - 1, 0)]}")
            options = list(q.options)
            options[edit.option] = text
            return q.model_copy(update={"options": options})


async def preview(db: Database, question_id: int, edit: Edit, viewer: Viewer, *,
                  now: float) -> tuple[Question, Question]:
    """The question now and as the edit would make it, as `viewer` reads them (`editable`); nothing
    of the question is written. Raises NotFound, Sealed, BadKey, BadEdit."""
    q = await editable(db, question_id, viewer, now=now)
    return q, edited(q, edit)


async def _unsealed(db: Database, question_id: int) -> Question:
    """The question, if no running exam has it (it can't change under a candidate's eyes). Raises
    NotFound, Sealed."""
    q = await get_question(db, question_id)
    if (await sealed_anywhere(db)).covers(question_id):
        raise Sealed(f"question {question_id} is on a running exam")
    return q


async def editable(db: Database, question_id: int, viewer: Viewer, *, now: float) -> Question:
    """The question, key and all, if `viewer` (a configured admin) may edit it now: no running exam
    has it, and the read rule shows them its key. A read of a hiring paper's key is audited.
    Raises NotFound, Sealed."""
    q = await _unsealed(db, question_id)

    def read(conn: sqlite3.Connection) -> None:
        row = conn.execute("SELECT paper_id FROM questions WHERE id=?", (question_id,)).fetchone()
        if row is None:
            raise NotFound(f"no question {question_id}")
        vis = visibility_in(conn, viewer, None, row[0])
        if not vis.shows(Fact.key, question_id):
            raise Sealed(f"question {question_id}'s key is withheld from user {viewer.user_id}")
        record_key_read_in(conn, viewer, None, vis, [question_id], now=now)

    await db.run_write(read)
    return q


async def edit_question(db: Database, question_id: int, edit: Edit, *, actor: int, now: float,
                        chat_id: int | None, regrade: bool = False, expected_version: int | None = None) -> Edited:
    """Apply `edit` as a new version; with `regrade` (a key edit) rescore every past answer to the new
    key and tell whose score changed. `expected_version`: the version the lead's preview showed.
    Raises NotFound, Sealed, Changed, BadKey, BadEdit."""
    await _unsealed(db, question_id)  # a race with a starting exam is harmless: its sheet keeps its version

    def transaction(conn: sqlite3.Connection) -> Edited:
        return edit_in(conn, question_id, lambda old: edited(old, edit), edit.name, actor=actor, now=now,
                       chat_id=chat_id, regrade=regrade and edit.field is EditField.key,
                       expected_version=expected_version)

    return await db.run_write(transaction)


def edit_in(conn: sqlite3.Connection, question_id: int, edit: Callable[[Question], Question], name: str, *,
            actor: int, now: float, chat_id: int | None, regrade: bool,
            expected_version: int | None = None) -> Edited:
    """The question as `edit` makes it of the current one, as its next version, with its audit entry and
    the notices of a regrade; inside a write transaction (/editq, and `proctor import` of an exported
    file: proctor/teams/file_edits.py). Raises NotFound, Changed, and what `edit` raises."""
    old, policy, paper_id = _load_in(conn, question_id)
    if expected_version is not None and old.version != expected_version:
        raise Changed(f"question {question_id} is at version {old.version} now")
    result = commit_in(conn, old, edit(old), policy, name, actor=actor, now=now, regrade=regrade)
    refresh_paper(conn, paper_id)  # pinned options, letter references, key doubts: found again
    audit.record(conn, at=now, actor=actor, chat_id=chat_id, action=AuditAction.question_edit,
                 target=f"question:{question_id}", question=question_id, version=result.version,
                 field=name, regraded=result.answers, changed=len(result.changes))
    report_in(conn, result, actor=actor, chat_id=chat_id, now=now, ref=f"q{question_id}v{result.version}")
    return result


def report_in(conn: sqlite3.Connection, result: Edited, *, actor: int, chat_id: int | None, now: float,
              ref: str, dispute: tuple[int, int] | None = None) -> None:
    """Inside the edit's transaction: an audit entry per changed attempt; one notice per candidate
    naming each of their changes, up or down (`dispute`: (id, disputer), whose notice says it was
    upheld, changed or not); the updated card to the lead who invited a changed hiring attempt. A
    candidate whose running exam seals the question gets theirs at its hand-in (held in the outbox)."""
    qid, version = result.question_id, result.version
    by_user: dict[int, list[Change]] = {}
    for c in result.changes:
        by_user.setdefault(c.user_id, []).append(c)
        if c.attempt_id is None:
            continue
        audit.record(conn, at=now, actor=actor, chat_id=chat_id, action=held.REGRADE,
                     target=f"attempt:{c.attempt_id}", target_user=c.user_id, **held.change_detail(
                         question=qid, old=c.total_old, new=c.total_new, answer_old=c.old, answer_new=c.new,
                         from_version=c.from_version, to_version=version))
        if c.invite_id is not None and c.total_new is not None:
            invite_attempts.regraded_in(conn, c.invite_id, c.attempt_id, question_id=qid, version=version,
                                        old=c.total_old, new=c.total_new, now=now)
    if dispute is not None:
        by_user.setdefault(dispute[1], [])
    for user_id, changes in by_user.items():
        payload: dict[str, object] = {"question": qid, "changes": [
            held.notice_change(old=c.old, new=c.new, max_score=c.max_score, title=c.title, attempt=c.attempt_id,
                               total_old=c.total_old, total_new=c.total_new) for c in changes]}
        if dispute is not None and user_id == dispute[1]:
            payload["dispute"] = dispute[0]
        outbox.enqueue_in(conn, kind=outbox.Kind.key_fix_notice, ref=f"{ref}:{user_id}", chat_id=user_id,
                          user_id=user_id, now=now, payload=payload, held_by=result.sealing.get(user_id))


def _load_in(conn: sqlite3.Connection, question_id: int) -> tuple[Question, MultiPolicy, int]:
    cur = conn.execute("SELECT q.*, p.multi_policy FROM questions q JOIN papers p ON p.id = q.paper_id "
                       "WHERE q.id=?", (question_id,))
    row = cur.fetchone()
    if row is None:
        raise NotFound(f"no question {question_id}")
    return question_from_row(row), MultiPolicy(row["multi_policy"]), row["paper_id"]


def commit_in(conn: sqlite3.Connection, old: Question, new: Question, policy: MultiPolicy, name: str, *,
              actor: int, now: float, regrade: bool, dispute_id: int | None = None) -> Edited:
    """Write `new` as the next version of `old` (logged, its text kept) and, with `regrade`, rescore
    the answers to it; call inside a write transaction. /keyfix and /editq both end here.
    Raises OwnScore (the caller's transaction rolls back)."""
    qid = old.id or 0
    version = old.version + 1
    new = new.model_copy(update={"version": version})
    keep_version_in(conn, old)
    keep_version_in(conn, new)
    conn.execute(
        "UPDATE questions SET stem=?, options=?, answer=?, explanation=?, key_version=?, key_terms=? WHERE id=?",
        (new.stem, json.dumps(new.options, ensure_ascii=False), json.dumps(new.answer, ensure_ascii=False),
         new.explanation, version,
         None if new.answer != old.answer and new.kind in SUBJECTIVE else _terms(old), qid))
    sealing = sealing_in(conn, qid)  # whose running exam shows it: they hear of this at hand-in
    result = Edited(qid, version, name, sealing=sealing)
    if regrade and new.kind not in SUBJECTIVE:
        result = _regrade(conn, new, policy, result, actor=actor, now=now)
        ratings.regraded_in(conn, [qid])  # answers that counted for ratings may have changed
    conn.execute(
        "INSERT INTO key_versions (question_id, version, answer, previous, dispute_id, actor, regraded, "
        "created_at, field) VALUES (?,?,?,?,?,?,?,?,?)",
        (qid, version, json.dumps(new.answer, ensure_ascii=False), json.dumps(old.answer, ensure_ascii=False),
         dispute_id, actor, len(result.changes), now, name))
    return result


def _terms(q: Question) -> str | None:
    return None if q.key_terms is None else json.dumps(q.key_terms, ensure_ascii=False)


def _regrade(conn: sqlite3.Connection, q: Question, policy: MultiPolicy, result: Edited, *,
             actor: int, now: float) -> Edited:
    """Rescore the exam answers (final, not a reviewer's) and the daily answers to `q`; unanswered
    questions on running sheets move to the new version too (they are then graded by its key). The exam
    answers of a candidate whose running exam seals `q` wait for its hand-in. Raises OwnScore."""
    version = result.version
    changes: list[Change] = []
    n = waiting = 0
    # an exam answer is graded by the policy of the paper it was answered on (a mock or composed paper
    # may score a multiple-answer question otherwise than its home paper), as answering graded it
    cur = conn.execute(
        "SELECT x.attempt_id, x.pos, x.response, x.score, x.max_score, x.key_version, t.user_id, t.title, "
        "t.invite_id, t.score AS total, p.multi_policy AS sheet_policy FROM answers x "
        "JOIN attempts t ON t.id = x.attempt_id LEFT JOIN papers p ON p.id = t.paper_id "
        "WHERE x.question_id=? AND x.final=1 AND x.reviewed_by IS NULL", (q.id,))
    for r in cur.fetchall():
        attempt_id, pos, old, max_score, user_id = r["attempt_id"], r["pos"], r["score"], r["max_score"], r["user_id"]
        g = grade(q, json.loads(r["response"]), multi_policy=policy_of(r["sheet_policy"]))
        new = item_score(g, max_score)  # as answering scored it: the same key gives the same score
        _not_own(user_id, actor, old, new)
        if user_id in result.sealing:  # their exam runs: this waits for its hand-in (proctor/exams/held.py)
            held.hold_in(conn, attempt_id, q.id or 0, until=result.sealing[user_id], actor=actor, now=now)
            waiting += 1
            continue
        n += 1
        conn.execute("UPDATE answers SET score=?, verdict=?, key_version=? WHERE attempt_id=? AND pos=?",
                     (new, g.verdict.value, version, attempt_id, pos))
        if new != old:
            cur = conn.execute(
                f"UPDATE attempts SET score={ATTEMPT_TOTAL} WHERE id=? AND score IS NOT NULL RETURNING score",
                (attempt_id, attempt_id))
            total = cur.fetchone()
            changes.append(Change(user_id, old, new, max_score, attempt_id, r["key_version"], r["total"],
                                  None if total is None else total[0], r["title"], r["invite_id"]))
    conn.execute(
        "UPDATE attempt_items SET version=? WHERE question_id=? AND attempt_id IN "
        f"(SELECT id FROM attempts WHERE status='{AttemptStatus.running}') AND NOT EXISTS (SELECT 1 FROM answers a "
        "WHERE a.attempt_id = attempt_items.attempt_id AND a.pos = attempt_items.pos)", (version, q.id))
    cur = conn.execute(
        "SELECT a.delivery_id, a.pos, a.user_id, a.response, a.score, a.max_score, "
        "COALESCE(k.key_version, 1) FROM daily_answers a LEFT JOIN daily_answer_keys k "
        "ON k.delivery_id = a.delivery_id AND k.pos = a.pos AND k.user_id = a.user_id WHERE a.question_id=?",
        (q.id,))
    for delivery_id, pos, user_id, response, old, max_score, was in cur.fetchall():
        g = grade(q, json.loads(response), multi_policy=policy)
        new = daily_score(g, max_score)  # as answering stored it: the same key gives the same score
        _not_own(user_id, actor, old, new)
        n += 1
        conn.execute("UPDATE daily_answers SET score=?, verdict=? WHERE delivery_id=? AND pos=? AND user_id=?",
                     (new, g.verdict.value, delivery_id, pos, user_id))
        conn.execute("INSERT INTO daily_answer_keys (delivery_id, pos, user_id, key_version) VALUES (?,?,?,?) "
                     "ON CONFLICT (delivery_id, pos, user_id) DO UPDATE SET key_version=excluded.key_version", (delivery_id, pos, user_id, version))
        if new != old:
            changes.append(Change(user_id, old, new, max_score, from_version=was))
    return dataclasses.replace(result, changes=changes, answers=n, held=waiting)


def _not_own(user_id: int, actor: int, old: float, new: float) -> None:
    if user_id == actor and new != old:
        raise OwnScore(f"the new key changes user {actor}'s own score ({old} -> {new})")


async def answer_count(db: Database, question_id: int) -> int:
    """Machine-graded answers a regrade would rescore (exams and daily quizzes)."""
    n: int = await db.scalar(
        "SELECT (SELECT COUNT(*) FROM answers WHERE question_id=? AND final=1 AND reviewed_by IS NULL) "
        "+ (SELECT COUNT(*) FROM daily_answers WHERE question_id=?)", (question_id, question_id))
    return n


def key_text(answer: object) -> str:
    """A key as a lead reads it: letters, true/false, blanks separated by 、, alternatives by /."""
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return "、".join(" / ".join(str(a) for a in alts) if isinstance(alts, list) else str(alts) for alts in answer)
    return str(answer)
